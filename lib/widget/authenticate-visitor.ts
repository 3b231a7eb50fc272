import { LRUCache } from 'lru-cache';
import type { Db } from '@/db/client';
import { ApiError } from '@/platform/errors';
import { processStore } from '@/platform/util/process-store';
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
  const asset = await signerOf(db, claims.assetId);
  if (!asset || !signatureMatches(asset.widgetKey, claims.payload, claims.signature)) throw new ApiError(2070);
  if (claims.expiresAt.getTime() <= Date.now()) throw new ApiError(2070, { detail: 'the credential has expired' });
  return { accountId: asset.accountId, assetId: claims.assetId, livechatId: claims.livechatId };
}

type Signer = { accountId: number; widgetKey: string };
/** How long a process keeps an app's signer, and how many it keeps (past it, the least recently used go first). */
const SIGNER_TTL_MS = 60_000;
const MAX_SIGNERS = 10_000;
const store = processStore<{ __vaWidgetSigners?: LRUCache<number, Signer> }>();

/**
 * The account and the key that sign an app's credentials. Both are fixed when the asset is created
 * and assets are never deleted, so a process keeps them a minute rather than reading them on every
 * widget request (a customer's message, each stream). What can change (disabled, allowed origins)
 * is not read here. Only "no such app" reads as a bad credential: a database that cannot answer is
 * the 503 every route gives then, so the widget keeps the credential and tries again.
 */
async function signerOf(db: Db, appId: number): Promise<Signer | null> {
  store.__vaWidgetSigners ??= new LRUCache({ max: MAX_SIGNERS, ttl: SIGNER_TTL_MS });
  const kept = store.__vaWidgetSigners;
  const hit = kept.get(appId);
  if (hit) return hit;
  const asset = await findWidgetAsset(db, { appId }).catch((err) => {
    if (err instanceof ApiError && err.code === 2071) return null;
    throw err;
  });
  if (!asset) return null;
  const signer = { accountId: asset.accountId, widgetKey: asset.widgetKey };
  kept.set(appId, signer);
  return signer;
}
