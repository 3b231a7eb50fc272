import type { NextRequest } from 'next/server';
import { getDb } from '@/db/client';
import { isHttps } from '@/lib/admin-auth/session-cookie';
import { findWidgetAsset } from '@/lib/widget/find-widget-asset';
import { widgetMissingHtml, widgetPageCsp, widgetPageHtml, widgetUnavailableHtml } from '@/lib/widget/widget-page';
import { ApiError } from '@/platform/errors';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '@/platform/util/database-unavailable';

export const dynamic = 'force-dynamic';

/**
 * The customer's chat page of a livechat asset: full page, or framed by the embed script on one
 * of the asset's allowed origins (CSP frame-ancestors; no other site may frame it). While the
 * database cannot be reached: 503 with Retry-After and a page that reloads itself, never "not found".
 */
export async function GET(req: NextRequest, { params }: { params: Promise<{ appId: string }> }): Promise<Response> {
  const { appId } = await params;
  const https = isHttps(req);
  let asset: Awaited<ReturnType<typeof findWidgetAsset>> | null;
  try {
    asset = /^[0-9]{1,10}$/.test(appId) ? await findWidgetAsset(await getDb(), { appId: Number(appId) }) : null;
  } catch (err) {
    if (err instanceof ApiError && err.code === 2071) asset = null;
    else if (isDatabaseUnavailable(err)) {
      // Not "no such chat": the customer's page (framed on the shop, or opened again) says it is
      // reconnecting and reloads itself once the service can answer.
      return new Response(widgetUnavailableHtml(), {
        status: 503,
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'retry-after': String(DATABASE_RETRY_AFTER_SECONDS),
          // The asset's origins cannot be read now: any site may frame this page, which holds nothing
          // and does nothing but reload (framed on the shop, it must show to reload at all).
          'content-security-policy': widgetPageCsp(['*'], { https }),
        },
      });
    } else throw err;
  }
  if (!asset) {
    return new Response(widgetMissingHtml(), {
      status: 404,
      headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': widgetPageCsp([], { https }) },
    });
  }
  return new Response(widgetPageHtml({ appId: asset.id, name: asset.name }), {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': widgetPageCsp(asset.allowedOrigins, { https }),
    },
  });
}
