import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { getHandle } from '@/db/client';
import { env } from '@/env';
import { runningEmbeddedEngine } from '@/lib/delivery/embedded-engine';
import { retryOnStaleConnection } from '@/platform/util/database-unavailable';
import { isDraining } from './draining';

type Check = { ok: boolean; detail?: string };
export type Readiness = {
  status: 'ready' | 'not ready';
  checks: { database: Check; migrations: Check; delivery: Check; shutdown: Check };
};

const DB_CHECK_MS = 2_000;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);
}

/** Migrations shipped with this build (drizzle-kit's journal). */
function shippedMigrations(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(process.cwd(), 'db', 'migrations', 'meta', '_journal.json'), 'utf8'));
  return (journal.entries as unknown[]).length;
}

function countOf(result: unknown): number {
  const rows = Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? []);
  return Number((rows[0] as { n?: unknown } | undefined)?.n ?? 0);
}

/** One query of the probe, tried past pooled connections that were already dead, within twice DB_CHECK_MS in all. */
const probe = <T>(query: () => Promise<T>) => withTimeout(retryOnStaleConnection(query), DB_CHECK_MS * 2);

/**
 * Whether this instance should get traffic: the database answers (within 2 s), every migration of
 * this build is applied, the delivery engine chosen by DELIVERY_ENGINE runs, and the process is not
 * shutting down. Never throws; each check says what failed.
 */
export async function checkReadiness(): Promise<Readiness> {
  const checks: Readiness['checks'] = {
    database: { ok: false },
    migrations: { ok: false },
    delivery: { ok: true },
    shutdown: isDraining() ? { ok: false, detail: 'shutting down' } : { ok: true },
  };
  try {
    const { db } = await withTimeout(getHandle(), DB_CHECK_MS);
    await probe(() => db.execute(sql`select 1`));
    checks.database = { ok: true };
    const applied = countOf(await probe(() => db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)));
    const shipped = shippedMigrations();
    checks.migrations = applied >= shipped ? { ok: true } : { ok: false, detail: `${applied} of ${shipped} migrations applied` };
  } catch (err) {
    const detail = (err as Error).message?.split('\n')[0] ?? 'unreachable';
    if (!checks.database.ok) checks.database = { ok: false, detail };
    else checks.migrations = { ok: false, detail };
  }
  const engine = env().DELIVERY_ENGINE;
  if (engine === 'embedded' && !runningEmbeddedEngine() && !isDraining()) {
    checks.delivery = { ok: false, detail: 'the embedded delivery engine is not running' };
  } else {
    checks.delivery = { ok: checks.delivery.ok, detail: `engine ${engine}` };
  }
  const ready = Object.values(checks).every((c) => c.ok);
  return { status: ready ? 'ready' : 'not ready', checks };
}
