import { eq } from 'drizzle-orm';
import { chats, messages } from '@/db/schema';
import type { LockedChat } from '@/lib/chats/lock-chat';
import { notifyLostControl } from '@/lib/chats/notify-lost-control';
import type { OutboxTx } from '@/lib/events/with-outbox';
import { recordHandover } from '@/lib/handovers/record-handover';
import { newTraceId } from '@/platform/util/ids';
import { assignQueuedChat } from './auto-assign';

const FALLBACK_REASONS = {
  bot_down: 'The bot is not answering (its events failed)',
  reply_timeout: 'The bot did not reply in time',
  person_request: 'The customer asked for a person',
} as const;

/**
 * The fallback's path, shared by the bot-down fallback, the reply budget and the widget's "Talk to a person": the chat (locked, held
 * by the VA) goes to the queue of `team` (and skill), an announcement says why, the VA loses
 * control (`chat.unassigned`, reason `transferred`; its waiting events superseded, its stream cut
 * short, typing and reply clock cleared) and auto-assign may pick a member there.
 */
export async function handOverToFallback(
  tx: OutboxTx,
  {
    accountId,
    chat,
    vaUserId,
    teamId,
    skill,
    why,
    reason,
    now = new Date(),
  }: {
    accountId: number;
    chat: LockedChat;
    vaUserId: number;
    teamId: number;
    skill: string | null;
    why: string;
    /** Why the chat is in the queue, as the agent workspace shows it. */
    reason: 'bot_down' | 'reply_timeout' | 'person_request';
    now?: Date;
  },
): Promise<void> {
  await tx
    .update(chats)
    .set({ teamId, skill, assigneeId: null, status: 'queued', updatedAt: now, queuedAt: now, queueReason: reason })
    .where(eq(chats.id, chat.id));
  await tx.insert(messages).values({
    chatId: chat.id,
    accountId,
    transid: newTraceId(),
    type: 'announcement',
    body: { text: why },
    authorLoginId: null,
    sentAt: now,
  });
  await recordHandover(tx, {
    accountId,
    chat,
    previousAssigneeId: vaUserId,
    source: reason,
    context: { reason: FALLBACK_REASONS[reason] },
    at: now,
  });
  await notifyLostControl(tx, {
    accountId,
    chat: { ...chat, teamId, skill },
    previousAssigneeId: vaUserId,
    actorUserId: null,
    reason: 'transferred',
    newAssignee: null,
    at: now,
  });
  await assignQueuedChat(tx, { accountId, chatId: chat.id, teamId, skill });
}
