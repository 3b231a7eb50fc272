import { agentContract } from '@/contracts/agent';
import { getDb } from '@/db/client';
import { sessionGuard } from '@/platform/auth/session-guard';
import { clearedAgentSessionCookie, readAgentSessionToken } from './agent-session-cookie';
import { authenticateAgent } from './authenticate-agent';

/**
 * The agent workspace API's guard, the console's rules: every route but sign-in and the invite
 * needs the `va_agent_session` cookie; every state-changing route is refused when a browser sends
 * it from another site (3003); sign-ins count per client address (and per email in logInAgent);
 * signed-in calls count per session (ADMIN_RATE_LIMIT_PER_MINUTE). Each state-changing call of a
 * signed-in person is written to the account's audit log (`agent:<email>`), with field names and
 * non-string values only, never the text of a reply or note.
 */
export const agentGuard = sessionGuard({
  publicPaths: [agentContract.session.login.path, agentContract.session.acceptInvite.path],
  loginKey: 'agent-login',
  readToken: readAgentSessionToken,
  signedOutCode: 2080,
  clearedCookie: clearedAgentSessionCookie,
  authenticate: async (token, ctx) => {
    ctx.agent = await authenticateAgent(await getDb(), { token });
    return ctx.agent;
  },
  budget: { name: 'agent-session', label: 'workspace requests' },
  auditActor: (agent, entry) => ({
    accountId: agent.accountId,
    adminId: null,
    userId: agent.userId,
    adminEmail: `agent:${agent.email}`,
    routePath: `/agent${entry.path.replace(/^\/api\/agent/, '')}`,
  }),
});
