import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { events } from '@/db/schema';
import { isHeadOfLine, isPending } from './head-of-line';

/**
 * For one chat and VA: milliseconds until its head-of-line event may be claimed (due and its lease,
 * if any, run out); zero or less means now. Null when nothing of the chat is pending.
 */
export async function msUntilChatDue(
  db: Db,
  { chatId, virtualAgentId }: { chatId: string; virtualAgentId: number },
): Promise<number | null> {
  const dueAt = sql`min(greatest(${events.nextAttemptAt}, coalesce(${events.lockedUntil}, ${events.nextAttemptAt})))`;
  const [row] = await db
    .select({ ms: sql<number | null>`(extract(epoch from (${dueAt} - now())) * 1000)::float8` })
    .from(events)
    .where(and(isPending, eq(events.chatId, chatId), eq(events.virtualAgentId, virtualAgentId), isHeadOfLine));
  return row?.ms == null ? null : Number(row.ms);
}
