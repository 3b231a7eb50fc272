import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { chats } from '@/db/schema';
import type { AgentAuth } from '@/lib/agent-auth/types';
import { ApiError } from '@/platform/errors';

/** 2085: the chat does not exist, is in another account, or is in none of the person's teams. */
export function notInTeams(chatId: string): ApiError {
  return new ApiError(2085, { detail: `chat ${chatId}` });
}

/**
 * The chat's team, when it is one of the person's teams (`agent.teamIds`, read with the session;
 * else 2085). Not locked: the writers lock and check again.
 */
export async function requireTeamChat(db: Db, agent: AgentAuth, chatId: string): Promise<{ teamId: number; assigneeId: number | null }> {
  const [chat] = await db
    .select({ teamId: chats.teamId, assigneeId: chats.assigneeId })
    .from(chats)
    .where(and(eq(chats.id, chatId), eq(chats.accountId, agent.accountId)));
  if (!chat || !agent.teamIds.includes(chat.teamId)) throw notInTeams(chatId);
  return chat;
}

/** The writers of lib/chats answer in the bot's words; the workspace says it in its own. */
function inWorkspaceTerms(err: unknown, chatId: string): unknown {
  if (err instanceof ApiError && err.code === 2031) return notInTeams(chatId);
  if (err instanceof ApiError && err.code === 2043) return new ApiError(2086, { detail: `chat ${chatId}` });
  return err;
}

/** Runs a chat write of the person's; translates its refusals (inWorkspaceTerms). */
export async function asAgentWrite<T>(chatId: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw inWorkspaceTerms(err, chatId);
  }
}
