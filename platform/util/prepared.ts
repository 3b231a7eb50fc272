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
