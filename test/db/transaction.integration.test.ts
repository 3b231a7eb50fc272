import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { after, before, it } from 'node:test';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { type Db, openPostgres } from '@/db/client';
import { describeOrSkip } from '@/test/support/describe-or-skip';

const url = process.env.DATABASE_URL;
/** Each test fails, naming itself, rather than hanging when a transaction is never answered. */
const BOUNDED = { timeout: 30_000 };

/**
 * Transactions on PostgreSQL (Drizzle over postgres.js, with this project's patch to postgres.js's
 * `begin`: patches/postgres+3.4.9.patch), through a TCP proxy that counts what the server is sent:
 * BEGIN rides with the first statement, and commits, rollbacks and lost connections behave as
 * before.
 */
describeOrSkip('transactions: BEGIN sent with the first statement', !url && 'needs PostgreSQL (DATABASE_URL)', () => {
  const name = `va_test_tx_${process.pid}_${randomBytes(3).toString('hex')}`;
  let admin: postgres.Sql;
  let proxy: net.Server;
  let db: Db;
  let close: () => Promise<void>;
  /** Writes the proxy passed from the app's connections to PostgreSQL. */
  let writes = 0;

  before(async () => {
    const server = new URL(url as string);
    admin = postgres(url as string, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    proxy = net.createServer((client) => {
      const upstream = net.connect(Number(server.port || 5432), server.hostname);
      client.on('data', (d) => {
        writes++;
        upstream.write(d);
      });
      upstream.pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const through = new URL(url as string);
    through.hostname = '127.0.0.1';
    through.port = String((proxy.address() as net.AddressInfo).port);
    through.pathname = `/${name}`;
    const handle = await openPostgres(through.toString(), { migrate: false });
    db = handle.db;
    close = handle.close;
    await db.execute(sql`create table t (id int primary key, v text not null)`);
  });

  after(async () => {
    await close?.();
    proxy?.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  const count = async (id: number) => {
    const r = (await db.execute(sql`select count(*)::int as n from t where id = ${id}`)) as unknown as { n: number }[];
    return r[0].n;
  };
  /** Writes sent to PostgreSQL while `fn` runs (one connection in use, each statement awaited). */
  const writesOf = async (fn: () => Promise<unknown>) => {
    await db.execute(sql`select 1`); // the connection is open and idle
    const before = writes;
    await fn();
    return writes - before;
  };

  it('sends BEGIN in the same write as the first statement: a transaction of one statement is two writes', BOUNDED, async () => {
    // Unpatched, BEGIN, the insert and COMMIT each waited for the one before: three writes.
    assert.equal(await writesOf(() => db.transaction((tx) => tx.execute(sql`insert into t values (1, 'one')`))), 2);
    assert.equal(await count(1), 1);
    // With two statements, the second waits for the first's answer as before.
    assert.equal(
      await writesOf(() =>
        db.transaction(async (tx) => {
          await tx.execute(sql`insert into t values (2, 'two')`);
          await tx.execute(sql`update t set v = 'two, changed' where id = 2`);
        }),
      ),
      3,
    );
    assert.equal(await count(2), 1);
  });

  it('rolls back when the work throws, and the connection serves the next transaction', BOUNDED, async () => {
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into t values (3, 'thrown')`);
        throw new Error('the work failed');
      }),
      /the work failed/,
    );
    assert.equal(await count(3), 0);
    await db.transaction((tx) => tx.execute(sql`insert into t values (4, 'after')`));
    assert.equal(await count(4), 1);
  });

  it('fails the transaction when a statement failed and the work went on without it', BOUNDED, async () => {
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into t values (5, 'kept?')`);
        await tx.execute(sql`insert into t values (5, 'duplicate')`).catch(() => {});
        return 'done';
      }),
      /duplicate key/,
    );
    assert.equal(await count(5), 0);
  });

  it('a statement that fails with BEGIN fails the transaction like any other', BOUNDED, async () => {
    await assert.rejects(
      db.transaction((tx) => tx.execute(sql`insert into no_such_table values (1)`)),
      (err: Error) => /no_such_table/.test(String((err.cause as Error | undefined)?.message)),
    );
    await db.transaction((tx) => tx.execute(sql`insert into t values (6, 'still fine')`));
    assert.equal(await count(6), 1);
  });

  it('a connection lost mid-transaction is not handed out again: the next transactions are answered', BOUNDED, async () => {
    await assert.rejects(
      db.transaction(async (tx) => {
        const [{ pid }] = (await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as { pid: number }[];
        await admin.unsafe(`select pg_terminate_backend(${Number(pid)})`);
        await tx.execute(sql`insert into t values (7, 'lost')`);
      }),
    );
    for (let i = 0; i < 5; i++) {
      let timer: NodeJS.Timeout | undefined;
      const answered = db.transaction((tx) => tx.execute(sql`insert into t values (${100 + i}, 'next')`));
      const hung = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`transaction ${i} after the lost connection was never answered`)), 10_000);
      });
      await Promise.race([answered, hung]).finally(() => clearTimeout(timer));
    }
    assert.equal(await count(7), 0);
    assert.equal(await count(104), 1);
  });

  it('reserves the connection for a BEGIN that fills the pipeline: no UNSAFE_TRANSACTION, no transaction left open', BOUNDED, async () => {
    // max_pipeline 0: every statement fills the pipeline, so the reservation was skipped for every
    // BEGIN (the upstream fault the patch mends); at the default it happened only at the boundary,
    // under load (seen in bench:open-widgets as a duty's UNSAFE_TRANSACTION).
    // max_pipeline is an option postgres.js reads but does not declare in its types.
    const options = { max: 2, max_pipeline: 0, onnotice: () => {} };
    const tight = postgres(new URL(`/${name}`, url as string).toString(), options);
    try {
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          tight.begin(async (tx) => {
            await tx`insert into t values (${200 + i}, 'tight')`;
            return (await tx`select count(*)::int as n from t where id = ${200 + i}`)[0].n as number;
          }),
        ),
      );
      assert.deepEqual(results, [1, 1, 1, 1, 1, 1]);
      // Committed, and no connection of the pool left inside a transaction.
      assert.equal(Number((await tight`select count(*)::int as n from t where v = 'tight'`)[0].n), 6);
      const open =
        await admin`select count(*)::int as n from pg_stat_activity where datname = ${name} and state like 'idle in transaction%'`;
      assert.equal(open[0].n, 0);
    } finally {
      await tight.end({ timeout: 5 });
    }
  });

  it("keeps a transaction's connection when its socket drains between two statements: no other query runs inside it", BOUNDED, async () => {
    // A socket's `drain` with no statement in flight handed the connection back to the pool, so a
    // query waiting for a connection ran inside someone's open transaction (the upstream report's
    // other path). Its timing is rare on loopback, so the test emits the event itself, at the point
    // where it hurt: between two statements of a transaction. One connection: the waiting query can
    // only run there (wrongly) or after the transaction (rightly).
    const sockets: net.Socket[] = [];
    const server = new URL(url as string);
    // `socket` (a function giving the connected socket) is an option postgres.js reads but does not
    // declare in its types: here it keeps the socket, so the test can emit its `drain`.
    const options = {
      max: 1,
      onnotice: () => {},
      socket: () =>
        new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect(Number(server.port || 5432), server.hostname);
          sockets.push(socket);
          socket.once('connect', () => resolve(socket));
          socket.once('error', reject);
        }),
    };
    const one = postgres(new URL(`/${name}`, url as string).toString(), options);
    try {
      let waiting: Promise<unknown> | undefined;
      await assert.rejects(
        one.begin(async (tx) => {
          await tx`insert into t values (300, 'never committed')`;
          waiting = one`select pg_current_xact_id_if_assigned()::text as xid, (select count(*)::int from t where id = 300) as n`.execute();
          // The query waits for the pool's one connection (postgres.js sends a query once it is executed).
          assert.equal(sockets.length, 1);
          sockets[0].emit('drain');
          await tx`select pg_sleep(0.05)`;
          throw new Error('rolled back on purpose');
        }),
        /rolled back on purpose/,
      );
      const rows = (await waiting) as unknown as { xid: string | null; n: number }[];
      // Ran after the rollback, in no transaction: it saw no transaction id and no uncommitted row.
      assert.deepEqual({ ...rows[0] }, { xid: null, n: 0 });
      assert.equal(Number((await one`select count(*)::int as n from t where id = 300`)[0].n), 0);
    } finally {
      await one.end({ timeout: 5 });
    }
  });
});
