import { sql } from 'drizzle-orm';
import { type MigrationMeta, readMigrationFiles } from 'drizzle-orm/migrator';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/**
 * The migrations drizzle-kit wrote, with every `CREATE INDEX "name"` read as `CREATE INDEX IF NOT
 * EXISTS "name"`. On a live database the indexes of pending migrations are built beforehand with
 * `CREATE INDEX CONCURRENTLY` (`npm run db:build-indexes`, which PostgreSQL refuses inside the
 * migrator's transaction); the migration then finds them and only does the rest. On a fresh
 * database nothing exists yet and the statements build them as written. The files and their
 * hashes stay as drizzle-kit wrote them.
 */
export function readMigrations(migrationsFolder: string): MigrationMeta[] {
  return readMigrationFiles({ migrationsFolder }).map((m) => ({
    ...m,
    sql: m.sql.map((stmt) => stmt.replace(/CREATE (UNIQUE )?INDEX "/g, 'CREATE $1INDEX IF NOT EXISTS "')),
  }));
}

/** Applies pending migrations in one transaction, as drizzle's own migrator does. */
export async function applyMigrations(db: Db, migrationsFolder: string): Promise<void> {
  await new PgDialect().migrate(readMigrations(migrationsFolder), db._.session as never, { migrationsFolder });
}

/** SQLSTATEs of a migration that stepped back for a serving instance: lock_not_available, deadlock_detected. */
const GAVE_WAY = new Set(['55P03', '40P01']);

/**
 * `applyMigrations` during a rolling upgrade: the instances of the previous release still serve on
 * this database, and a migration's ALTER TABLE needs each table to itself for a moment. The
 * migrator's connection has a short lock_timeout (db/client.ts); when a statement cannot get its
 * lock in that time, or PostgreSQL finds a lock cycle, the migration's transaction rolls back
 * and is tried again after a short, growing pause, for up to `giveUpAfterMs` per migration.
 */
export async function applyMigrationsGivingWay(
  db: Db,
  migrationsFolder: string,
  { giveUpAfterMs = 120_000, onRetry = defaultOnRetry }: { giveUpAfterMs?: number; onRetry?: (attempt: number, code: string) => void } = {},
): Promise<void> {
  const all = readMigrations(migrationsFolder);
  const dialect = new PgDialect();
  const last = await lastApplied(db);
  // Each pending migration in a transaction of its own (drizzle's migrator, given the list up to
  // it, applies just that one): a retry redoes one migration, not every one before it, and a
  // migration's locks are held only while it runs.
  for (let i = all.findIndex((m) => m.folderMillis > last); i !== -1 && i < all.length; i++) {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        await dialect.migrate(all.slice(0, i + 1), db._.session as never, { migrationsFolder });
        break;
      } catch (err) {
        const code = sqlState(err);
        if (!code || !GAVE_WAY.has(code) || Date.now() - started > giveUpAfterMs) throw err;
        onRetry(attempt, code);
        await new Promise((r) => setTimeout(r, Math.min(200 * attempt, 2_000) * (0.5 + Math.random())));
      }
    }
  }
}

/** When the last applied migration was written (drizzle's bookkeeping), or 0 on a new database. */
async function lastApplied(db: Db): Promise<number> {
  const [{ at }] = (await db
    .execute(
      sql`select coalesce(max(created_at), 0)::float8 as at from drizzle.__drizzle_migrations where to_regclass('drizzle.__drizzle_migrations') is not null`,
    )
    .catch(() => [{ at: 0 }])) as unknown as { at: number }[];
  return Number(at);
}

function defaultOnRetry(attempt: number, code: string) {
  // No logger import here: db/ stays below lib/. One line, no query text.
  console.warn(
    JSON.stringify({
      level: 'warn',
      time: new Date().toISOString(),
      attempt,
      sqlState: code,
      msg: 'migration gave way to serving instances; trying again',
    }),
  );
}

/** The SQLSTATE of a driver error, also when wrapped (drizzle's "Failed query" keeps it in `cause`). */
function sqlState(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}
