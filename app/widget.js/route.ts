import type { NextRequest } from 'next/server';
import { getDb } from '@/db/client';
import { findWidgetAsset } from '@/lib/widget/find-widget-asset';
import { loaderScript } from '@/lib/widget/loader-script';
import { publicBase } from '@/lib/widget/public-base';
import { ApiError } from '@/platform/errors';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '@/platform/util/database-unavailable';

export const dynamic = 'force-dynamic';

/** GET /widget.js?app=<id>: the embed script of a livechat asset (lib/widget/loader-script.ts); 503 while the database cannot be reached. */
export async function GET(req: NextRequest): Promise<Response> {
  const app = req.nextUrl.searchParams.get('app') ?? '';
  const headers = { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' };
  let asset: Awaited<ReturnType<typeof findWidgetAsset>> | null;
  try {
    asset = /^[0-9]{1,10}$/.test(app) ? await findWidgetAsset(await getDb(), { appId: Number(app) }).catch(notFoundAsNull) : null;
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err;
    // 503 with Retry-After, never a 500 (nor a "no such app" a cache could keep): the next page view loads it.
    return new Response('/* the chat widget cannot be reached at the moment */\n', {
      status: 503,
      headers: { ...headers, 'cache-control': 'no-store', 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
    });
  }
  if (!asset) return new Response('/* no chat widget with this app id */\n', { status: 404, headers });
  const script = loaderScript({ base: publicBase(req), appId: asset.id, origins: asset.allowedOrigins, name: asset.name });
  return new Response(script, { headers });
}

/** "No such app" is the 404 below; anything else (a database that cannot answer: 503) is not hidden behind it. */
function notFoundAsNull(err: unknown): null {
  if (err instanceof ApiError && err.code === 2071) return null;
  throw err;
}
