import { enqueueEvent, type UnassignReason } from '@/lib/events/enqueue-event';
import type { OutboxTx } from '@/lib/events/with-outbox';
import { eventChatOf, type LockedChat } from './lock-chat';

/**
 * The "lost control" event: when a chat leaves its assignee because of someone else's action,
 * that assignee (if it is a VA subscribed to `chat.unassigned`) is told, so it stops talking into
 * a chat it no longer owns. A VA's own transfer, re-queue or close tells it nothing new.
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
  if (opts.actorUserId === opts.previousAssigneeId) return;
  await enqueueEvent(tx, {
    accountId: opts.accountId,
    chat: eventChatOf(opts.chat),
    vaUserId: opts.previousAssigneeId,
    cause: { type: 'chat.unassigned', reason: opts.reason, at: opts.at, teamId: opts.chat.teamId, assignee: opts.newAssignee },
  });
}
