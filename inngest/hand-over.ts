import { getDb } from '@/db/client';
import { deliveryRequestsOf } from '@/lib/delivery/delivery-requests';
import { onOutbox } from '@/lib/events/signal';
import { logger } from '@/platform/util/logger';
import { processStore } from '@/platform/util/process-store';
import { requestDelivery } from './request-delivery';

const store = processStore<{ __vaInngestHandOver?: () => void }>();

/**
 * DELIVERY_ENGINE=inngest: each outbox event committed by this process is handed to Inngest as
 * it is signalled (started once per process by the instrumentation hook).
 */
export async function startInngestHandOver(): Promise<void> {
  if (store.__vaInngestHandOver) return;
  const db = await getDb();
  store.__vaInngestHandOver = onOutbox((eventIds) => {
    deliveryRequestsOf(db, { eventIds })
      .then((rows) => requestDelivery({ rows }))
      .catch((err) => logger.warn('could not read events to hand to Inngest; the outbox sweep will send them', { eventIds, err }));
  });
  logger.info('webhook delivery handed to Inngest');
}
