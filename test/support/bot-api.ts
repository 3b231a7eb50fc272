import { NextRequest } from 'next/server';
import { botApiHandler } from '@/app/api/v1/_routers';

export type ApiReply = { status: number; headers: Headers; body: any };

/**
 * Sends a request through the bot API's real handler (the function Next.js calls), in process.
 * `body` is JSON-encoded; `raw` is sent as is.
 */
export async function botApi(
  method: string,
  path: string,
  opts: { token?: string; headers?: Record<string, string>; body?: unknown; raw?: string } = {},
): Promise<ApiReply> {
  const headers = new Headers(opts.headers);
  if (opts.token) headers.set('access_token', opts.token);
  let body: string | undefined = opts.raw;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  if (body !== undefined && !headers.has('content-length')) headers.set('content-length', String(Buffer.byteLength(body)));
  const req = new NextRequest(`http://localhost/api/v1${path}`, { method, headers, body });
  const res = await botApiHandler(req);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: leave the text for the assertion to show
  }
  return { status: res.status, headers: res.headers, body: parsed };
}
