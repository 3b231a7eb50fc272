import { tsr } from '@ts-rest/serverless/next';
import { agentContract } from '@/contracts/agent';
import { getDb } from '@/db/client';
import { isHttps } from '@/lib/admin-auth/session-cookie';
import { closeAgentChat, tagAgentChat, transferAgentChat } from '@/lib/agent/change-agent-chat';
import { getAgentProfile } from '@/lib/agent/get-agent-profile';
import { listDirectory } from '@/lib/agent/list-directory';
import { listWorkspace } from '@/lib/agent/list-workspace';
import { openAgentChat } from '@/lib/agent/open-agent-chat';
import { pickChat } from '@/lib/agent/pick-chat';
import { setAvailability } from '@/lib/agent/set-availability';
import { addAgentNote, sendAgentReply } from '@/lib/agent/write-agent-message';
import { acceptInvite } from '@/lib/agent-auth/accept-invite';
import { agentGuard } from '@/lib/agent-auth/agent-guard';
import { agentSessionCookie, clearedAgentSessionCookie, readAgentSessionToken } from '@/lib/agent-auth/agent-session-cookie';
import { logInAgent } from '@/lib/agent-auth/log-in-agent';
import { logOutAgent } from '@/lib/agent-auth/log-out-agent';
import { createApiHandler } from '@/platform/http/create-api-handler';
import { type AgentAuth, currentContext } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';

function setCookie(cookie: string) {
  const ctx = currentContext();
  ctx.setCookies = [...(ctx.setCookies ?? []), cookie];
}

function signedIn(session: { token: string; expiresAt: Date }, secure: boolean) {
  const maxAgeSeconds = Math.floor((session.expiresAt.getTime() - Date.now()) / 1000);
  setCookie(agentSessionCookie(session.token, { maxAgeSeconds, secure }));
}

const agentRouter = tsr.routerWithMiddleware(agentContract)<{ agent: AgentAuth }>({
  login: async ({ body }, { request }) => {
    const db = await getDb();
    const clientAddress = currentContext().clientAddress ?? 'unknown';
    const session = await logInAgent(db, { email: body.email, password: body.password, clientAddress });
    signedIn(session, isHttps(request));
    return ok(4400, await getAgentProfile(db, session));
  },
  acceptInvite: async ({ body }, { request }) => {
    const db = await getDb();
    const session = await acceptInvite(db, { token: body.token, password: body.password });
    signedIn(session, isHttps(request));
    return ok(4400, await getAgentProfile(db, session));
  },
  logout: async (_, { request }) => {
    const token = readAgentSessionToken(request.headers);
    if (token) await logOutAgent(await getDb(), { token });
    setCookie(clearedAgentSessionCookie({ secure: isHttps(request) }));
    return ok(4400, null);
  },
  me: async (_, { request }) =>
    ok(4400, await getAgentProfile(await getDb(), { accountId: request.agent.accountId, userId: request.agent.userId })),
  setAvailability: async ({ body }, { request }) =>
    ok(
      4400,
      await setAvailability(await getDb(), {
        accountId: request.agent.accountId,
        userId: request.agent.userId,
        availability: body.availability,
      }),
    ),
  directory: async (_, { request }) => ok(4400, await listDirectory(await getDb(), { accountId: request.agent.accountId })),
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
});

/** The agent workspace's API: its own contract, cookie and guard (lib/agent-auth). */
export const agentApiHandler = createApiHandler<typeof agentContract, { agent: AgentAuth }>({
  contract: agentContract,
  router: agentRouter,
  guard: agentGuard,
});
