import { inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { events } from '@/db/schema';
import { logger } from '@/lib/util/logger';
import { inngest } from './client';
import { deliveryRequestFor } from './events';

/**
 * Hands newly committed outbox events to Inngest. Fallible by design: when Inngest cannot be
 * reached the rows stay pending in the outbox and the `sweep-outbox` function sends them later.
 */
export async function requestDelivery(db: Db, { eventIds }: { eventIds: number[] }): Promise<boolean> {
  if (!eventIds.length) return true;
  try {
    const rows = await db
      .select({ eventId: events.id, transactionId: events.transactionId, chatId: events.chatId, virtualAgentId: events.virtualAgentId })
      .from(events)
      .where(inArray(events.id, eventIds));
    if (rows.length) await inngest.send(rows.map((row) => deliveryRequestFor(row)));
    return true;
  } catch (err) {
    logger.warn('could not hand events to Inngest; the outbox sweep will send them', { eventIds, err });
    return false;
  }
}
