import { randomBytes } from 'node:crypto';
import { after, before } from 'node:test';
import { closeDb, type Db, openPostgres, setHandle } from '@/db/client';
import { env } from '@/env';
import { freePort } from './private-cluster';
import { type ProductionServer, startProductionServer, waitForServer } from './production-server';

/** Why a two-instance suite cannot run here (no PostgreSQL), or false. */
export const needsPostgres = env().DATABASE_URL
  ? false
  : 'needs PostgreSQL (set DATABASE_URL): several instances share one database server';

export type TwoInstances = { db: Db; url: string; a: ProductionServer; b: ProductionServer };

/**
 * Call at the top of a suite: before its tests, a PostgreSQL database of the suite's own (migrated,
 * installed as this process's database) and two production servers on it (`npm start` of the build,
 * with `serverEnv`); after them, both stopped with SIGTERM and the database dropped. The first
 * server builds if the build is missing or stale. E2E_PORT, when set, gives the ports
 * (E2E_PORT + `portOffset` and the next one) on shared machines; else any free ports.
 */
export function setupTwoInstances(label: string, serverEnv: Record<string, string>, { portOffset = 1 } = {}): TwoInstances {
  const two = {} as TwoInstances;
  let dropDb: () => Promise<void> = async () => {};
  before(async () => {
    const { default: postgres } = await import('postgres');
    const adminSql = postgres(env().DATABASE_URL as string, { max: 1, onnotice: () => {} });
    const name = `va_test_${label}_${process.pid}_${randomBytes(3).toString('hex')}`;
    await adminSql.unsafe(`CREATE DATABASE ${name}`);
    const url = new URL(env().DATABASE_URL as string);
    url.pathname = `/${name}`;
    const handle = await openPostgres(url.toString(), { migrate: true });
    setHandle(handle);
    two.db = handle.db;
    two.url = url.toString();
    dropDb = async () => {
      await closeDb();
      await adminSql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await adminSql.end();
    };
    const base = Number(process.env.E2E_PORT ?? 0);
    const [pa, pb] = base ? [base + portOffset, base + portOffset + 1] : [await freePort(), await freePort()];
    const envOf = { DATABASE_URL: two.url, WEBHOOK_ALLOW_PRIVATE: 'true', ...serverEnv };
    two.a = startProductionServer(pa, envOf);
    await waitForServer(two.a, 900_000, '/api/health/ready');
    two.b = startProductionServer(pb, envOf);
    await waitForServer(two.b, 120_000, '/api/health/ready');
  });
  after(async () => {
    for (const s of [two.a, two.b]) s?.child.kill('SIGTERM');
    await Promise.all([two.a?.exited, two.b?.exited]);
    await dropDb();
  });
  return two;
}
