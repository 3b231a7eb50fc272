import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { accessTokens, virtualAgents } from '@/db/schema';
import { env } from '@/env';
import { forgetTokensOf, revokeCachedTokens } from '@/lib/bot-auth/token-cache';
import { sha256 } from '@/platform/util/ids';
import { newApiKey } from './create-virtual-agent';
import { lockCredentials, previousValidUntil, type RotationMode } from './rotation';

export type { RotationMode } from './rotation';

/**
 * A new API key for the VA. `at_once` (for a leaked key): the old key and every token issued with
 * it stop working now. `overlap`: the old key keeps authorizing for API_KEY_OVERLAP_SECONDS and its
 * tokens live out their time, so a bot can switch keys without a failed call. A further rotation
 * replaces the kept key: at most two keys authorize at any time.
 */
export async function rotateApiKey(db: Db, { accountId, id, mode = 'at_once' }: { accountId: number; id: number; mode?: RotationMode }) {
  const apiKey = newApiKey();
  const apiKeyPrefix = apiKey.slice(0, 8);
  const validUntil = previousValidUntil(mode, env().API_KEY_OVERLAP_SECONDS);
  const keepOld = validUntil !== null;
  await db.transaction(async (tx) => {
    const current = await lockCredentials(tx, { accountId, id });
    await tx
      .update(virtualAgents)
      .set({
        apiKeyHash: sha256(apiKey),
        apiKeyPrefix,
        previousApiKeyHash: keepOld ? current.apiKeyHash : null,
        previousApiKeyExpiresAt: validUntil,
        updatedAt: new Date(),
      })
      .where(eq(virtualAgents.userId, id));
    if (!keepOld) {
      await tx.delete(accessTokens).where(and(eq(accessTokens.userId, id), eq(accessTokens.accountId, accountId)));
      await revokeCachedTokens(tx, id);
    }
  });
  // Once more after the commit: a call checked between the first forget and the commit was cached anew.
  if (!keepOld) forgetTokensOf(id);
  return { id, api_key: apiKey, api_key_prefix: apiKeyPrefix, previous_valid_until: validUntil?.toISOString() ?? null };
}
