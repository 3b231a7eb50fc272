import type { Db } from '@/db/client';
import { ApiError } from '@/platform/errors';
import { readCredential, signatureMatches } from './credential';
import { findWidgetAsset } from './find-widget-asset';
import type { WidgetVisitorAuth } from './types';

/**
 * The customer behind `Authorization: Bearer <credential>`, or 2070 (never for a storage failure). Only this header is read:
 * cookies (the admin session's included) count for nothing here.
 */
export async function authenticateVisitor(db: Db, { authorization }: { authorization: string | null }): Promise<WidgetVisitorAuth> {
  const token = authorization?.match(/^Bearer\s+(\S{1,1000})$/i)?.[1];
  if (!token) throw new ApiError(2070, { detail: 'send the credential as Authorization: Bearer <token>' });
  const claims = readCredential(token);
  if (!claims) throw new ApiError(2070);
  // Only "no such app" reads as a bad credential: a database that cannot answer is the 503 every
  // route gives then, so the widget keeps the credential and tries again.
  const asset = await findWidgetAsset(db, { appId: claims.assetId }).catch((err) => {
    if (err instanceof ApiError && err.code === 2071) return null;
    throw err;
  });
  if (!asset || !signatureMatches(asset.widgetKey, claims.payload, claims.signature)) throw new ApiError(2070);
  if (claims.expiresAt.getTime() <= Date.now()) throw new ApiError(2070, { detail: 'the credential has expired' });
  return { accountId: asset.accountId, assetId: asset.id, livechatId: claims.livechatId };
}
