import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { chatHandovers, virtualAgents } from '@/db/schema';
import { ApiError } from '@/platform/errors';

/** How many times the VA handed this chat to people, and how many times it may (`max_handovers_per_chat`). */
async function loopState(tx: Db, { chatId, vaUserId }: { chatId: string; vaUserId: number }) {
  const [row] = await tx
    .select({
      max: virtualAgents.maxHandoversPerChat,
      count: sql<number>`(select count(*)::int from ${chatHandovers} where ${chatHandovers.chatId} = ${chatId} and ${chatHandovers.vaUserId} = ${vaUserId})`,
    })
    .from(virtualAgents)
    .where(eq(virtualAgents.userId, vaUserId));
  return row ? { count: row.count, max: row.max } : null;
}

/**
 * A chat the VA has already handed to people `max_handovers_per_chat` times stays with people:
 * giving it to that VA again (a person's hand-back, the bot taking it, an administrator's
 * assignment) is refused with 2120, and auto-assign passes the VA over (`underLoopLimit`).
 */
export async function requireUnderLoopLimit(
  tx: Db,
  { chatId, va }: { chatId: string; va: { id: number; loginId: string } },
): Promise<void> {
  const state = await loopState(tx, { chatId, vaUserId: va.id });
  if (state && state.count >= state.max) {
    throw new ApiError(2120, {
      detail: `${va.loginId} handed this chat to people ${state.count} times (its max_handovers_per_chat is ${state.max}); it stays with people`,
    });
  }
}

/**
 * SQL for "this user may be given the chat": a person always; a VA while it handed the chat to
 * people fewer than its `max_handovers_per_chat` times. For auto-assign's candidate filters.
 */
export function underLoopLimit(chatId: unknown, userId: unknown) {
  return sql`not exists (
    select 1 from ${virtualAgents} where ${virtualAgents.userId} = ${userId} and ${virtualAgents.maxHandoversPerChat} <= (
      select count(*) from ${chatHandovers} where ${chatHandovers.chatId} = ${chatId} and ${chatHandovers.vaUserId} = ${userId}))`;
}

/** The open handover (not handed back yet) of the chat from this VA, if any: the latest row. */
export async function openHandover(tx: Db, { chatId, vaUserId }: { chatId: string; vaUserId: number }) {
  const [row] = await tx
    .select({ id: chatHandovers.id, createdAt: chatHandovers.createdAt, handedBackAt: chatHandovers.handedBackAt })
    .from(chatHandovers)
    .where(and(eq(chatHandovers.chatId, chatId), eq(chatHandovers.vaUserId, vaUserId)))
    .orderBy(sql`${chatHandovers.id} desc`)
    .limit(1);
  return row && row.handedBackAt === null ? row : null;
}
