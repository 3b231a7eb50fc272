import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
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
    // A stale cookie is dropped so the browser stops sending it; a database that cannot answer
    // (2050) says nothing about the cookie, which is kept.
    if (token && err instanceof ApiError && err.code === 3001) ctx.setCookies = [clearedSessionCookie({ secure: isHttps(req) })];
    throw err;
  }
  ctx.rateLimit = await consumeSessionBudget('admin-session', sha256(token ?? ''), 'admin requests');
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
      const body = readJsonBody(req.body);
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
