import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { chats, events } from '@/db/schema';
import { signalOutbox } from '@/lib/events/signal';
import { ApiError } from '@/platform/errors';

/**
 * Puts a delivered, failed or superseded event back in the queue, due now, with the same
 * `transaction_id`, for a fresh run of the retry schedule (`attempt_count` counts the current
 * run). Earlier attempts are kept and new ones continue their numbering. It is sent on its own:
 * it is not ordered with the chat's newer events (see head-of-line.ts).
 * When the event's VA no longer holds the chat (or the chat is closed), a bot would be told about
 * a chat that is not its own: that asks for `force` first (3010).
 */
export async function redeliverEvent(
  db: Db,
  { accountId, eventId, force = false }: { accountId: number; eventId: number; force?: boolean },
): Promise<void> {
  const [existing] = await db
    .select({ status: events.status, vaId: events.virtualAgentId, eventType: events.eventType, assigneeId: chats.assigneeId })
    .from(events)
    .innerJoin(chats, eq(chats.id, events.chatId))
    .where(and(eq(events.id, eventId), eq(events.accountId, accountId)));
  if (!existing) throw new ApiError(3006, { detail: `event ${eventId}` });
  if (existing.status === 'pending') throw new ApiError(3008, { detail: `event ${eventId} is still pending delivery` });
  // The events that say the chat left the VA (or closed) are about exactly that: no question.
  const aboutLeaving = existing.eventType === 'chat.unassigned' || existing.eventType === 'chat.closed';
  if (!force && !aboutLeaving && existing.assigneeId !== existing.vaId) {
    throw new ApiError(3010, { detail: `event ${eventId}: its virtual agent no longer holds the chat` });
  }
  const [row] = await db
    .update(events)
    .set({
      status: 'pending',
      // A fresh run of the retry schedule; the attempt numbers in delivery_attempts carry on.
      attemptCount: 0,
      nextAttemptAt: sql`now()`,
      lockedUntil: null,
      deliveredAt: null,
      failedAt: null,
      supersededAt: null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(events.id, eventId), eq(events.accountId, accountId), sql`${events.status} <> 'pending'`))
    .returning({ id: events.id });
  if (!row) throw new ApiError(3008, { detail: `event ${eventId} is still pending delivery` });
  signalOutbox([row.id]);
}
