import { eq } from 'drizzle-orm';
import { chats, users } from '@/db/schema';
import { cutStreamsOfChat } from '@/lib/chats/cut-streams';
import { enqueueEvent } from '@/lib/events/enqueue-event';
import type { EventChat } from '@/lib/events/event-body';
import { supersedePendingEvents } from '@/lib/events/supersede-pending-events';
import type { OutboxTx } from '@/lib/events/with-outbox';
import { handoverAt } from '@/lib/handovers/handover-card';
import { assignedCause } from './assignment';
import type { ChatEventPlan } from './chat-transition';
import { replyClockStop, startReplyClockOnAssign } from './reply-clock';

/**
 * Writes what a chat change decided to tell the VAs (`transitionChat`, `lostControl`): first the
 * waiting events it drops (with the leaving assignee's stream, typing and reply clock), then its
 * events in order (a VA given the chat starts its reply clock). The one place a chat change supersedes or
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
    // What the assignee had going in the chat ends with it: an open streamed reply is cut short
    // (later chunks are refused), the typing indicator goes off and the reply clock stops. A new
    // VA's clock starts below, with its chat.assigned.
    // A person taking the chat over supersedes the bot's reply in progress (lib/turns): the customer's
    // widget withdraws it rather than showing it as an answer.
    const toPerson = await takenByPerson(tx, plan);
    plan.events.some((e) => e.type === 'chat.unassigned' && e.assignee !== null) && !plan.events.some((e) => e.type === 'chat.assigned');
    await cutStreamsOfChat(tx, { chatId: chat.id, as: toPerson ? 'superseded' : 'cut_short' });
    await tx.update(chats).set(replyClockStop).where(eq(chats.id, chat.id));
    await supersedePendingEvents(tx, { chatId: chat.id, vaUserId: plan.supersedeFor, uptoSeq: sequenceBefore });
  }
  for (const event of plan.events) {
    switch (event.type) {
      case 'chat.assigned': {
        const cause = await assignedCause(tx, { chatId: chat.id, vaUserId: event.to, handback: event.handback });
        await startReplyClockOnAssign(tx, { chatId: chat.id, lastMessage: cause.lastMessage, now: at });
        await enqueueEvent(tx, { accountId, chat, vaUserId: event.to, cause });
        break;
      }
      case 'chat.closed':
        await enqueueEvent(tx, { accountId, chat, vaUserId: event.to, cause: { type: 'chat.closed', outcome: event.outcome, at } });
        break;
      case 'chat.unassigned': {
        const handover = event.reason === 'closed' ? null : await handoverAt(tx, { chatId: chat.id, vaUserId: event.to, at });
        await enqueueEvent(tx, {
          accountId,
          chat,
          vaUserId: event.to,
          cause: { type: 'chat.unassigned', reason: event.reason, at, teamId: chat.teamId, assignee: event.assignee, handover },
        });
        break;
      }
    }
  }
}

/** The chat leaves its VA for a person (a takeover), not for another VA or the queue. */
async function takenByPerson(tx: OutboxTx, plan: ChatEventPlan): Promise<boolean> {
  const left = plan.events.find((e) => e.type === 'chat.unassigned' && e.assignee !== null);
  if (!left) return false;
  const next = plan.events.find((e) => e.type === 'chat.assigned');
  if (!next) return true;
  const [user] = await tx.select({ kind: users.kind }).from(users).where(eq(users.id, next.to));
  return user?.kind !== 'virtual_agent';
}
