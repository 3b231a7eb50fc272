import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { ApiError } from '@/lib/errors';
import { API_CSP, COMMON_SECURITY_HEADERS, HSTS } from '@/lib/security/headers';
import { newTraceId } from '@/lib/util/ids';
import { logger } from '@/lib/util/logger';
import { type ApiAnswer, type ApiRequest, PlainHeaders } from './api-request';
import type { ApiCore } from './create-api-handler';
import { bodyLimits, checkDeclaredLength, collectBody, takesBody } from './read-body';
import { errorAnswer, toApiError } from './respond';

/**
 * The node:http entry of an API (used by `npm start`): IncomingMessage -> ApiRequest, the shared
 * pipeline, ApiAnswer -> ServerResponse. No Fetch Request, URL object or stream wrapper per call.
 */
export async function serveNode(core: ApiCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let answer: ApiAnswer;
  try {
    answer = await core(await fromNode(req));
  } catch (err) {
    answer = errorAnswer(toApiError(err));
    answer.headers.set('trxid', newTraceId());
    // The rest of a refused body is not read: close the connection once answered.
    answer.headers.set('connection', 'close');
  }
  // Under Next's own server next.config.ts adds these; this entry answers without Next.
  for (const [name, value] of SECURITY_HEADERS) if (!answer.headers.has(name)) answer.headers.set(name, value);
  if (isTls(req) || req.headers['x-forwarded-proto'] === 'https') answer.headers.set('Strict-Transport-Security', HSTS);
  writeAnswer(res, answer);
}

const SECURITY_HEADERS = [...Object.entries(COMMON_SECURITY_HEADERS), ['Content-Security-Policy', API_CSP]] as const;

async function fromNode(req: IncomingMessage): Promise<ApiRequest> {
  const method = req.method ?? 'GET';
  const target = req.url ?? '/';
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  if (!isWellFormedPath(path)) throw new ApiError(2016, { detail: 'the path is not valid percent-encoding' });
  const headers = new PlainHeaders(req.headers);
  let body: Uint8Array | null = null;
  if (takesBody(method)) {
    const limits = bodyLimits();
    checkDeclaredLength(headers.get('content-length'), limits);
    body = await collectBody(req, limits, () => req.pause());
  }
  return {
    method,
    url: `${isTls(req) ? 'https' : 'http'}://${headers.get('host') ?? 'localhost'}${target}`,
    path,
    search: q === -1 ? '' : target.slice(q + 1),
    headers,
    body,
    clientAddress: req.socket.remoteAddress ?? null,
  };
}

const isTls = (req: IncomingMessage) => (req.socket as Socket & { encrypted?: boolean }).encrypted === true;

/** A path every segment of which decodes: `%ZZ` or a lone `%` is refused before routing. */
function isWellFormedPath(path: string): boolean {
  if (!path.startsWith('/')) return false;
  if (!path.includes('%')) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

export function writeAnswer(res: ServerResponse, answer: ApiAnswer): void {
  const raw = answer.headers.raw;
  const body = answer.body;
  if (body instanceof ReadableStream) {
    res.writeHead(answer.status, raw);
    res.flushHeaders();
    // The client leaving destroys the node stream, which cancels the web one (its source stops).
    const stream = Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
    stream.on('error', () => res.destroy());
    res.on('close', () => stream.destroy());
    stream.pipe(res);
    return;
  }
  if (answer.body !== null && raw['content-length'] === undefined) {
    raw['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : (body as Uint8Array).byteLength);
  }
  res.writeHead(answer.status, raw);
  res.end(body ?? undefined);
}

/**
 * What node:http cannot parse (an unknown method such as `FOO`, a malformed request line or
 * header) never reaches a handler; this answers it in the envelope on the socket, then closes.
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const code = err.code === 'HPE_INVALID_METHOD' ? 2099 : 2016;
  const answer = errorAnswer(
    new ApiError(code, { detail: err.code === 'HPE_INVALID_METHOD' ? 'unknown method' : 'the request could not be parsed' }),
  );
  const body = answer.body as string;
  socket.end(
    `HTTP/1.1 ${answer.status} ${answer.status === 405 ? 'Method Not Allowed' : 'Bad Request'}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\ntrxid: ${newTraceId()}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** The pipelines `npm start`'s node:http server takes from the Next build (see instrumentation.ts). */
export type NodeEntries = {
  /** Serves the request and returns true, or returns false to leave it to Next. */
  serve: (req: IncomingMessage, res: ServerResponse) => boolean;
  clientError: (err: Error & { code?: string }, socket: Socket) => void;
};

const NEXT_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Puts the node:http entry on globalThis for scripts/start.mjs, which runs the Next build in the
 * same process. `served` takes every path of its API's contract; `guarded` prefixes stay with
 * Next except for what Next would not answer in the envelope: a malformed path or an unknown
 * method.
 */
export function exposeNodeEntries(apis: { prefix: string; core: ApiCore; owns: (path: string) => boolean; served: boolean }[]) {
  const serve = (req: IncomingMessage, res: ServerResponse): boolean => {
    const target = req.url ?? '/';
    for (const api of apis) {
      if (!target.startsWith(api.prefix)) continue;
      const q = target.indexOf('?');
      const path = q === -1 ? target : target.slice(0, q);
      const odd = !NEXT_METHODS.has(req.method ?? '') || !isWellFormedPath(path);
      if (!odd && !(api.served && api.owns(path))) return false;
      serveNode(api.core, req, res).catch((err) => {
        logger.error('could not write an answer', { err });
        res.destroy();
      });
      return true;
    }
    return false;
  };
  (globalThis as { __vaNodeEntries?: NodeEntries }).__vaNodeEntries = { serve, clientError: answerClientError };
}
