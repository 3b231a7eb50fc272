import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { accessTokens, users, virtualAgents } from '@/db/schema';
import { env } from '@/lib/env';
import { ApiError } from '@/lib/errors';
import { randomToken, sha256 } from '@/lib/util/ids';

export type IssuedToken = { accessToken: string; expiresIn: number; expiresAt: Date };

/** Exchanges a VA's API key for a fresh access token. Only the token's hash is stored. */
export async function authorize(db: Db, { apiKey }: { apiKey: string }): Promise<IssuedToken> {
  const [va] = await db
    .select({ userId: virtualAgents.userId, accountId: virtualAgents.accountId, enabled: users.enabled })
    .from(virtualAgents)
    .innerJoin(users, eq(users.id, virtualAgents.userId))
    .where(eq(virtualAgents.apiKeyHash, sha256(apiKey)))
    .limit(1);
  if (!va) throw new ApiError(2005);
  if (!va.enabled) throw new ApiError(2005, { detail: 'the virtual agent is disabled' });

  const accessToken = randomToken(32);
  const expiresIn = env().ACCESS_TOKEN_TTL_SECONDS;
  const expiresAt = new Date(Date.now() + expiresIn * 1000);
  await db.transaction(async (tx) => {
    // Expired tokens of this VA are swept as new ones are issued, so the table stays small.
    await tx.delete(accessTokens).where(and(eq(accessTokens.userId, va.userId), lt(accessTokens.expiresAt, new Date())));
    await tx.insert(accessTokens).values({ tokenHash: sha256(accessToken), userId: va.userId, accountId: va.accountId, expiresAt });
  });
  return { accessToken, expiresIn, expiresAt };
}
