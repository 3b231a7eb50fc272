import { randomBytes } from 'node:crypto';
import type { WidgetVisitor } from '@/contracts/widget/schemas';
import type { Db } from '@/db/client';
import { env } from '@/env';
import { ApiError } from '@/platform/errors';
import { signCredential } from './credential';
import { findWidgetAsset } from './find-widget-asset';

/**
 * A new customer of the app: a random livechat id (their `destination_id`) and the credential the
 * browser keeps. Nothing is written: the customer row appears with their first chat.
 */
export async function createVisitor(db: Db, { appId }: { appId: number }): Promise<WidgetVisitor> {
  const asset = await findWidgetAsset(db, { appId });
  if (asset.disabledAt) throw new ApiError(2035, { detail: 'this chat is not available at the moment' });
  const livechatId = `lc-${randomBytes(16).toString('base64url')}`;
  const expiresAt = new Date(Date.now() + env().WIDGET_CREDENTIAL_DAYS * 86_400_000);
  return {
    livechat_id: livechatId,
    token: signCredential(asset.widgetKey, { assetId: asset.id, livechatId, expiresAt }),
    expires_at: expiresAt.toISOString(),
  };
}
