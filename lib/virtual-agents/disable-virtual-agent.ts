import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { accessTokens, chats, messages, teams, users } from '@/db/schema';
import { revokeCachedTokens } from '@/lib/bot-auth/token-cache';
import { assignQueuedChat } from '@/lib/chats/auto-assign';
import { lockChat } from '@/lib/chats/lock-chat';
import { notifyLostControl } from '@/lib/chats/notify-lost-control';
import { isOpenChat } from '@/lib/chats/open-chats';
import type { OutboxTx } from '@/lib/events/with-outbox';
import { newTraceId } from '@/platform/util/ids';

type Fallback = { teamId: number | null; skill: string | null };

/**
 * Disables a VA inside the caller's transaction, which holds its `virtual_agents` row:
 *  - its access tokens are deleted, so re-enabling it later does not bring them back (its API key
 *    stays, and authorizes again once it is enabled);
 *  - every open chat it holds leaves it: to its fallback team and skill when it has one, otherwise
 *    back to the queue of the chat's own team; an announcement in the chat says why, and
 *    auto-assign may give the chat to a ready member there at once;
 *  - it gets `chat.unassigned` for each such chat (reason `transferred` or `requeued`), as for any
 *    chat taken from it. Like every event of a disabled VA it is held, not sent (delivery skips
 *    disabled VAs); held events are delivered in order if the VA is enabled again, so the bot
 *    then learns which chats it lost while it was off.
 */
export async function disableVirtualAgent(
  tx: OutboxTx,
  { accountId, vaId, loginId, fallback }: { accountId: number; vaId: number; loginId: string; fallback: Fallback },
): Promise<void> {
  const target = fallback.teamId === null ? null : await fallbackTeam(tx, { accountId, teamId: fallback.teamId });
  const held = await tx
    .select({ id: chats.id })
    .from(chats)
    .where(and(eq(chats.accountId, accountId), eq(chats.assigneeId, vaId), isOpenChat))
    .orderBy(asc(chats.id));

  const now = new Date();
  const moved: { chatId: string; teamId: number; skill: string | null }[] = [];
  for (const { id } of held) {
    const chat = await lockChat(tx, { accountId, chatId: id });
    if (chat.assigneeId !== vaId || chat.status === 'closed') continue;
    const teamId = target?.id ?? chat.teamId;
    const skill = target ? fallback.skill : chat.skill;
    await tx.update(chats).set({ teamId, skill, assigneeId: null, status: 'queued', updatedAt: now }).where(eq(chats.id, chat.id));
    await tx.insert(messages).values({
      chatId: chat.id,
      accountId,
      transid: newTraceId(),
      type: 'announcement',
      body: {
        text: `Virtual agent ${loginId} was disabled; chat ${target ? `transferred to ${target.name}${skill ? ` / ${skill}` : ''}` : 'back in the queue'}.`,
      },
      authorLoginId: null,
      sentAt: now,
    });
    // Written while the VA is still enabled: events are only written for enabled VAs.
    await notifyLostControl(tx, {
      accountId,
      chat: { ...chat, teamId, skill },
      previousAssigneeId: vaId,
      actorUserId: null,
      reason: target && target.id !== chat.teamId ? 'transferred' : 'requeued',
      newAssignee: null,
      at: now,
    });
    moved.push({ chatId: chat.id, teamId, skill });
  }

  await tx.update(users).set({ enabled: false, updatedAt: now }).where(eq(users.id, vaId));
  await tx.delete(accessTokens).where(eq(accessTokens.userId, vaId));
  await revokeCachedTokens(tx, vaId);
  // Now that the VA is no candidate, auto-assign may place each chat with a ready member.
  for (const m of moved) {
    await assignQueuedChat(tx, { accountId, chatId: m.chatId, teamId: m.teamId, skill: m.skill });
  }
}

async function fallbackTeam(tx: Db, { accountId, teamId }: { accountId: number; teamId: number }) {
  const [team] = await tx
    .select({ id: teams.id, name: teams.name })
    .from(teams)
    .where(and(eq(teams.id, teamId), eq(teams.accountId, accountId)));
  return team ?? null;
}
