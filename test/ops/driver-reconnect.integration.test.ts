import assert from 'node:assert/strict';
import net from 'node:net';
import { it } from 'node:test';
import postgres from 'postgres';
import { env } from '@/env';
import { describeOrSkip } from '../support/describe-or-skip';

/**
 * postgres.js 3.4.9 as patched by patches/postgres+3.4.9.patch (applied by `npm ci`'s postinstall):
 * a connection that closes while a short write waits for its setImmediate must neither throw from
 * that immediate (upstream porsager/postgres#1066, #1154) nor keep the cancelled timer, which made
 * the next connection's first short write (its startup message) wait for ever: every reconnect of
 * that pool slot then ended in CONNECT_TIMEOUT, as `npm run drill:ops` saw after a database stop;
 * nor may a connection lost while it reads the array types leave a rejection nobody handles (it
 * ended the process; CI saw it once in test/ops/database-outage).
 * Needs a real PostgreSQL (DATABASE_URL); skipped on the embedded database.
 */
describeOrSkip('database driver: a connection closed with a write pending', env().DATABASE_URL ? false : 'needs DATABASE_URL', () => {
  it('connects again and answers, with nothing thrown outside the query', async () => {
    const url = new URL(env().DATABASE_URL as string);
    const sockets: net.Socket[] = [];
    const thrown: unknown[] = [];
    const onUncaught = (err: unknown) => thrown.push(err);
    process.on('uncaughtException', onUncaught);
    // postgres.js's own `socket` option (a factory for each connection's socket; not in its types).
    const ownSockets = {
      socket: () => {
        const s = net.connect(Number(url.port || 5432), url.hostname);
        sockets.push(s);
        return s;
      },
    };
    const sql = postgres(url.toString(), { max: 1, connect_timeout: 3, onnotice: () => {}, ...ownSockets });
    try {
      assert.equal((await sql`select 1 as n`)[0].n, 1);
      // A short query's bytes wait for a setImmediate; one queued before it closes the socket first
      // (immediates run in the order they were queued, and the query is written after this turn).
      const first = sockets[0];
      const pending = sql`select 2 as n`.execute();
      setImmediate(() => {
        first.emit('close', false);
        first.destroy();
      });
      await assert.rejects(pending, /CONNECTION_CLOSED|write CONNECTION_CLOSED/);
      // The same pool slot connects again: its startup message must go out.
      const started = Date.now();
      assert.equal((await sql`select 3 as n`)[0].n, 3);
      assert.ok(Date.now() - started < 3_000, `reconnected after ${Date.now() - started} ms`);
      assert.equal(sockets.length, 2);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(thrown, []);
    } finally {
      process.off('uncaughtException', onUncaught);
      await sql.end({ timeout: 1 });
      for (const s of sockets) s.destroy();
    }
  });
  it('loses a connection while it reads the array types without an unhandled rejection (upstream #1192)', async () => {
    const url = new URL(env().DATABASE_URL as string);
    const rejected: unknown[] = [];
    const onRejected = (err: unknown) => rejected.push(err);
    process.on('unhandledRejection', onRejected);
    let cut = 0;
    const sockets: net.Socket[] = [];
    // Each connection first reads the array types (fetch_types); the first time, the socket is
    // reset as that query goes out, as a database going away does.
    const cutAtTypes = {
      socket: () => {
        const s = net.connect(Number(url.port || 5432), url.hostname);
        sockets.push(s);
        const write = s.write.bind(s) as (...args: unknown[]) => boolean;
        (s as unknown as { write: (...args: unknown[]) => boolean }).write = (chunk: unknown, ...rest: unknown[]) => {
          const types = !cut && String(chunk).includes('pg_catalog.pg_type');
          const written = write(chunk, ...rest);
          if (types) {
            cut++;
            s.destroy(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
          }
          return written;
        };
        return s;
      },
    };
    const sql = postgres(url.toString(), { max: 1, connect_timeout: 3, onnotice: () => {}, ...cutAtTypes });
    try {
      await sql`select 1 as n`.catch(() => {});
      assert.equal(cut, 1, 'the type query went out and its connection was cut');
      assert.equal((await sql`select 2 as n`)[0].n, 2);
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(rejected.map(String), []);
    } finally {
      process.off('unhandledRejection', onRejected);
      await sql.end({ timeout: 1 });
      for (const s of sockets) s.destroy();
    }
  });
});
