import { getDb } from '@/db/client';
import { env } from '@/env';
import { connectOutboxSignal, disconnectOutboxSignal } from '@/lib/events/signal';
import { logger } from '@/platform/util/logger';
import { processStore } from '@/platform/util/process-store';

const store = processStore<{ __vaDeliveryStarted?: Promise<void> }>();

/**
 * Starts webhook delivery as DELIVERY_ENGINE says, once per process: `embedded` runs the claim loop
 * in this process, woken by outbox signals from this and (on PostgreSQL) every other instance;
 * `inngest` sends nothing here (the instrumentation hook wires the hand-over in inngest/); `off`
 * sends nothing (events wait in the outbox). Every engine forwards its own outbox signals to the
 * other instances, so an API-only instance still wakes the ones that deliver.
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
  const db = await getDb();
  await connectOutboxSignal(db, { listen: engine === 'embedded' });
  if (engine === 'embedded') {
    const { startEmbeddedEngine } = await import('./embedded-engine');
    await startEmbeddedEngine();
  }
  logger.info('webhook delivery started', { engine });
}

/**
 * Stops this process's delivery (shutdown): no more claims; calls in flight get `graceMs` to
 * finish and be recorded, then the leases of those still unanswered are released.
 */
export async function stopDelivery({ graceMs }: { graceMs: number }): Promise<void> {
  const { stopEmbeddedEngine } = await import('./embedded-engine');
  await stopEmbeddedEngine({ graceMs });
  await disconnectOutboxSignal();
  store.__vaDeliveryStarted = undefined;
}
