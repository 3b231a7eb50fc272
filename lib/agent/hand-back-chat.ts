import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { chatHandovers, users } from '@/db/schema';
import type { AgentAuth } from '@/lib/agent-auth/types';
import { updateChat } from '@/lib/chats/update-chat';
import { ApiError } from '@/platform/errors';
import { asAgentWrite, requireTeamChat } from './agent-scope';

/**
 * Hands a chat the person holds back to a virtual agent in one action: by default the VA that
 * handed it over last (2124 when no VA ever did and none is named). It goes through `updateChat`,
 * so the rules are the same as for any assignment: the VA's loop limit (2120), and its
 * `chat.assigned` carrying the note and what was said while people held the chat.
 */
export async function handBackChat(
  db: Db,
  { agent, chatId, note, assignee }: { agent: AgentAuth; chatId: string; note?: string; assignee?: string },
): Promise<void> {
  const { teamId } = await requireTeamChat(db, agent, chatId);
  let va = assignee;
  if (va === undefined) {
    const [last] = await db
      .select({ loginId: users.loginId })
      .from(chatHandovers)
      .innerJoin(users, eq(users.id, chatHandovers.vaUserId))
      .where(and(eq(chatHandovers.chatId, chatId), eq(chatHandovers.accountId, agent.accountId)))
      .orderBy(desc(chatHandovers.id))
      .limit(1);
    if (!last) throw new ApiError(2124, { detail: 'name the virtual agent in assignee' });
    va = last.loginId;
  }
  await asAgentWrite(chatId, () =>
    updateChat(db, {
      accountId: agent.accountId,
      chatId,
      teamId,
      patch: { assignee: va },
      actorUserId: agent.userId,
      actorLoginId: agent.loginId,
      handbackNote: note?.length ? note : null,
    }),
  );
}
