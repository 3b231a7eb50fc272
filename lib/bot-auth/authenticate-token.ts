import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { accessTokens, users } from '@/db/schema';
import { ApiError, UNDERSCORE_HEADER_HINT } from '@/platform/errors';
import { sha256 } from '@/platform/util/ids';
import { prepared } from '@/platform/util/prepared';
import { cachedToken, cacheToken } from './token-cache';
import type { BotAuth } from './types';

const lookup = prepared('auth_token_lookup', (db: Db) =>
  db
    .select({
      accountId: accessTokens.accountId,
      userId: accessTokens.userId,
      expiresAt: accessTokens.expiresAt,
      loginId: users.loginId,
      enabled: users.enabled,
    })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.userId))
    .where(eq(accessTokens.tokenHash, sql.placeholder('hash'))),
);

/**
 * Resolves the `access_token` header: missing 2002, unknown 2003, expired 2004. A token checked
 * in the last TOKEN_CACHE_SECONDS is answered from this instance's cache (token-cache.ts).
 */
export async function authenticateToken(db: Db, { token }: { token: string | null }): Promise<BotAuth> {
  if (!token)
    throw new ApiError(2002, {
      detail: `access_token header is required; ${UNDERSCORE_HEADER_HINT}`,
      errors: [{ field: 'header.access_token', message: 'Required' }],
    });
  const hash = sha256(token);
  const cached = cachedToken(hash);
  if (cached) return cached;
  const [row] = await lookup(db).execute({ hash });
  if (!row?.enabled) throw new ApiError(2003);
  if (row.expiresAt.getTime() <= Date.now()) throw new ApiError(2004, { detail: 'call /authorize for a new token' });
  const auth = { accountId: row.accountId, userId: row.userId, loginId: row.loginId };
  cacheToken(hash, auth, row.expiresAt);
  return auth;
}
