import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { assets } from '@/db/schema';
import { ApiError } from '@/platform/errors';

/** The livechat asset behind an app id (any account: the app id is public), or 2071. */
export async function findWidgetAsset(db: Db, { appId }: { appId: number }) {
  const [asset] =
    Number.isSafeInteger(appId) && appId > 0 && appId <= 2_147_483_647
      ? await db
          .select({
            id: assets.id,
            accountId: assets.accountId,
            name: assets.name,
            disabledAt: assets.disabledAt,
            allowedOrigins: assets.allowedOrigins,
            widgetKey: assets.widgetKey,
          })
          .from(assets)
          .where(and(eq(assets.id, appId), eq(assets.channel, 'livechat')))
      : [];
  if (!asset) throw new ApiError(2071, { detail: `app ${appId}` });
  return asset;
}
