import { getHandle } from '@/db/client';
import { env } from '@/env';
import { listenForRevokedTokens } from '@/lib/auth/token-cache';
import { startDelivery } from '@/lib/delivery/start-delivery';
import { startRetention } from '@/lib/retention/start-retention';
import { logger } from '@/lib/util/logger';
import { bootstrap } from './bootstrap';

const store = globalThis as unknown as { __vaStarted?: Promise<void> };

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
  startRetention();
}
