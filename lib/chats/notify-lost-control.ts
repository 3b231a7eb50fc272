import type { UnassignReason } from '@/lib/events/enqueue-event';
import type { OutboxTx } from '@/lib/events/with-outbox';
import { lostControl } from './chat-transition';
import { emitChatEvents } from './emit-chat-events';
import { eventChatOf, type LockedChat } from './lock-chat';

/**
 * The "lost control" step of the changes that do not go through `transitionChat` (a transfer, the
 * bot-down fallback, disabling the VA): what it means is `lostControl`'s, written by
 * `emitChatEvents`. `chat` is the chat as locked before the change, with its new team and skill:
 * its `eventSeq` marks the events written before.
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
  await emitChatEvents(tx, {
    accountId: opts.accountId,
    chat: eventChatOf(opts.chat),
    sequenceBefore: opts.chat.eventSeq,
    plan: lostControl(opts),
    at: opts.at,
  });
}
