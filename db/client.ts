import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Sql } from 'postgres';
import { env } from '@/env';
import { lockDirectory } from './lock-directory';
import * as schema from './schema';

/** One type for both drivers, so domain code never knows which one it runs on. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

type Handle = {
  db: Db;
  driver: 'postgres' | 'pglite';
  close: () => Promise<void>;
  /**
   * COPY's text format into `target` (`table (columns)`): rows written at the cost of a bulk load,
   * for the bot request log's batches. Rejects with the database's error; nothing is written then.
   */
  copyIn: (target: string, data: Uint8Array) => Promise<void>;
};

const MIGRATIONS = path.join(process.cwd(), 'db', 'migrations');
/**
 * How long (ms) a migration statement waits for a table lock before the migration steps back and tries
 * again: shorter than PostgreSQL's deadlock_timeout (1 s), so in a lock cycle with a serving
 * instance's transaction the migration gives way and the request is not the one aborted, and the
 * requests queued behind its lock wait a fraction of a second at most.
 */
const MIGRATION_LOCK_TIMEOUT = 500;

/** How this process's connections show in pg_stat_activity (the metrics count them by it). */
export const APPLICATION_NAME = `va-chat ${os.hostname()}:${process.pid}`.slice(0, 63);
/** The request log's COPY connection: one more, outside the pool and its metrics. */
const COPY_APPLICATION_NAME = `va-chat-log ${os.hostname()}:${process.pid}`.slice(0, 63);

// The handle lives on globalThis: the instrumentation hook, each route bundle and hot reloads
// would otherwise each open their own database.
// Once per process, as platform/util/process-store.ts explains (db/ imports nothing from lib/).
const store = globalThis as unknown as { __vaDb?: Promise<Handle> };

export function getDb(): Promise<Db> {
  return getHandle().then((h) => h.db);
}

export function getHandle(): Promise<Handle> {
  if (!store.__vaDb) {
    store.__vaDb = openDatabase().catch((err) => {
      store.__vaDb = undefined;
      throw err;
    });
  }
  return store.__vaDb;
}

/**
 * The database if one is open, without opening one: for work that runs after a request (the bot
 * request log's batched writes), which must not open a database again after closeDb().
 */
export function openedHandle(): Promise<Handle> | undefined {
  return store.__vaDb;
}

/** Use an already opened handle (tests open a fresh database per file). */
export function setHandle(handle: Handle): void {
  store.__vaDb = Promise.resolve(handle);
}

/**
 * On shutdown, with the embedded database: a CHECKPOINT after the drain, so the data directory is
 * left with everything in its data files and the next start has no WAL to replay. PostgreSQL needs
 * nothing. (Added for a shutdown test that read a delivery as lost after the exit; the cause turned
 * out to be the attempt timing out on a loaded machine, not the files, but the checkpoint stays.)
 */
export async function checkpointEmbedded(): Promise<void> {
  const h = await store.__vaDb;
  if (h?.driver === 'pglite') await h.db.execute(sql`checkpoint`);
}

export async function closeDb(): Promise<void> {
  const h = store.__vaDb;
  store.__vaDb = undefined;
  if (h) await (await h).close();
}

async function openDatabase(): Promise<Handle> {
  const url = env().DATABASE_URL;
  return url ? openPostgres(url, { migrate: true }) : openPglite(env().DATA_DIR);
}

export async function openPostgres(url: string, { migrate }: { migrate: boolean }): Promise<Handle> {
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  if (migrate) {
    // Migrations run on a connection of their own, without the statement timeout of the pool, and
    // give way to the instances still serving (applyMigrationsGivingWay in db/migrate.ts).
    const migrator = postgres(url, {
      max: 1,
      onnotice: () => {},
      connect_timeout: env().DATABASE_CONNECT_TIMEOUT_SECONDS,
      connection: { lock_timeout: MIGRATION_LOCK_TIMEOUT },
    });
    try {
      const { applyMigrationsGivingWay } = await import('./migrate');
      await applyMigrationsGivingWay(drizzle(migrator, { schema }) as unknown as Db, MIGRATIONS);
    } finally {
      await migrator.end({ timeout: 5 });
    }
  }
  // A database that is down or unreachable must fail a request within seconds (a 503), not hold it.
  // JIT compilation is off: every statement of the app is short, and the planner's cost estimate of
  // some (the delivery claim's scan, estimated over the whole backlog though it stops after a few
  // dozen rows) crosses `jit_above_cost`, which then spent 20-270 ms compiling a statement that runs
  // in 2-5 ms, at every claim (seen in auto_explain during bench:events).
  const options = (max: number, applicationName: string, connection: Record<string, string> = {}) => ({
    max,
    onnotice: () => {},
    connect_timeout: env().DATABASE_CONNECT_TIMEOUT_SECONDS,
    backoff: reconnectDelaySeconds,
    connection: {
      statement_timeout: env().DATABASE_STATEMENT_TIMEOUT_MS,
      application_name: applicationName,
      jit: 'off',
      ...connection,
    },
  });
  const client = postgres(url, options(env().DATABASE_POOL_SIZE, APPLICATION_NAME));
  // COPY gets a connection of its own, opened at the first batch: the pool pipelines queries onto
  // busy connections, and a query sent to a connection in COPY mode breaks it (seen under
  // bench:api's load: the server reset the connection, failing the batch and the queries behind
  // it). postgres.js's reserve() avoids that, but a reserved connection that died mid-COPY went
  // back to the pool as if open, and the queries given to it were never answered.
  let copyClient: Sql | undefined;
  let closed = false;
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    driver: 'postgres',
    close: async () => {
      closed = true;
      await Promise.all([client.end({ timeout: 5 }), copyClient?.end({ timeout: 5 })]);
    },
    copyIn: async (target, data) => {
      // Not a connection opened after close(): it would keep the process alive.
      if (closed) throw new Error('the database is closed');
      // The log is written without waiting for its own WAL flush: a batch's commit returns once
      // written, and the WAL writer (or the next request's commit) flushes it within a fraction of
      // a second. So the log adds no flush of its own to the ones requests wait on. A crash of
      // PostgreSQL can lose the batches of that fraction, as a crash of the server loses those
      // still buffered: the log is a record for support, not a ledger.
      copyClient ??= postgres(url, options(1, COPY_APPLICATION_NAME, { synchronous_commit: 'off' }));
      return postgresCopyIn(copyClient)(target, data);
    },
  };
}

/**
 * Handle.copyIn on postgres.js: COPY FROM STDIN on `client`, which must send nothing else meanwhile
 * (a client of one connection that only copies). A refusal after the data is sent rejects
 * (patches/postgres+3.4.9.patch: unpatched, the writer waited forever).
 */
export function postgresCopyIn(client: Sql) {
  return async (target: string, data: Uint8Array): Promise<void> => {
    const stream = await client.unsafe(`copy ${target} from stdin`).writable();
    stream.end(data);
    await finished(stream);
  };
}

/**
 * Seconds before a pool connection tries again after a failed connect (`retries`: failures in a row,
 * shared by the pool). postgres.js waits 3^retries/100 s, up to 20 s, and a query that needs a
 * connection waits that long before its attempt even starts: a few seconds into an outage every
 * request and scrape was held 10-20 s (seen in `npm run drill:ops`). The same curve, capped at 1 s,
 * so each one fails within about a second plus the connect timeout and recovers as fast.
 */
export function reconnectDelaySeconds(retries: number): number {
  return (0.5 + Math.random() / 2) * Math.min(3 ** retries / 100, 1);
}

/**
 * `dataDir` undefined: an in-memory database (tests), started from `loadDataDir` (a dump of a
 * migrated database, `dumpPgliteTemplate`) when given: about a second instead of three or four to migrate.
 */
export async function openPglite(dataDir: string | undefined, { loadDataDir }: { loadDataDir?: Blob } = {}): Promise<Handle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  let releaseLock = () => {};
  if (dataDir) {
    const dir = path.resolve(dataDir);
    // PGlite creates only the last directory of its path.
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    // Two processes can open one PGlite directory without an error and silently diverge.
    releaseLock = await lockDirectory(dir);
  }
  // pg_trgm serves the admin search's trigram indexes (PGlite ships it as a separate extension).
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const client = new PGlite({ dataDir: dataDir ? path.resolve(dataDir) : undefined, loadDataDir, extensions: { pg_trgm } });
  const db = drizzle(client, { schema }) as unknown as Db;
  try {
    await client.waitReady;
    const { applyMigrations } = await import('./migrate');
    await applyMigrations(db, MIGRATIONS);
  } catch (err) {
    await client.close().catch(() => {});
    releaseLock();
    throw err;
  }
  return {
    db,
    driver: 'pglite',
    copyIn: async (target, data) => {
      await client.query(`copy ${target} from '/dev/blob'`, [], {
        blob: new Blob([new Uint8Array(data.buffer as ArrayBuffer, data.byteOffset, data.byteLength)]),
      });
    },
    close: async () => {
      await client.close();
      releaseLock();
    },
  };
}

/** A migrated in-memory database, dumped (uncompressed tar) for `openPglite`'s `loadDataDir` in the tests. */
export async function dumpPgliteTemplate(): Promise<Blob> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const client = new PGlite({ extensions: { pg_trgm } });
  try {
    await client.waitReady;
    const { applyMigrations } = await import('./migrate');
    await applyMigrations(drizzle(client, { schema }) as unknown as Db, MIGRATIONS);
    // A test file's database holds little, and PostgreSQL's default 128 MB of shared buffers are
    // touched as it starts: 16 MB saves each test file's process about 0.5 s of CPU (28,000 fewer
    // page faults; measured with PGlite alone from this dump, 2.45 -> 1.95 s).
    await client.exec(`ALTER SYSTEM SET shared_buffers = '16MB'`);
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}
