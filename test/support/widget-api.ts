import { NextRequest } from 'next/server';
import { widgetApiHandler } from '@/app/api/widget/_routers';
import type { ApiReply } from './bot-api';

/**
 * Sends a request through the widget API's real handler, in process. `token` goes in
 * `Authorization: Bearer`; `address` is the client address (X-Forwarded-For, as Next's server sets it).
 */
export async function widgetApi(
  method: string,
  path: string,
  opts: { token?: string; headers?: Record<string, string>; body?: unknown; raw?: string; address?: string } = {},
): Promise<ApiReply> {
  const headers = new Headers(opts.headers);
  if (opts.token) headers.set('authorization', `Bearer ${opts.token}`);
  headers.set('x-forwarded-for', opts.address ?? '198.51.100.7');
  let body: string | undefined = opts.raw;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  if (body !== undefined && !headers.has('content-length')) headers.set('content-length', String(Buffer.byteLength(body)));
  const res = await widgetApiHandler(new NextRequest(`http://localhost/api/widget${path}`, { method, headers, body }));
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: leave the text for the assertion to show
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** A new widget customer of the app: their livechat id and credential. */
export async function newVisitor(appId: number, address?: string): Promise<{ livechatId: string; token: string }> {
  const res = await widgetApi('POST', `/apps/${appId}/visitors`, { address });
  if (res.status !== 201) throw new Error(`visitor not created: ${JSON.stringify(res.body)}`);
  return { livechatId: res.body.response.livechat_id, token: res.body.response.token };
}
