import { inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { events } from '@/db/schema';

export type DeliveryRequestRow = { eventId: number; transactionId: string; chatId: string; virtualAgentId: number };

/** What an external engine (Inngest) needs to schedule the delivery of these outbox rows. */
export async function deliveryRequestsOf(db: Db, { eventIds }: { eventIds: number[] }): Promise<DeliveryRequestRow[]> {
  if (!eventIds.length) return [];
  return db
    .select({ eventId: events.id, transactionId: events.transactionId, chatId: events.chatId, virtualAgentId: events.virtualAgentId })
    .from(events)
    .where(inArray(events.id, eventIds));
}
