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

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** Who a state-changing call is recorded as in the account's audit log. */
type AuditActor = { accountId: number; adminId: number | null; userId?: number; adminEmail: string; routePath: string };

/**
 * The guard of a cookie-signed surface (the console's admin API, the agent workspace): every
 * state-changing route is refused when a browser sends it from another site; the public paths
 * (sign-in) count per client address; every other route needs the session cookie (a stale one is
 * dropped so the browser stops sending it, but not on a database outage) and counts per session; each state-changing call of a
 * signed-in principal is recorded in the audit log once its answer is known, refused ones included.
 * The body is read from a copy after the handler; a lost audit entry is logged, without content.
 */
export function sessionGuard<P>(surface: {
  publicPaths: string[];
  /** Rate-limit key prefix for sign-in attempts per client address. */
  loginKey: string;
  readToken: (headers: Headers) => string | undefined;
  clearedCookie: (options: { secure: boolean }) => string;
  /** The code `authenticate` throws for a missing or stale session: only then is the cookie dropped. */
  signedOutCode: number;
  /** Authenticates the token (throwing the surface's error) and puts the principal on the context. */
  authenticate: (token: string | undefined, ctx: RequestContext) => Promise<P>;
  /** The per-session budget: its limiter name and what the refusal calls the requests. */
  budget: { name: Parameters<typeof consumeSessionBudget>[0]; label: string };
  auditActor: (principal: P, entry: RouteEntry) => AuditActor;
}) {
  const publicPaths = new Set(surface.publicPaths);
  return async function guard(req: ApiRequest, entry: RouteEntry, ctx: RequestContext): Promise<void> {
    if (!SAFE_METHODS.has(req.method)) checkSameOrigin(req);
    const address = clientAddress(req, { socketAddress: ctx.socketAddress });
    ctx.clientAddress = address;
    if (publicPaths.has(entry.path)) {
      ctx.rateLimit = await consumeRateLimit(`${surface.loginKey}:${addressKey(address)}`, 'login');
      return;
    }
    const token = surface.readToken(req.headers);
    let principal: P;
    try {
      principal = await surface.authenticate(token, ctx);
    } catch (err) {
      // A stale cookie is dropped so the browser stops sending it; a database that cannot answer
      // (2050) says nothing about the cookie, which is kept.
      if (token && err instanceof ApiError && err.code === surface.signedOutCode)
        ctx.setCookies = [surface.clearedCookie({ secure: isHttps(req) })];
      throw err;
    }
    ctx.rateLimit = await consumeSessionBudget(surface.budget.name, sha256(token ?? ''), surface.budget.label);
    if (SAFE_METHODS.has(req.method)) return;
    const actor = surface.auditActor(principal, entry);
    ctx.afterResponse = async (response) => {
      try {
        await recordAdminAction(await getDb(), {
          ...actor,
          method: req.method,
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
  };
}
