// npm run db:build-indexes: before deploying a version with new migrations to a live PostgreSQL
// database, builds the indexes those migrations create with CREATE INDEX CONCURRENTLY (writes go
// on; PostgreSQL refuses CONCURRENTLY inside the migrator's transaction). The migration then finds
// each index in place (the migrator reads `CREATE INDEX` as `CREATE INDEX IF NOT EXISTS`) and only
// does the rest. Indexes of tables the pending migrations create are left to them (empty tables).
// A build that fails leaves an invalid index behind: it is dropped and built again on the next run.
// Usage: DATABASE_URL=postgres://... npm run db:build-indexes [-- --dry-run]
import path from 'node:path';
import postgres from 'postgres';
import { readMigrations } from '@/db/migrate';
import { env } from '@/env';

const url = env().DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set: the embedded database is never live-migrated by another process.');
  process.exit(1);
}
const dryRun = process.argv.includes('--dry-run');
const sql = postgres(url, { max: 1, onnotice: () => {} });

try {
  const applied = await sql<{ created_at: string }[]>`
    select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`.catch(() => []);
  const last = applied.length ? Number(applied[0].created_at) : -1;
  const pending = readMigrations(path.join(process.cwd(), 'db', 'migrations')).filter((m) => m.folderMillis > last);
  const statements = pending.flatMap((m) => m.sql.map((s) => s.replace(/^\s*(--[^\n]*\n\s*)*/, '').trim()));
  const newTables = new Set(statements.map((s) => /^CREATE TABLE (?:IF NOT EXISTS )?"([^"]+)"/i.exec(s)?.[1]).filter(Boolean));
  const extensions = statements.filter((s) => /^CREATE EXTENSION IF NOT EXISTS/i.test(s));
  const indexes = statements
    .map((s) => /^CREATE (UNIQUE )?INDEX IF NOT EXISTS "([^"]+)" ON "([^"]+)"(.*)$/is.exec(s.replace(/;\s*$/, '')))
    .filter((m): m is RegExpExecArray => m !== null && !newTables.has(m[3]));
  console.log(`${pending.length} pending migration(s), ${indexes.length} index(es) to build on existing tables`);
  for (const ext of extensions) {
    console.log(ext);
    if (!dryRun) await sql.unsafe(ext);
  }
  for (const [, unique, name, table, rest] of indexes) {
    const [state] = await sql<{ valid: boolean }[]>`
      select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
      where c.relname = ${name} and c.relnamespace = 'public'::regnamespace`;
    if (state?.valid) {
      console.log(`${name}: exists`);
      continue;
    }
    const ddl = `CREATE ${unique ?? ''}INDEX CONCURRENTLY IF NOT EXISTS "${name}" ON "${table}"${rest}`;
    console.log(ddl);
    if (dryRun) continue;
    if (state && !state.valid) await sql.unsafe(`DROP INDEX CONCURRENTLY IF EXISTS "${name}"`);
    const started = Date.now();
    await sql.unsafe(ddl);
    console.log(`${name}: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
} finally {
  await sql.end();
}
