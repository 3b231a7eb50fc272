import type { SQL } from 'drizzle-orm';
import type { Db } from '@/db/client';

/**
 * A statement prepared once per database handle. Drizzle's builder does not prepare on its own,
 * so PostgreSQL would plan hot queries again on every call.
 */
export function prepared<P extends { execute: (...args: never[]) => unknown }>(
  name: string,
  build: (db: Db) => { prepare: (name: string) => P },
): (db: Db) => P {
  const cache = new WeakMap<Db, P>();
  return (db) => {
    let p = cache.get(db);
    if (!p) {
      p = build(db).prepare(name);
      cache.set(db, p);
    }
    return p;
  };
}

/**
 * A statement for use inside transactions, built once per process and run on each transaction's
 * own connection. Building a wide query with Drizzle's builder on every call was a large share of a
 * chat change's CPU (the chat lock's select of every column: about a tenth of a message's cost), and
 * a transaction is a new handle each time, so `prepared` above would build it every time. The query
 * Drizzle prepared for the first transaction is reused with the next transaction's client in place
 * of the first's (`client` is the one field Drizzle's prepared queries take from their session, on
 * postgres.js and on PGlite alike); the cache is per session class, so a process with both drivers
 * (a test against PGlite and PostgreSQL) keeps one of each.
 */
export function preparedInTransaction<P extends { execute: (...args: never[]) => unknown }>(
  name: string,
  build: (tx: Db) => { prepare: (name: string) => P },
): (tx: Db) => P {
  const cache = new Map<unknown, P>();
  return (tx) => {
    const session = (tx as unknown as { session: { client: unknown; constructor: unknown } }).session;
    const base = cache.get(session.constructor);
    if (!base) {
      const p = build(tx).prepare(name);
      cache.set(session.constructor, p);
      return p;
    }
    return Object.create(base, { client: { value: session.client } }) as P;
  };
}

type RawPrepared = { execute: (values?: Record<string, unknown>) => Promise<unknown> };
type RawBuilder = {
  session: { prepareQuery: (query: unknown, fields: undefined, name: string, arrayMode: false) => RawPrepared };
  dialect: { sqlToQuery: (query: SQL) => unknown };
};

/**
 * Raw SQL with `sql.placeholder`s in place of its values, prepared as `preparedInTransaction` does
 * (built once per process, run on whichever handle is given: a transaction's or the pool's), for
 * statements Drizzle's builders cannot say. `execute` answers the driver's rows: read them with
 * `rowsOf`.
 */
export function preparedSql(name: string, query: SQL): (tx: Db) => RawPrepared {
  return preparedInTransaction(name, (tx) => {
    const { session, dialect } = tx as unknown as RawBuilder;
    return { prepare: (as: string) => session.prepareQuery(dialect.sqlToQuery(query), undefined, as, false) };
  });
}
