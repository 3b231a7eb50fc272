import { getHandle } from '@/db/client';
import { DirectoryInUseError } from '@/db/lock-directory';
import { env } from '@/env';
import { listenForRevokedTokens } from '@/lib/bot-auth/token-cache';
import { startDelivery } from '@/lib/delivery/start-delivery';
import { dutiesInProcess } from '@/lib/duties/duties';
import { startDuties } from '@/lib/duties/start-duties';
import { logger } from '@/platform/util/logger';
import { processStore } from '@/platform/util/process-store';
import { bootstrap } from './bootstrap';

const store = processStore<{ __vaStarted?: Promise<void> }>();

export function startServer(): Promise<void> {
  if (!store.__vaStarted) store.__vaStarted = start();
  return store.__vaStarted;
}

async function start() {
  const handle = await getHandle();
  logger.info('database ready', { driver: handle.driver, ...(handle.driver === 'pglite' ? { dataDir: env().DATA_DIR } : {}) });
  await bootstrap(handle.db);
  await startDelivery();
  await listenForRevokedTokens(handle.db);
  // The periodic duties (lib/duties): all of them here with the embedded engine; otherwise Inngest's
  // cron runs them, and this process only those that must act within a second (the turn closer).
  startDuties(handle.db, { duties: dutiesInProcess(env().DELIVERY_ENGINE) });
}

/**
 * The one line a failed start prints: what failed and what to do. Never the connection string or
 * a stack (a database URL may hold a password).
 */
export function startFailureLine(err: unknown): string {
  if (err instanceof DirectoryInUseError) return `Could not start: ${err.message}`;
  const message = err instanceof Error ? err.message : String(err);
  const where = env().DATABASE_URL
    ? 'check that the PostgreSQL server in DATABASE_URL is up and reachable'
    : `check DATA_DIR (${env().DATA_DIR})`;
  return `Could not start: ${message.split('\n')[0].replace(/\.$/, '')}. Fix it (${where}) and start again.`;
}
