import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Asset } from '@/contracts/bot/schemas/me';
import type { Channel } from '@/contracts/enums';
import type { Db } from '@/db/client';
import { assets } from '@/db/schema';
import { decodeCursor, encodeCursor } from '@/platform/util/cursor';

const DEFAULT_PAGE_SIZE = 25;

/**
 * GET /assets for bots: the account's assets by id, a page at a time, from the index on
 * (account, id) or, with a channel, on (account, channel, id): a page is a short index walk.
 */
export async function listAssetPage(
  db: Db,
  {
    accountId,
    channel,
    pageSize = DEFAULT_PAGE_SIZE,
    cursor,
  }: { accountId: number; channel?: Channel; pageSize?: number; cursor?: string },
): Promise<{ assets: Asset[]; nextCursor: string | null }> {
  const after = cursor ? decodeCursor(cursor, (p): p is [number] => p.length === 1 && Number.isSafeInteger(p[0]))[0] : 0;
  const rows = await db
    .select({
      id: assets.id,
      channel: assets.channel,
      name: assets.name,
      address: assets.address,
      enabled: sql<boolean>`${assets.disabledAt} is null`,
    })
    .from(assets)
    .where(and(eq(assets.accountId, accountId), channel ? eq(assets.channel, channel) : undefined, gt(assets.id, after)))
    .orderBy(asc(assets.id))
    .limit(pageSize + 1);
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return { assets: page, nextCursor: rows.length > pageSize && last ? encodeCursor([last.id]) : null };
}
