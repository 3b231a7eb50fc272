import { eq } from 'drizzle-orm';
import { chats } from '@/db/schema';
import { enqueueEvent, type UnassignReason } from '@/lib/events/enqueue-event';
import { supersedePendingEvents } from '@/lib/events/supersede-pending-events';
import type { OutboxTx } from '@/lib/events/with-outbox';
import { cutStreamsOfChat } from '@/lib/messages/cut-streams';
import { eventChatOf, type LockedChat } from './lock-chat';
import { replyClockStop } from './reply-clock';

/**
 * The "lost control" step, run whenever a chat leaves its assignee (transferred, reassigned,
 * re-queued or closed, by anyone, by the bot-down fallback or by disabling the VA). For a VA:
 *  - its events of the chat that are still waiting are superseded (never sent): the chat is no
 *    longer its to answer, and it hears nothing more of it until it holds it again;
 *  - it receives `chat.unassigned` (if subscribed), even when the change was its own: a bot can
 *    stop on that one event whatever the cause. The one exception is a VA closing the chat
 *    itself, which gets `chat.closed` as before and nothing more;
 *  - its open streamed reply is cut short, its typing indicator cleared and its reply clock stopped.
 * `chat` is the chat as locked before the change: its `eventSeq` marks the events written before.
 */
export async function notifyLostControl(
  tx: OutboxTx,
  opts: {
    accountId: number;
    chat: LockedChat;
    previousAssigneeId: number;
    actorUserId: number | null;
    reason: UnassignReason;
    newAssignee: string | null;
    at: Date;
  },
): Promise<void> {
  // What the VA had going in the chat ends with it: its streamed reply is cut short (later chunks
  // are refused), its typing indicator goes off, and the reply clock stops.
  await cutStreamsOfChat(tx, { chatId: opts.chat.id });
  await tx.update(chats).set(replyClockStop).where(eq(chats.id, opts.chat.id));
  await supersedePendingEvents(tx, { chatId: opts.chat.id, vaUserId: opts.previousAssigneeId, uptoSeq: opts.chat.eventSeq });
  if (opts.reason === 'closed' && opts.actorUserId === opts.previousAssigneeId) return;
  await enqueueEvent(tx, {
    accountId: opts.accountId,
    chat: eventChatOf(opts.chat),
    vaUserId: opts.previousAssigneeId,
    cause: { type: 'chat.unassigned', reason: opts.reason, at: opts.at, teamId: opts.chat.teamId, assignee: opts.newAssignee },
  });
}
