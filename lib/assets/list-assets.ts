import { asc, eq } from 'drizzle-orm';
import type { AdminAsset } from '@/contracts/schemas/admin-asset';
import type { Db } from '@/db/client';
import { assets } from '@/db/schema';

export function toAssetView(a: typeof assets.$inferSelect): AdminAsset {
  return { id: a.id, channel: a.channel, name: a.name, address: a.address, created_at: a.createdAt.toISOString() };
}

export async function listAssets(db: Db, { accountId }: { accountId: number }): Promise<AdminAsset[]> {
  const rows = await db.select().from(assets).where(eq(assets.accountId, accountId)).orderBy(asc(assets.channel), asc(assets.id));
  return rows.map(toAssetView);
}
