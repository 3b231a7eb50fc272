import type { NextRequest } from 'next/server';
import { getDb } from '@/db/client';
import { findWidgetAsset } from '@/lib/widget/find-widget-asset';
import { loaderScript } from '@/lib/widget/loader-script';
import { publicBase } from '@/lib/widget/public-base';
import { ApiError } from '@/platform/errors';

export const dynamic = 'force-dynamic';

/** GET /widget.js?app=<id>: the embed script of a livechat asset (lib/widget/loader-script.ts). */
export async function GET(req: NextRequest): Promise<Response> {
  const app = req.nextUrl.searchParams.get('app') ?? '';
  const asset = /^[0-9]{1,10}$/.test(app) ? await findWidgetAsset(await getDb(), { appId: Number(app) }).catch(notFoundAsNull) : null;
  const headers = { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' };
  if (!asset) return new Response('/* no chat widget with this app id */\n', { status: 404, headers });
  const script = loaderScript({ base: publicBase(req), appId: asset.id, origins: asset.allowedOrigins, name: asset.name });
  return new Response(script, { headers });
}

/** "No such app" is the 404 below; anything else (a database that cannot answer) is not hidden behind it. */
function notFoundAsNull(err: unknown): null {
  if (err instanceof ApiError && err.code === 2071) return null;
  throw err;
}
