import { and, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { events } from '@/db/schema';
import { isHeadOfLine, isPending } from './head-of-line';

/**
 * Head-of-line events that have been due, unleased, for longer than `overdueMs`: nothing is working
 * on them (with Inngest: the hand-over failed, or the run gave up). The sweep hands them over again.
 */
export async function findStrandedEvents(db: Db, { overdueMs, limit }: { overdueMs: number; limit: number }) {
  return db
    .select({ eventId: events.id, transactionId: events.transactionId, chatId: events.chatId, virtualAgentId: events.virtualAgentId })
    .from(events)
    .where(
      and(
        isPending,
        lte(events.nextAttemptAt, sql`now() - ${overdueMs}::int * interval '1 millisecond'`),
        or(isNull(events.lockedUntil), lte(events.lockedUntil, sql`now()`)),
        isHeadOfLine,
      ),
    )
    .orderBy(events.nextAttemptAt)
    .limit(limit);
}
