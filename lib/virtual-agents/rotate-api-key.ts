import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { accessTokens, virtualAgents } from '@/db/schema';
import { ApiError } from '@/lib/errors';
import { sha256 } from '@/lib/util/ids';
import { newApiKey } from './create-virtual-agent';

/** A new API key for the VA; the old key and every token issued with it stop working at once. */
export async function rotateApiKey(db: Db, { accountId, id }: { accountId: number; id: number }) {
  const apiKey = newApiKey();
  const apiKeyPrefix = apiKey.slice(0, 8);
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(virtualAgents)
      .set({ apiKeyHash: sha256(apiKey), apiKeyPrefix, updatedAt: new Date() })
      .where(and(eq(virtualAgents.userId, id), eq(virtualAgents.accountId, accountId)))
      .returning({ id: virtualAgents.userId });
    if (!updated.length) throw new ApiError(3006, { detail: `no virtual agent ${id}` });
    await tx.delete(accessTokens).where(and(eq(accessTokens.userId, id), eq(accessTokens.accountId, accountId)));
  });
  return { id, api_key: apiKey, api_key_prefix: apiKeyPrefix };
}
