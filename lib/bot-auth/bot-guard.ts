import { botContract } from '@/contracts/bot';
import { getDb } from '@/db/client';
import { addressKey, clientAddress } from '@/platform/auth/client-address';
import { ApiError } from '@/platform/errors';
import type { ApiRequest } from '@/platform/http/api-request';
import { consumeRateLimit } from '@/platform/http/rate-limit';
import type { RequestContext } from '@/platform/http/request-context';
import type { RouteEntry } from '@/platform/http/route-table';
import { authenticateToken } from './authenticate-token';
import { recordBotAuthFailure, refuseIfFailingTooOften } from './bot-auth-failures';

const PUBLIC_PATHS = new Set<string>([botContract.auth.authorize.path]);

/**
 * The bot API's guard: every route but /authorize needs `access_token`. The request budget counts
 * per account once the caller is known, per client address before that (/authorize). Unknown and
 * expired tokens count against the address's failure budget (bot-auth-failures.ts).
 */
export async function botGuard(req: ApiRequest, entry: RouteEntry, ctx: RequestContext): Promise<void> {
  const address = clientAddress(req, { socketAddress: ctx.socketAddress });
  ctx.clientAddress = address;
  if (PUBLIC_PATHS.has(entry.path)) {
    ctx.rateLimit = await consumeRateLimit(`ip:${addressKey(address)}`);
    // Refused before the body is read; authorize() counts the failures themselves.
    await refuseIfFailingTooOften(address);
    return;
  }
  try {
    ctx.bot = await authenticateToken(await getDb(), { token: req.headers.get('access_token') });
  } catch (err) {
    if (err instanceof ApiError && (err.code === 2003 || err.code === 2004)) throw (await recordBotAuthFailure(address)) ?? err;
    throw err;
  }
  ctx.rateLimit = await consumeRateLimit(`account:${ctx.bot.accountId}`);
}
