import { tsr } from '@ts-rest/serverless/next';
import { agentContract } from '@/contracts/agent';
import { getDb } from '@/db/client';
import { isHttps } from '@/lib/admin-auth/session-cookie';
import { getAgentProfile } from '@/lib/agent/get-agent-profile';
import { setAvailability } from '@/lib/agent/set-availability';
import { acceptInvite } from '@/lib/agent-auth/accept-invite';
import { agentSessionCookie, clearedAgentSessionCookie, readAgentSessionToken } from '@/lib/agent-auth/agent-session-cookie';
import { logInAgent } from '@/lib/agent-auth/log-in-agent';
import { logOutAgent } from '@/lib/agent-auth/log-out-agent';
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

export const sessionRouter = tsr.routerWithMiddleware(agentContract.session)<{ agent: AgentAuth }>({
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
});
