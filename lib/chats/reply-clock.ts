import { eq, type Placeholder, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { chats, virtualAgents } from '@/db/schema';

/**
 * The reply clock of a chat a VA holds, kept in two columns of the chat row and changed by the
 * statements that already write that row (no extra write on the message path):
 *  - `awaiting_reply_since`: a customer message (or the chat's hand-over to the VA with a customer
 *    message last) is waiting for the VA; the VA page lists these chats.
 *  - `reply_due_at`: when the VA's reply budget (`reply_timeout_seconds`) runs out; null while the
 *    budget is off or nothing waits. Typing pauses it: each second of typing pushes it back a second
 *    (lib/chats/set-typing.ts). Any outbound message, an open stream included (a stream always ends
 *    as a message), stops it; so does the chat leaving the VA.
 * The sweep (sweep-reply-clocks.ts) acts on chats whose `reply_due_at` has passed.
 */

/** Set when a customer message arrives: the clock starts unless it already runs, counting typing still on as paused. */
export function replyClockStart(now: Date | Placeholder) {
  // A placeholder (a statement prepared once) is given the time as an ISO string when it runs.
  const at = now instanceof Date ? now.toISOString() : now;
  return {
    awaitingReplySince: sql`coalesce(${chats.awaitingReplySince}, case when exists (select 1 from ${virtualAgents} where ${virtualAgents.userId} = ${chats.assigneeId}) then ${at}::timestamptz end)`,
    replyDueAt: sql`coalesce(${chats.replyDueAt}, (select ${at}::timestamptz + ${virtualAgents.replyTimeoutSeconds} * interval '1 second' + greatest(coalesce(${chats.typingUntil}, ${at}::timestamptz) - ${at}::timestamptz, interval '0')
      from ${virtualAgents} where ${virtualAgents.userId} = ${chats.assigneeId}))`,
  };
}

/** Set by an outbound message and by the chat leaving its VA: nothing waits, typing is off. */
export const replyClockStop = {
  awaitingReplySince: null,
  replyDueAt: null,
  typingUntil: null,
  typingStatus: null,
} as const;

/**
 * A chat handed to a VA whose last message with the customer is the customer's: the customer is
 * waiting from now on. Runs after the row names the VA as assignee.
 */
export async function startReplyClockOnAssign(
  tx: Db,
  { chatId, lastMessage, now = new Date() }: { chatId: string; lastMessage: { type: string } | null; now?: Date },
): Promise<void> {
  if (lastMessage?.type !== 'inbound') return;
  await tx.update(chats).set(replyClockStart(now)).where(eq(chats.id, chatId));
}
