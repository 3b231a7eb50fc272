import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { env } from '@/env';

/**
 * A database for a server process a test starts (test/support/api-server-process.ts): a PGlite
 * directory under `dir`, or on PostgreSQL (DATABASE_URL) a database of its own, copied from
 * `npm test`'s migrated template when there is one; `drop` removes it after the test.
 */
export async function databaseForServer(dir: string, tag = 'srv'): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const { DATABASE_URL: url, TEST_DB_TEMPLATE: template } = env();
  if (!url) return { env: { DATA_DIR: path.join(dir, 'pglite') }, drop: async () => {} };
  const { default: postgres } = await import('postgres');
  const name = `va_test_${tag}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const pg = postgres(url, { max: 1, onnotice: () => {} });
  await pg.unsafe(template ? `CREATE DATABASE ${name} TEMPLATE "${template}"` : `CREATE DATABASE ${name}`);
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: dbUrl.toString() },
    drop: async () => {
      await pg.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await pg.end();
    },
  };
}
