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
