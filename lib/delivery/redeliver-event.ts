import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { events } from '@/db/schema';
import { ApiError } from '@/lib/errors';
import { signalOutbox } from '@/lib/events/signal';

/**
 * Puts a delivered or failed event back in the queue, due now, with the same `transaction_id`, for
 * a fresh run of the retry schedule (`attempt_count` counts the current run). Earlier attempts are
 * kept and new ones continue their numbering. It is sent on its own: it is not ordered with the
 * chat's newer events (see head-of-line.ts).
 */
export async function redeliverEvent(db: Db, { accountId, eventId }: { accountId: number; eventId: number }): Promise<void> {
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
      updatedAt: sql`now()`,
    })
    .where(and(eq(events.id, eventId), eq(events.accountId, accountId), sql`${events.status} <> 'pending'`))
    .returning({ id: events.id });
  if (row) {
    signalOutbox([row.id]);
    return;
  }
  const [existing] = await db
    .select({ status: events.status })
    .from(events)
    .where(and(eq(events.id, eventId), eq(events.accountId, accountId)));
  if (!existing) throw new ApiError(3006, { detail: `event ${eventId}` });
  throw new ApiError(3008, { detail: `event ${eventId} is still pending delivery` });
}
