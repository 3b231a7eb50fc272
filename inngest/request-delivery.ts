import type { DeliveryRequestRow } from '@/lib/delivery/delivery-requests';
import { logger } from '@/platform/util/logger';
import { inngest } from './client';
import { deliveryRequestFor } from './events';

/**
 * Hands newly committed outbox events to Inngest. Fallible by design: when Inngest cannot be
 * reached the rows stay pending in the outbox and the `sweep-outbox` function sends them later.
 */
export async function requestDelivery({ rows }: { rows: DeliveryRequestRow[] }): Promise<boolean> {
  if (!rows.length) return true;
  try {
    await inngest.send(rows.map((row) => deliveryRequestFor(row)));
    return true;
  } catch (err) {
    logger.warn('could not hand events to Inngest; the outbox sweep will send them', { eventIds: rows.map((r) => r.eventId), err });
    return false;
  }
}
