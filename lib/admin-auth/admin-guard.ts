import { RateLimiterRes } from 'rate-limiter-flexible';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { env } from '@/env';
import { recordAdminAction } from '@/lib/audit/record-admin-action';
import { addressKey, clientAddress } from '@/lib/auth/client-address';
import type { ApiRequest } from '@/lib/http/api-request';
import { consumeRateLimit } from '@/lib/http/rate-limit';
import type { RequestContext } from '@/lib/http/request-context';
import type { RouteEntry } from '@/lib/http/route-table';
import { limiterFor, tooManyRequests } from '@/lib/limits/limiters';
import { sha256 } from '@/lib/util/ids';
import { logger } from '@/lib/util/logger';
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
  if (!SAFE_METHODS.has(req.method)) auditAfterwards(req, entry, ctx);
}

/**
 * Every state-changing call of a signed-in administrator is recorded once its answer is known,
 * refused ones included (their status says so). The body is read from a copy, after the handler.
 */
function auditAfterwards(req: ApiRequest, entry: RouteEntry, ctx: RequestContext) {
  const admin = ctx.admin;
  if (!admin) return;
  ctx.afterResponse = async (response) => {
    try {
      const body = readJson(req.body);
      await recordAdminAction(await getDb(), {
        accountId: admin.accountId,
        adminId: admin.adminId,
        adminEmail: admin.email,
        method: req.method,
        routePath: entry.path,
        targetId: firstPathParam(entry.path, req.path),
        body,
        httpStatus: response.status,
        clientAddress: ctx.clientAddress ?? 'unknown',
        trxid: ctx.trxid,
      });
    } catch (err) {
      // The change itself is done; a lost audit entry is logged (without the request's content).
      logger.error('audit entry not recorded', { route: entry.path, err });
    }
  };
}

/** The request's JSON body, or undefined when there is none or it does not parse. */
function readJson(bytes: Uint8Array | null): unknown {
  if (!bytes || bytes.byteLength === 0) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

function firstPathParam(pattern: string, pathname: string): string | null {
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
    const res = await limiterFor({ name: 'admin-session', points, durationSeconds: 60 }).consume(sessionKey, 1);
    return { limit: points, remaining: res.remainingPoints, resetSeconds: Math.ceil(res.msBeforeNext / 1000) };
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    throw tooManyRequests(rejection.msBeforeNext, `at most ${points} admin requests per session per minute`, points);
  }
}
