import { RateLimiterRes } from 'rate-limiter-flexible';
import { agentContract } from '@/contracts/agent';
import { getDb } from '@/db/client';
import { env } from '@/env';
import { checkSameOrigin } from '@/lib/admin-auth/check-same-origin';
import { isHttps } from '@/lib/admin-auth/session-cookie';
import { recordAdminAction } from '@/lib/audit/record-admin-action';
import { addressKey, clientAddress } from '@/lib/auth/client-address';
import type { ApiRequest } from '@/lib/http/api-request';
import { consumeRateLimit } from '@/lib/http/rate-limit';
import type { RequestContext } from '@/lib/http/request-context';
import type { RouteEntry } from '@/lib/http/route-table';
import { limiterFor, tooManyRequests } from '@/lib/limits/limiters';
import { sha256 } from '@/lib/util/ids';
import { logger } from '@/lib/util/logger';
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
    if (token) ctx.setCookies = [clearedAgentSessionCookie({ secure: isHttps(req) })];
    throw err;
  }
  ctx.rateLimit = await consumeSessionBudget(sha256(token ?? ''));
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
        targetId: chatIdOf(entry.path, req.path),
        body: readJson(req.body),
        httpStatus: response.status,
        clientAddress: ctx.clientAddress ?? 'unknown',
        trxid: ctx.trxid,
      });
    } catch (err) {
      logger.error('audit entry not recorded', { route: entry.path, err });
    }
  };
}

function readJson(bytes: Uint8Array | null): unknown {
  if (!bytes || bytes.byteLength === 0) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

function chatIdOf(pattern: string, pathname: string): string | null {
  const at = pattern.split('/').findIndex((part) => part.startsWith(':'));
  if (at < 0) return null;
  const raw = pathname.split('/')[at];
  if (raw === undefined) return null;
  try {
    return decodeURIComponent(raw).slice(0, 100);
  } catch {
    return raw.slice(0, 100);
  }
}

async function consumeSessionBudget(sessionKey: string) {
  const points = env().ADMIN_RATE_LIMIT_PER_MINUTE;
  try {
    const res = await limiterFor({ name: 'agent-session', points, durationSeconds: 60 }).consume(sessionKey, 1);
    return { limit: points, remaining: res.remainingPoints, resetSeconds: Math.ceil(res.msBeforeNext / 1000) };
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    throw tooManyRequests(rejection.msBeforeNext, `at most ${points} workspace requests per session per minute`, points);
  }
}
