import { tsr } from '@ts-rest/serverless/next';
import { agentContract } from '@/contracts/agent';
import { getDb } from '@/db/client';
import { closeAgentChat, tagAgentChat, transferAgentChat } from '@/lib/agent/change-agent-chat';
import { setDisplayName } from '@/lib/agent/display-name';
import { getAgentProfile } from '@/lib/agent/get-agent-profile';
import { handBackChat } from '@/lib/agent/hand-back-chat';
import { listWorkspace } from '@/lib/agent/list-workspace';
import { openAgentChat } from '@/lib/agent/open-agent-chat';
import { pickChat } from '@/lib/agent/pick-chat';
import { addAgentNote, sendAgentReply } from '@/lib/agent/write-agent-message';
import { decideApproval } from '@/lib/approvals/decide-approval';
import type { AgentAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';

export const chatsRouter = tsr.routerWithMiddleware(agentContract.chats)<{ agent: AgentAuth }>({
  lists: async (_, { request }) =>
    ok(4400, await listWorkspace(await getDb(), { userId: request.agent.userId, teamIds: request.agent.teamIds })),
  getChat: async ({ params }, { request }) =>
    ok(4400, await openAgentChat(await getDb(), { agent: request.agent, chatId: params.chat_id })),
  pick: async ({ params }, { request }) => {
    const db = await getDb();
    await pickChat(db, { agent: request.agent, chatId: params.chat_id });
    return ok(4400, await openAgentChat(db, { agent: request.agent, chatId: params.chat_id }));
  },
  reply: async ({ params, body }, { request }) =>
    ok(4306, await sendAgentReply(await getDb(), { agent: request.agent, chatId: params.chat_id, body })),
  note: async ({ params, body }, { request }) =>
    ok(4306, await addAgentNote(await getDb(), { agent: request.agent, chatId: params.chat_id, text: body.text })),
  tags: async ({ params, body }, { request }) => {
    const db = await getDb();
    await tagAgentChat(db, { agent: request.agent, chatId: params.chat_id, body });
    return ok(4400, await openAgentChat(db, { agent: request.agent, chatId: params.chat_id }));
  },
  transfer: async ({ params, body }, { request }) => {
    await transferAgentChat(await getDb(), { agent: request.agent, chatId: params.chat_id, body });
    return ok(4400, null);
  },
  close: async ({ params, body }, { request }) => {
    await closeAgentChat(await getDb(), { agent: request.agent, chatId: params.chat_id, outcome: body.outcome });
    return ok(4400, null);
  },
  handBack: async ({ params, body }, { request }) => {
    await handBackChat(await getDb(), { agent: request.agent, chatId: params.chat_id, note: body.note, assignee: body.assignee });
    return ok(4400, null);
  },
  decideApproval: async ({ params, body }, { request }) =>
    ok(4400, await decideApproval(await getDb(), { agent: request.agent, approvalId: params.approval_id, body })),
  setDisplayName: async ({ body }, { request }) => {
    const db = await getDb();
    const { accountId, userId } = request.agent;
    await setDisplayName(db, { accountId, userId, displayName: body.display_name });
    return ok(4400, await getAgentProfile(db, { accountId, userId }));
  },
});
