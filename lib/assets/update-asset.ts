import { and, eq, sql } from 'drizzle-orm';
import type { UpdateAssetBody } from '@/contracts/admin/schemas/asset';
import type { Db } from '@/db/client';
import { assets } from '@/db/schema';
import { ApiError } from '@/platform/errors';

/**
 * Renames an asset, sets its address, or disables or enables it; the channel stays (chats refer to
 * the asset on it). Disabling keeps the first `disabled_at` when sent again.
 */
export async function updateAsset(db: Db, { accountId, id, patch }: { accountId: number; id: number; patch: UpdateAssetBody }) {
  if (patch.name === undefined && patch.address === undefined && patch.enabled === undefined && patch.allowed_origins === undefined) {
    throw new ApiError(2000, {
      detail: 'send name, address, enabled or allowed_origins',
      errors: [{ field: '(body)', message: 'no updatable field' }],
    });
  }
  const origins = patch.allowed_origins === undefined ? undefined : normalizeOrigins(patch.allowed_origins);
  if (origins !== undefined) {
    const [current] = await db
      .select({ channel: assets.channel })
      .from(assets)
      .where(and(eq(assets.id, id), eq(assets.accountId, accountId)));
    if (!current) throw new ApiError(3006, { detail: `no asset ${id}` });
    if (current.channel !== 'livechat') {
      throw new ApiError(3008, {
        detail: `asset ${id} is on ${current.channel}: only livechat assets have allowed origins`,
        errors: [{ field: 'allowed_origins', message: 'only on livechat assets' }],
      });
    }
  }
  const [asset] = await db
    .update(assets)
    .set({
      ...(patch.name !== undefined && { name: patch.name }),
      ...(patch.address !== undefined && { address: patch.address }),
      ...(origins !== undefined && { allowedOrigins: origins }),
      ...(patch.enabled === true && { disabledAt: null }),
      ...(patch.enabled === false && { disabledAt: sql`coalesce(${assets.disabledAt}, now())` }),
      updatedAt: sql`now()`,
    })
    .where(and(eq(assets.id, id), eq(assets.accountId, accountId)))
    .returning();
  if (!asset) throw new ApiError(3006, { detail: `no asset ${id}` });
  return asset;
}

/** One spelling per origin (lower case, no trailing `/`), each once, in the order given. */
function normalizeOrigins(origins: string[]): string[] {
  return [...new Set(origins.map((o) => o.toLowerCase().replace(/\/$/, '')))];
}
