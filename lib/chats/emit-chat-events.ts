import { enqueueEvent } from '@/lib/events/enqueue-event';
import type { EventChat } from '@/lib/events/event-body';
import { supersedePendingEvents } from '@/lib/events/supersede-pending-events';
import type { OutboxTx } from '@/lib/events/with-outbox';
import { lastMessageOf } from './assignment';
import type { ChatEventPlan } from './chat-transition';

/**
 * Writes what a chat change decided to tell the VAs (`transitionChat`, `lostControl`): first the
 * waiting events it drops, then its events in order. The one place a chat change supersedes or
 * emits; the caller holds the chat's lock (lockChat) in its `withOutbox` transaction.
 * `sequenceBefore` is the chat's `event_seq` as locked before the change: only events written
 * before the change are dropped. `chat` is the chat as its events carry it (after the change).
 */
export async function emitChatEvents(
  tx: OutboxTx,
  {
    accountId,
    chat,
    sequenceBefore,
    plan,
    at,
  }: { accountId: number; chat: EventChat; sequenceBefore: number; plan: ChatEventPlan; at: Date },
): Promise<void> {
  if (plan.supersedeFor !== null) {
    await supersedePendingEvents(tx, { chatId: chat.id, vaUserId: plan.supersedeFor, uptoSeq: sequenceBefore });
  }
  for (const event of plan.events) {
    switch (event.type) {
      case 'chat.assigned':
        await enqueueEvent(tx, {
          accountId,
          chat,
          vaUserId: event.to,
          cause: { type: 'chat.assigned', lastMessage: await lastMessageOf(tx, chat.id) },
        });
        break;
      case 'chat.closed':
        await enqueueEvent(tx, { accountId, chat, vaUserId: event.to, cause: { type: 'chat.closed', outcome: event.outcome, at } });
        break;
      case 'chat.unassigned':
        await enqueueEvent(tx, {
          accountId,
          chat,
          vaUserId: event.to,
          cause: { type: 'chat.unassigned', reason: event.reason, at, teamId: chat.teamId, assignee: event.assignee },
        });
        break;
    }
  }
}
