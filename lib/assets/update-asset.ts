import { and, eq, sql } from 'drizzle-orm';
import type { UpdateAssetBody } from '@/contracts/schemas/admin-asset';
import type { Db } from '@/db/client';
import { assets } from '@/db/schema';
import { ApiError } from '@/lib/errors';

/**
 * Renames an asset, sets its address, or disables or enables it; the channel stays (chats refer to
 * the asset on it). Disabling keeps the first `disabled_at` when sent again.
 */
export async function updateAsset(db: Db, { accountId, id, patch }: { accountId: number; id: number; patch: UpdateAssetBody }) {
  if (patch.name === undefined && patch.address === undefined && patch.enabled === undefined) {
    throw new ApiError(2000, { detail: 'send name, address or enabled', errors: [{ field: '(body)', message: 'no updatable field' }] });
  }
  const [asset] = await db
    .update(assets)
    .set({
      ...(patch.name !== undefined && { name: patch.name }),
      ...(patch.address !== undefined && { address: patch.address }),
      ...(patch.enabled === true && { disabledAt: null }),
      ...(patch.enabled === false && { disabledAt: sql`coalesce(${assets.disabledAt}, now())` }),
      updatedAt: sql`now()`,
    })
    .where(and(eq(assets.id, id), eq(assets.accountId, accountId)))
    .returning();
  if (!asset) throw new ApiError(3006, { detail: `no asset ${id}` });
  return asset;
}
