import { and, asc, eq, gt, ilike, isNotNull, isNull, or } from 'drizzle-orm';
import type { AdminAsset, AdminAssetPage, ListAssetsQuery } from '@/contracts/admin/schemas/asset';
import type { Db } from '@/db/client';
import { assets } from '@/db/schema';
import type { PublicBase } from '@/lib/widget/public-base';
import { widgetInstall } from '@/lib/widget/widget-install';
import { decodeCursor, encodeCursor } from '@/platform/util/cursor';

const DEFAULT_PAGE_SIZE = 25;

/** The admin API's asset; `base` is the service's public origin (the livechat widget's links). */
export function toAssetView(a: typeof assets.$inferSelect, base: PublicBase): AdminAsset {
  return {
    id: a.id,
    channel: a.channel,
    name: a.name,
    address: a.address,
    enabled: a.disabledAt === null,
    disabled_at: a.disabledAt?.toISOString() ?? null,
    allowed_origins: a.allowedOrigins,
    widget: a.channel === 'livechat' ? widgetInstall(base, a.id) : null,
    created_at: a.createdAt.toISOString(),
  };
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/**
 * The admin list: the account's assets by id, a page at a time, walking the index on (account, id)
 * or, with a channel, on (account, channel, id). A search (`q`, part of the name or address) and
 * the `enabled` filter are checked on the rows of that walk, which stops once a page is full.
 */
export async function listAssets(
  db: Db,
  { accountId, query, base }: { accountId: number; query: ListAssetsQuery; base: PublicBase },
): Promise<AdminAssetPage> {
  const pageSize = query.page_size ?? DEFAULT_PAGE_SIZE;
  const after = query.cursor ? decodeCursor(query.cursor, (p): p is [number] => p.length === 1 && Number.isSafeInteger(p[0]))[0] : 0;
  const part = query.q ? `%${escapeLike(query.q)}%` : null;
  const rows = await db
    .select()
    .from(assets)
    .where(
      and(
        eq(assets.accountId, accountId),
        query.channel ? eq(assets.channel, query.channel) : undefined,
        query.enabled === 'true' ? isNull(assets.disabledAt) : query.enabled === 'false' ? isNotNull(assets.disabledAt) : undefined,
        part ? or(ilike(assets.name, part), ilike(assets.address, part)) : undefined,
        gt(assets.id, after),
      ),
    )
    .orderBy(asc(assets.id))
    .limit(pageSize + 1);
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return { assets: page.map((a) => toAssetView(a, base)), next_cursor: rows.length > pageSize && last ? encodeCursor([last.id]) : null };
}
