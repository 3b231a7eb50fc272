import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { chats } from '@/db/schema';
import { ApiError } from '@/lib/errors';
import { requireSkill } from './assignment';
import { lockChat, requireTeam } from './lock-chat';

export type TransferInput = { accountId: number; chatId: string; teamId: number; skillName?: string };

/**
 * Hands a chat over to a team's queue, or to a skill of that team: the chat leaves its assignee
 * and waits, `queued`, in the target team. Chats `onhold` or `closed` are refused (2041).
 */
export async function transferChat(db: Db, { accountId, chatId, teamId, skillName }: TransferInput): Promise<void> {
  await db.transaction(async (tx) => {
    const chat = await lockChat(tx, { accountId, chatId });
    if (chat.status === 'onhold' || chat.status === 'closed') {
      throw new ApiError(2041, { detail: `the chat is ${chat.status}` });
    }
    await requireTeam(tx, { accountId, teamId });
    if (skillName) await requireSkill(tx, { teamId, name: skillName, field: 'transfer.skill_name' });
    await tx
      .update(chats)
      .set({ teamId, skill: skillName ?? null, assigneeId: null, status: 'queued', updatedAt: new Date() })
      .where(eq(chats.id, chat.id));
  });
}
