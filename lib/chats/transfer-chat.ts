import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { chats } from '@/db/schema';
import { ApiError } from '@/lib/errors';
import { withOutbox } from '@/lib/events/with-outbox';
import { assignQueuedChat, fillFreeSeats } from '@/lib/routing/auto-assign';
import { requireSkill } from './assignment';
import { lockChat, requireTeam } from './lock-chat';
import { notifyLostControl } from './notify-lost-control';

export type TransferInput = {
  accountId: number;
  chatId: string;
  teamId: number;
  skillName?: string;
  /** The user making the transfer (a VA through the bot API), or null for an administrator. */
  actorUserId: number | null;
};

/**
 * Hands a chat over to a team's queue, or to a skill of that team: the chat leaves its assignee
 * and waits, `queued`, in the target team, where auto-assign (if on) picks a member at once.
 * Chats `onhold` or `closed` are refused (2041). A VA that loses the chat to someone else's
 * transfer receives `chat.unassigned`; the seat it frees is offered to the queue.
 */
export async function transferChat(db: Db, { accountId, chatId, teamId, skillName, actorUserId }: TransferInput): Promise<void> {
  await withOutbox(db, async (tx) => {
    const chat = await lockChat(tx, { accountId, chatId });
    if (chat.status === 'onhold' || chat.status === 'closed') {
      throw new ApiError(2041, { detail: `the chat is ${chat.status}` });
    }
    await requireTeam(tx, { accountId, teamId });
    if (skillName) await requireSkill(tx, { teamId, name: skillName, field: 'transfer.skill_name' });
    const now = new Date();
    await tx
      .update(chats)
      .set({ teamId, skill: skillName ?? null, assigneeId: null, status: 'queued', updatedAt: now })
      .where(eq(chats.id, chat.id));
    // Lost control before auto-assign, so events keep the order things happened (see update-chat.ts).
    if (chat.assigneeId !== null) {
      await notifyLostControl(tx, {
        accountId,
        chat: { ...chat, teamId, skill: skillName ?? null },
        previousAssigneeId: chat.assigneeId,
        actorUserId,
        reason: 'transferred',
        newAssignee: null,
        at: now,
      });
    }
    await assignQueuedChat(tx, { accountId, chatId, teamId, skill: skillName ?? null, releasingUserId: chat.assigneeId });
    if (chat.assigneeId !== null) await fillFreeSeats(tx, { accountId, userId: chat.assigneeId });
  });
}
