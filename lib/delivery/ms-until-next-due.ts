import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { events } from '@/db/schema';
import { isHeadOfLine } from './head-of-line';

/**
 * Milliseconds until an event may next be claimed (zero or less: now), by the database's clock:
 * the earliest time at which a chat's head-of-line event is due and unleased. Events waiting
 * behind an earlier one are not counted; they move when it does. Null when nothing is pending.
 */
export async function msUntilNextDue(db: Db, { chat }: { chat?: { chatId: string; virtualAgentId: number } } = {}): Promise<number | null> {
  const dueAt = sql`min(greatest(${events.nextAttemptAt}, coalesce(${events.lockedUntil}, ${events.nextAttemptAt})))`;
  const [row] = await db
    .select({ ms: sql<number | null>`(extract(epoch from (${dueAt} - now())) * 1000)::float8` })
    .from(events)
    .where(
      and(
        eq(events.status, 'pending'),
        chat ? and(eq(events.chatId, chat.chatId), eq(events.virtualAgentId, chat.virtualAgentId)) : undefined,
        isHeadOfLine,
      ),
    );
  return row?.ms == null ? null : Number(row.ms);
}
