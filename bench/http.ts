import type { IncomingMessage } from 'node:http';
import http from 'node:http';
import { performance } from 'node:perf_hooks';

/** Wall-clock milliseconds with sub-millisecond resolution, comparable across processes. */
export const nowMs = () => performance.timeOrigin + performance.now();

export type JsonReply = { status: number; body: any; raw: string; at: number; cookie?: string };

/**
 * One JSON call over `agent` (keep-alive): the status, the parsed body (the raw text when it is not
 * JSON), the moment the whole answer was read, and the session cookie it set. Network errors reject.
 */
export function jsonCall(
  agent: http.Agent,
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<JsonReply> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: {
          accept: 'application/json',
          ...(data && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) }),
          ...headers,
        },
      },
      (res) => {
        onBody(res, (raw) => {
          const at = nowMs();
          let parsed: unknown = raw;
          try {
            parsed = JSON.parse(raw);
          } catch {}
          const cookie = res.headers['set-cookie']?.map((c) => c.split(';')[0]).join('; ');
          resolve({ status: res.statusCode ?? 0, body: parsed, raw, at, cookie });
        });
      },
    );
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
}

/** Calls `done` with the whole body of a request or answer, read as UTF-8. */
export function onBody(stream: IncomingMessage, done: (raw: string) => void): void {
  let raw = '';
  stream.setEncoding('utf8');
  stream.on('data', (c: string) => {
    raw += c;
  });
  stream.on('end', () => done(raw));
}
