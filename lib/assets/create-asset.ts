import type { Channel } from '@/contracts/enums';
import type { Db } from '@/db/client';
import { assets } from '@/db/schema';

export async function createAsset(
  db: Db,
  { accountId, channel, name, address }: { accountId: number; channel: Channel; name: string; address?: string },
) {
  const [asset] = await db
    .insert(assets)
    .values({ accountId, channel, name, address: address ?? null })
    .returning();
  return asset;
}
