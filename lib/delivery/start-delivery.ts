import { getDb } from '@/db/client';
import { env } from '@/lib/env';
import { onOutbox } from '@/lib/events/signal';
import { logger } from '@/lib/util/logger';

const store = globalThis as unknown as { __vaDeliveryStarted?: Promise<void> };

/**
 * Starts webhook delivery as DELIVERY_ENGINE says, once per process: `embedded` runs the claim loop
 * in this process; `inngest` hands each new outbox event to Inngest, whose function sends it (a cron
 * function re-sends events whose hand-over failed); `off` sends nothing (events wait in the outbox).
 */
export function startDelivery(): Promise<void> {
  store.__vaDeliveryStarted ??= start().catch((err) => {
    store.__vaDeliveryStarted = undefined;
    throw err;
  });
  return store.__vaDeliveryStarted;
}

async function start(): Promise<void> {
  const engine = env().DELIVERY_ENGINE;
  if (engine === 'embedded') {
    const { startEmbeddedEngine } = await import('./embedded-engine');
    await startEmbeddedEngine();
  } else if (engine === 'inngest') {
    const db = await getDb();
    const { requestDelivery } = await import('@/inngest/request-delivery');
    onOutbox((eventIds) => void requestDelivery(db, { eventIds }));
  }
  logger.info('webhook delivery started', { engine });
}
