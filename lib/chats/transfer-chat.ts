import { eq } from 'drizzle-orm';
import type { HandoverContext } from '@/contracts/bot/schemas/handover';
import type { Db } from '@/db/client';
import { chats } from '@/db/schema';
import { assignQueuedChat, fillFreeSeats } from '@/lib/chats/auto-assign';
import { withOutbox } from '@/lib/events/with-outbox';
import { recordHandover } from '@/lib/handovers/record-handover';
import { ApiError } from '@/platform/errors';
import { actorLabel, announceHandover } from './announce-handover';
import { requireSkill } from './assignment';
import { lockChat, requireTeam } from './lock-chat';
import { notifyLostControl } from './notify-lost-control';
import { requireHeld } from './require-held';

export type TransferInput = {
  accountId: number;
  chatId: string;
  teamId: number;
  skillName?: string;
  /** The user making the transfer (a VA through the bot API), or null for an administrator. */
  actorUserId: number | null;
  /** The actor's login ID, named in the transcript's handover note. */
  actorLoginId?: string | null;
  /** The bot's context for people (the chat's kept context fills what it leaves out). */
  handover?: HandoverContext;
};

/**
 * Hands a chat over to a team's queue, or to a skill of that team: the chat leaves its assignee
 * and waits, `queued`, in the target team, where auto-assign (if on) picks a member at once.
 * Chats `onhold` or `closed` are refused (2041); a VA transfers only a chat it holds (2043). The
 * VA that held the chat receives `chat.unassigned` (its waiting events of the chat are superseded);
 * the seat it frees is offered to the queue. The transcript gets an announcement of the handover.
 */
export async function transferChat(
  db: Db,
  { accountId, chatId, teamId, skillName, actorUserId, actorLoginId, handover }: TransferInput,
): Promise<void> {
  await withOutbox(db, async (tx) => {
    const chat = await lockChat(tx, { accountId, chatId });
    requireHeld(chat, actorUserId);
    if (chat.status === 'onhold' || chat.status === 'closed') {
      throw new ApiError(2041, { detail: `the chat is ${chat.status}` });
    }
    const team = await requireTeam(tx, { accountId, teamId });
    if (skillName) await requireSkill(tx, { teamId, name: skillName, field: 'transfer.skill_name' });
    const now = new Date();
    await tx
      .update(chats)
      .set({ teamId, skill: skillName ?? null, assigneeId: null, status: 'queued', updatedAt: now, queuedAt: now, queueReason: 'transfer' })
      .where(eq(chats.id, chat.id));
    await announceHandover(tx, {
      accountId,
      chatId: chat.id,
      text: `Transferred to ${team.name}${skillName ? ` / ${skillName}` : ''} by ${actorLabel(actorLoginId)}.`,
      at: now,
    });
    await recordHandover(tx, { accountId, chat, previousAssigneeId: chat.assigneeId, source: 'transfer', context: handover, at: now });
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
