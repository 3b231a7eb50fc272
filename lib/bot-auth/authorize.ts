import { and, eq, gt, lt, or } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { accessTokens, users, virtualAgents } from '@/db/schema';
import { env } from '@/env';
import { ApiError } from '@/platform/errors';
import { randomToken, sha256 } from '@/platform/util/ids';
import { recordBotAuthFailure, refuseIfFailingTooOften } from './bot-auth-failures';

import type { BotAuth } from './types';

/** `virtualAgent`: whom the token acts as (the request log attributes the /authorize call to it). */
export type IssuedToken = { accessToken: string; expiresIn: number; expiresAt: Date; virtualAgent: BotAuth };

/**
 * Exchanges a VA's API key (or its previous key, during a rotation's overlap) for a fresh access
 * token. Only the token's hash is stored. With `clientAddress` (every API call), failures count
 * against that address's budget and an address over it is refused before its key is looked at.
 */
export async function authorize(db: Db, { apiKey, clientAddress }: { apiKey: string; clientAddress?: string }): Promise<IssuedToken> {
  if (clientAddress !== undefined) await refuseIfFailingTooOften(clientAddress);
  const fail = async (detail?: string): Promise<never> => {
    const over = clientAddress === undefined ? null : await recordBotAuthFailure(clientAddress);
    throw over ?? new ApiError(2005, detail ? { detail } : {});
  };
  const hash = sha256(apiKey);
  const [va] = await db
    .select({ userId: virtualAgents.userId, accountId: virtualAgents.accountId, loginId: users.loginId, enabled: users.enabled })
    .from(virtualAgents)
    .innerJoin(users, eq(users.id, virtualAgents.userId))
    .where(
      or(
        eq(virtualAgents.apiKeyHash, hash),
        and(eq(virtualAgents.previousApiKeyHash, hash), gt(virtualAgents.previousApiKeyExpiresAt, new Date())),
      ),
    )
    .limit(1);
  if (!va) return fail();
  if (!va.enabled) return fail('the virtual agent is disabled');

  const accessToken = randomToken(32);
  const expiresIn = env().ACCESS_TOKEN_TTL_SECONDS;
  const expiresAt = new Date(Date.now() + expiresIn * 1000);
  const issued = await db.transaction(async (tx) => {
    // Disabling takes this row's lock and revokes tokens in the same transaction: holding a share
    // lock while inserting means a token is either revoked by it or issued after it (and refused).
    const [user] = await tx.select({ enabled: users.enabled }).from(users).where(eq(users.id, va.userId)).for('share');
    if (!user?.enabled) return false;
    // Expired tokens of this VA are swept as new ones are issued, so the table stays small.
    await tx.delete(accessTokens).where(and(eq(accessTokens.userId, va.userId), lt(accessTokens.expiresAt, new Date())));
    await tx.insert(accessTokens).values({ tokenHash: sha256(accessToken), userId: va.userId, accountId: va.accountId, expiresAt });
    return true;
  });
  if (!issued) return fail('the virtual agent is disabled');
  return { accessToken, expiresIn, expiresAt, virtualAgent: { accountId: va.accountId, userId: va.userId, loginId: va.loginId } };
}
