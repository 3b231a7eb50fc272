import { RateLimiterRes } from 'rate-limiter-flexible';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { addressKey, clientAddress } from '@/lib/auth/client-address';
import { env } from '@/lib/env';
import type { ApiRequest } from '@/lib/http/api-request';
import { consumeRateLimit } from '@/lib/http/rate-limit';
import type { RequestContext } from '@/lib/http/request-context';
import type { RouteEntry } from '@/lib/http/route-table';
import { limiterFor, tooManyRequests } from '@/lib/limits/limiters';
import { sha256 } from '@/lib/util/ids';
import { authenticateSession } from './authenticate-session';
import { checkSameOrigin } from './check-same-origin';
import { clearedSessionCookie, isHttps, readSessionToken } from './session-cookie';

const PUBLIC_PATHS = new Set<string>([adminContract.session.login.path]);
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The admin API's guard: every route but /login needs the session cookie; every state-changing
 * route (login included) is refused when a browser sends it from another site. Sign-in attempts
 * count per client address here (and per account and address in logIn); signed-in calls count per
 * session (ADMIN_RATE_LIMIT_PER_MINUTE), the test-event tool included.
 */
export async function adminGuard(req: ApiRequest, entry: RouteEntry, ctx: RequestContext): Promise<void> {
  if (!SAFE_METHODS.has(req.method)) checkSameOrigin(req);
  const address = clientAddress(req, { socketAddress: ctx.socketAddress });
  ctx.clientAddress = address;
  if (PUBLIC_PATHS.has(entry.path)) {
    ctx.rateLimit = await consumeRateLimit(`admin-login:${addressKey(address)}`, 'login');
    return;
  }
  const token = readSessionToken(req.headers);
  try {
    ctx.admin = await authenticateSession(await getDb(), { token });
  } catch (err) {
    // A stale cookie is dropped so the browser stops sending it.
    if (token) ctx.setCookies = [clearedSessionCookie({ secure: isHttps(req) })];
    throw err;
  }
  ctx.rateLimit = await consumeSessionBudget(sha256(token ?? ''));
}

async function consumeSessionBudget(sessionKey: string) {
  const points = env().ADMIN_RATE_LIMIT_PER_MINUTE;
  try {
    const res = await limiterFor({ name: 'admin-session', points, durationSeconds: 60 }).consume(sessionKey, 1);
    return { limit: points, remaining: res.remainingPoints, resetSeconds: Math.ceil(res.msBeforeNext / 1000) };
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    throw tooManyRequests(rejection.msBeforeNext, `at most ${points} admin requests per session per minute`, points);
  }
}
