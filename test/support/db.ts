import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { after, before } from 'node:test';
import { closeDb, type Db, getHandle, openPglite, openPostgres, setHandle } from '@/db/client';
import { env } from '@/env';
import { flushRequestLog } from '@/lib/request-log/request-log';

/**
 * Call at the top of a suite: opens a fresh database before its tests and closes it after them.
 */
export function setupTestDatabase(): { readonly db: Db } {
  let db: Db | undefined;
  before(async () => {
    db = await openTestDatabase();
  });
  // Rows of the bot request log still in memory go to this database, not to one opened after it closed.
  after(async () => {
    await flushRequestLog();
    await closeDb();
  });
  return {
    get db() {
      if (!db) throw new Error('test database not open yet');
      return db;
    },
  };
}

/**
 * The dump's bytes as PGlite reads a tarball: it asks only for `type` and `arrayBuffer()`. A real
 * Blob of the 43 MB dump copies it and then reads it back in chunks, 0.5-0.6 s of CPU in every test
 * file's process (profiled); this hands over the file's own buffer. Should PGlite read a tarball
 * another way, every PGlite test file fails at its first query, not quietly.
 */
function tarball(bytes: Buffer): Blob {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const buffer = whole ? bytes.buffer : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return { type: 'application/x-tar', arrayBuffer: async () => buffer } as unknown as Blob;
}

/**
 * A fresh, migrated database for one test file, installed as the app's database: PGlite in memory,
 * or a new PostgreSQL database beside DATABASE_URL's (dropped when the file ends). On PostgreSQL
 * under `npm test` it is a copy of the template migrated once for the whole run (TEST_DB_TEMPLATE);
 * run alone, the file migrates its own. PGlite likewise starts from a dump of a database migrated
 * once (TEST_PGLITE_TEMPLATE; ~0.9 s against ~3.4 s to migrate, measured on this machine), and
 * still runs the migrations, which then find nothing to do.
 */
export async function openTestDatabase(): Promise<Db> {
  const { DATABASE_URL: url, TEST_DB_TEMPLATE: template, TEST_PGLITE_TEMPLATE: pgliteTemplate } = env();
  if (!url) {
    // Under `npm test`, a dump of a database migrated once for the whole run (TEST_PGLITE_TEMPLATE).
    const loadDataDir = pgliteTemplate ? tarball(await readFile(pgliteTemplate)) : undefined;
    setHandle(await openPglite(undefined, { loadDataDir }));
  } else {
    const { default: postgres } = await import('postgres');
    const name = `va_test_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(template ? `CREATE DATABASE ${name} TEMPLATE "${template}"` : `CREATE DATABASE ${name}`);
    const dbUrl = new URL(url);
    dbUrl.pathname = `/${name}`;
    const handle = await openPostgres(dbUrl.toString(), { migrate: !template });
    setHandle({
      ...handle,
      close: async () => {
        await handle.close();
        await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      },
    });
  }
  return (await getHandle()).db;
}
