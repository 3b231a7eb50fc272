import type { NextRequest } from 'next/server';
import { getDb } from '@/db/client';
import { isHttps } from '@/lib/admin-auth/session-cookie';
import { findWidgetAsset } from '@/lib/widget/find-widget-asset';
import { widgetMissingHtml, widgetPageCsp, widgetPageHtml } from '@/lib/widget/widget-page';

export const dynamic = 'force-dynamic';

/**
 * The customer's chat page of a livechat asset: full page, or framed by the embed script on one
 * of the asset's allowed origins (CSP frame-ancestors; no other site may frame it).
 */
export async function GET(req: NextRequest, { params }: { params: Promise<{ appId: string }> }): Promise<Response> {
  const { appId } = await params;
  const https = isHttps(req);
  const asset = /^[0-9]{1,10}$/.test(appId) ? await findWidgetAsset(await getDb(), { appId: Number(appId) }).catch(() => null) : null;
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
