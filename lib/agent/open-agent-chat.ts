import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { agentChatSchema } from '@/contracts/agent/schemas';
import type { Db } from '@/db/client';
import { chats, messages, users } from '@/db/schema';
import type { AgentAuth } from '@/lib/agent-auth/types';
import { listChatApprovals } from '@/lib/approvals/list-chat-approvals';
import { loadChat } from '@/lib/chats/chat-view';
import { toMessageView } from '@/lib/chats/message-view';
import { loadHandoverCard } from '@/lib/handovers/handover-card';
import { notInTeams } from './agent-scope';

export type AgentChat = z.infer<typeof agentChatSchema>;

/** The most messages a chat view carries (the latest ones). */
const TRANSCRIPT_LIMIT = 500;

/** The transcript's latest messages, newest first, through `messages_chat_idx`. */
export function transcriptQuery(db: Db, { chatId }: { chatId: string }) {
  return db
    .select({
      id: messages.id,
      transid: messages.transid,
      type: messages.type,
      body: messages.body,
      authorLoginId: messages.authorLoginId,
      sentAt: messages.sentAt,
      streamState: messages.streamState,
      streamSeq: messages.streamSeq,
    })
    .from(messages)
    .where(eq(messages.chatId, chatId))
    .orderBy(desc(messages.id))
    .limit(TRANSCRIPT_LIMIT);
}

/** The chat as the workspace shows it, without its transcript: what its live view sends as `details`. */
export type AgentChatDetails = Omit<AgentChat, 'transcript'>;

/**
 * A chat of the person's teams (2085 otherwise) as the workspace shows it: the chat (customer,
 * tags, details, assignee, the bot's typing), who holds it, and the transcript with the bot's
 * messages and the announcements (shown as internal notes).
 */
export async function openAgentChat(db: Db, { agent, chatId }: { agent: AgentAuth; chatId: string }): Promise<AgentChat> {
  return (await readAgentChat(db, { agent, chatId })).view;
}

/** openAgentChat's answer with the transcript's rows (ids and open replies), for a live view to follow on from. */
export async function readAgentChat(db: Db, { agent, chatId }: { agent: AgentAuth; chatId: string }) {
  // One round of reads; the team is checked on the chat read (nothing of another chat is answered).
  const [details, rows] = await Promise.all([agentChatDetails(db, { agent, chatId }), transcriptQuery(db, { chatId })]);
  const seen = rows.reverse();
  return { view: { ...details, transcript: seen.map(toMessageView) } satisfies AgentChat, seen };
}

/** Everything of openAgentChat's answer but the transcript (2085 for a chat of another team). */
export async function agentChatDetails(db: Db, { agent, chatId }: { agent: AgentAuth; chatId: string }): Promise<AgentChatDetails> {
  const [chat, assignee, handover, requests] = await Promise.all([
    loadChat(db, { accountId: agent.accountId, chatId }),
    db
      .select({ kind: users.kind })
      .from(chats)
      .innerJoin(users, eq(users.id, chats.assigneeId))
      .where(and(eq(chats.id, chatId), eq(chats.accountId, agent.accountId))),
    loadHandoverCard(db, { chatId }),
    listChatApprovals(db, { accountId: agent.accountId, chatId }),
  ]);
  if (!chat || !agent.teamIds.includes(chat.team_id)) throw notInTeams(chatId);
  return { chat, assignee_kind: assignee[0]?.kind ?? null, handover, approvals: requests };
}
