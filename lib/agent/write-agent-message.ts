import type { z } from 'zod';
import type { agentReplyBodySchema } from '@/contracts/agent/schemas';
import type { Message } from '@/contracts/bot/schemas/message';
import type { Db } from '@/db/client';
import type { AgentAuth } from '@/lib/agent-auth/types';
import { appendMessage } from '@/lib/chats/append-message';
import { ApiError } from '@/platform/errors';
import { newTraceId } from '@/platform/util/ids';
import { asAgentWrite, requireTeamChat } from './agent-scope';

/**
 * The person answers the customer on a chat they hold (2086 otherwise): text, an attachment URL,
 * and on livechat quick replies, checked against the chat's channel like a bot's (2020). The same
 * write as a bot's outbound message, so the widget and the transcript show it at once.
 */
export async function sendAgentReply(
  db: Db,
  { agent, chatId, body }: { agent: AgentAuth; chatId: string; body: z.infer<typeof agentReplyBodySchema> },
): Promise<Message> {
  if (body.text === undefined && body.attachment === undefined && body.quick_replies === undefined) {
    throw new ApiError(2000, { detail: 'send text, attachment or quick_replies', errors: [{ field: '(body)', message: 'empty reply' }] });
  }
  await requireTeamChat(db, agent, chatId);
  const { quick_replies: titles, ...rest } = body;
  const input = {
    type: 'outbound' as const,
    ...rest,
    ...(titles !== undefined && {
      livechat_sub_type: 'quick_replies' as const,
      quick_replies: { request_identifier: newTraceId(), options: titles.map((title) => ({ title, payload: title })) },
    }),
  };
  const { message } = await asAgentWrite(chatId, () =>
    appendMessage(db, { accountId: agent.accountId, chatId, actorLoginId: agent.loginId, actorUserId: agent.userId, input }),
  );
  return message;
}

/**
 * An internal note: an announcement in the transcript, seen by people and administrators, never
 * sent to the customer nor to a bot as customer text. Any chat of the person's teams takes one.
 */
export async function addAgentNote(db: Db, { agent, chatId, text }: { agent: AgentAuth; chatId: string; text: string }): Promise<Message> {
  await requireTeamChat(db, agent, chatId);
  const { message } = await asAgentWrite(chatId, () =>
    appendMessage(db, { accountId: agent.accountId, chatId, actorLoginId: agent.loginId, input: { type: 'announcement', text } }),
  );
  return message;
}
