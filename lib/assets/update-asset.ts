import { and, eq, sql } from 'drizzle-orm';
import type { UpdateAssetBody } from '@/contracts/schemas/admin-asset';
import type { Db } from '@/db/client';
import { assets } from '@/db/schema';
import { ApiError } from '@/lib/errors';

/** Renames an asset or sets its address; the channel stays (chats refer to the asset on it). */
export async function updateAsset(db: Db, { accountId, id, patch }: { accountId: number; id: number; patch: UpdateAssetBody }) {
  if (patch.name === undefined && patch.address === undefined) {
    throw new ApiError(2000, { detail: 'send name or address', errors: [{ field: '(body)', message: 'no updatable field' }] });
  }
  const [asset] = await db
    .update(assets)
    .set({
      ...(patch.name !== undefined && { name: patch.name }),
      ...(patch.address !== undefined && { address: patch.address }),
      updatedAt: sql`now()`,
    })
    .where(and(eq(assets.id, id), eq(assets.accountId, accountId)))
    .returning();
  if (!asset) throw new ApiError(3006, { detail: `no asset ${id}` });
  return asset;
}
