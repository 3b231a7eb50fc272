import { agentContract } from '@/contracts/agent';
import { getDb } from '@/db/client';
import { checkSameOrigin } from '@/lib/admin-auth/check-same-origin';
import { isHttps } from '@/lib/admin-auth/session-cookie';
import { recordAdminAction } from '@/lib/audit/record-admin-action';
import { firstPathParam, readJsonBody } from '@/lib/audit/request-parts';
import { addressKey, clientAddress } from '@/platform/auth/client-address';
import { ApiError } from '@/platform/errors';
import type { ApiRequest } from '@/platform/http/api-request';
import { consumeRateLimit } from '@/platform/http/rate-limit';
import type { RequestContext } from '@/platform/http/request-context';
import type { RouteEntry } from '@/platform/http/route-table';
import { consumeSessionBudget } from '@/platform/limits/limiters';
import { sha256 } from '@/platform/util/ids';
import { logger } from '@/platform/util/logger';
import { clearedAgentSessionCookie, readAgentSessionToken } from './agent-session-cookie';
import { authenticateAgent } from './authenticate-agent';

const PUBLIC_PATHS = new Set<string>([agentContract.login.path, agentContract.acceptInvite.path]);
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The agent workspace API's guard, the console's rules: every route but sign-in and the invite
 * needs the `va_agent_session` cookie; every state-changing route is refused when a browser sends
 * it from another site (3003); sign-ins count per client address (and per email in logInAgent);
 * signed-in calls count per session (ADMIN_RATE_LIMIT_PER_MINUTE). Each state-changing call of a
 * signed-in person is written to the account's audit log (`agent:<email>`), with field names and
 * non-string values only, never the text of a reply or note.
 */
export async function agentGuard(req: ApiRequest, entry: RouteEntry, ctx: RequestContext): Promise<void> {
  if (!SAFE_METHODS.has(req.method)) checkSameOrigin(req);
  const address = clientAddress(req, { socketAddress: ctx.socketAddress });
  ctx.clientAddress = address;
  if (PUBLIC_PATHS.has(entry.path)) {
    ctx.rateLimit = await consumeRateLimit(`agent-login:${addressKey(address)}`, 'login');
    return;
  }
  const token = readAgentSessionToken(req.headers);
  try {
    ctx.agent = await authenticateAgent(await getDb(), { token });
  } catch (err) {
    if (token && err instanceof ApiError && err.code === 2080) ctx.setCookies = [clearedAgentSessionCookie({ secure: isHttps(req) })];
    throw err;
  }
  ctx.rateLimit = await consumeSessionBudget('agent-session', sha256(token ?? ''), 'workspace requests');
  if (!SAFE_METHODS.has(req.method)) auditAfterwards(req, entry, ctx);
}

function auditAfterwards(req: ApiRequest, entry: RouteEntry, ctx: RequestContext) {
  const agent = ctx.agent;
  if (!agent) return;
  ctx.afterResponse = async (response) => {
    try {
      await recordAdminAction(await getDb(), {
        accountId: agent.accountId,
        adminId: null,
        userId: agent.userId,
        adminEmail: `agent:${agent.email}`,
        method: req.method,
        routePath: `/agent${entry.path.replace(/^\/api\/agent/, '')}`,
        targetId: firstPathParam(entry.path, req.path),
        body: readJsonBody(req.body),
        httpStatus: response.status,
        clientAddress: ctx.clientAddress ?? 'unknown',
        trxid: ctx.trxid,
      });
    } catch (err) {
      logger.error('audit entry not recorded', { route: entry.path, err });
    }
  };
}
