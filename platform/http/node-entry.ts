import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { isTrustedPeer } from '@/platform/auth/client-address';
import { ApiError } from '@/platform/errors';
import { EventStream } from '@/platform/realtime/sse-stream';
import { API_CSP, COMMON_SECURITY_HEADERS, HSTS } from '@/platform/security/headers';
import { newTraceId } from '@/platform/util/ids';
import { logger } from '@/platform/util/logger';
import { processStore } from '@/platform/util/process-store';
import { type ApiAnswer, type ApiRequest, PlainHeaders } from './api-request';
import type { ApiCore } from './create-api-handler';
import { hasDotSegment } from './dot-segments';
import { bodyLimits, checkDeclaredLength, collectBody, takesBody, takesStream } from './read-body';
import { errorAnswer, toApiError } from './respond';

/**
 * The node:http entry of an API (used by `npm start`): IncomingMessage -> ApiRequest, the shared
 * pipeline, ApiAnswer -> ServerResponse. No Fetch Request, URL object or stream wrapper per call.
 */
export async function serveNode(core: ApiCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // Read before the body: a socket destroyed meanwhile is gone from `req.socket`.
  const tls = isTls(req);
  let answer: ApiAnswer;
  try {
    answer = await core(await fromNode(req, tls));
  } catch (err) {
    answer = errorAnswer(toApiError(err));
    answer.headers.set('trxid', newTraceId());
    // The rest of a refused body is not used: close the connection once answered.
    answer.headers.set('connection', 'close');
    discardRest(req);
  }
  answerNode(req, res, answer, tls);
}

/** Writes an answer of this entry with the security headers every answer carries (Next adds them to its own). */
function answerNode(req: IncomingMessage, res: ServerResponse, answer: ApiAnswer, tls: boolean): void {
  for (const [name, value] of SECURITY_HEADERS) if (!answer.headers.has(name)) answer.headers.set(name, value);
  if (tls || req.headers['x-forwarded-proto'] === 'https') answer.headers.set('Strict-Transport-Security', HSTS);
  // The client went away (or the server's own time limit answered it): nothing to write to.
  if (res.writableEnded || res.destroyed) return;
  writeAnswer(res, answer);
}

const SECURITY_HEADERS = [...Object.entries(COMMON_SECURITY_HEADERS), ['Content-Security-Policy', API_CSP]] as const;
/** The widget's chat page sets its own frame-ancestors (app/chat/[appId]/route.ts). */
const FRAMABLE_HEADERS = Object.entries(COMMON_SECURITY_HEADERS).filter(([name]) => name !== 'X-Frame-Options');

/**
 * A request Next serves (pages, the admin, agent and widget APIs) gets BODY_TIMEOUT_MS for its body,
 * as the pipeline's own routes do (collectBody): the server's request time limit is longer, for the
 * bot API's reply sent as one event stream (REPLY_STREAM_MAX_SECONDS), and would otherwise let a
 * slow body hold a connection for that long. Past the limit with the body still arriving: 2015/408
 * if nothing was answered yet, and the connection ends either way.
 */
function limitNextBody(req: IncomingMessage, res: ServerResponse, bodyTimeoutMs: number, tls: boolean): void {
  const length = req.headers['content-length'];
  if (!req.headers['transfer-encoding'] && (length === undefined || length === '0')) return;
  const timer = setTimeout(() => {
    if (req.complete || res.writableEnded || res.destroyed) return;
    // Next still holds the answer: whatever it tries to write after this is dropped, not thrown.
    res.on('error', () => {});
    req.on('error', () => {});
    if (!res.headersSent) {
      const answer = errorAnswer(new ApiError(2015, { detail: `the request body did not arrive within ${bodyTimeoutMs} ms` }));
      answer.headers.set('trxid', newTraceId());
      answer.headers.set('connection', 'close');
      answerNode(req, res, answer, tls);
      res.once('finish', () => req.socket.destroy());
    } else {
      req.socket.destroy();
    }
  }, bodyTimeoutMs);
  const clear = () => clearTimeout(timer);
  req.once('end', clear);
  res.once('close', clear);
}

/**
 * Reads what the client still sends of a refused body and drops it, so that the answer reaches it
 * and the connection ends cleanly: closing a socket with unread data resets it, and the client
 * saw a reset instead of the 413. The server's request time limit bounds how long this lasts.
 */
function discardRest(req: IncomingMessage): void {
  if (req.complete || req.destroyed) return;
  req.removeAllListeners('data');
  req.on('data', () => {});
  req.on('error', () => {});
  req.resume();
}

/**
 * The body of a node:http request as it arrives. Reads with 'data' events: leaving a `for await`
 * loop early destroys the request and its socket, so a refusal could not be answered.
 */
function nodeChunks(req: IncomingMessage): AsyncIterable<Uint8Array> {
  let onData: (chunk: Buffer) => void = () => {};
  return {
    [Symbol.asyncIterator]: () => {
      const queue: Buffer[] = [];
      let ended = false;
      let failed: Error | undefined;
      let wake: (() => void) | undefined;
      onData = (chunk) => {
        queue.push(chunk);
        wake?.();
      };
      req.on('data', (chunk: Buffer) => onData(chunk));
      req.once('end', () => {
        ended = true;
        wake?.();
      });
      req.once('error', (err) => {
        failed = err;
        wake?.();
      });
      // A client gone before the end (a stream read as it arrives notices it here).
      req.once('close', () => {
        if (ended) return;
        failed ??= new Error('the client closed the connection before the end of the body');
        wake?.();
      });
      return {
        next: async (): Promise<IteratorResult<Uint8Array>> => {
          for (;;) {
            const chunk = queue.shift();
            if (chunk) return { value: chunk, done: false };
            if (failed) throw failed;
            if (ended) return { value: undefined, done: true };
            await new Promise<void>((r) => {
              wake = r;
            });
            wake = undefined;
          }
        },
        // Leaving the loop early (a refusal, or a reply stream's `finish`) drops what comes after,
        // without destroying the request: it is still read to its end, so its connection serves
        // the next request.
        return: async () => {
          onData = () => {};
          queue.length = 0;
          return { value: undefined, done: true };
        },
      };
    },
  };
}

/** The whole body, refused past the size limit (2008) or when it has not all arrived within the time limit (2015). */
function readNodeBody(req: IncomingMessage, limits: ReturnType<typeof bodyLimits>): Promise<Uint8Array | null> {
  return collectBody(nodeChunks(req), limits, () => {});
}

async function fromNode(req: IncomingMessage, tls: boolean): Promise<ApiRequest> {
  const method = req.method ?? 'GET';
  const target = req.url ?? '/';
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  if (!isWellFormedPath(path)) throw new ApiError(2016, { detail: 'the path is not valid percent-encoding' });
  const headers = new PlainHeaders(req.headers);
  let body: Uint8Array | null = null;
  let bodyStream: AsyncIterable<Uint8Array> | undefined;
  if (takesStream(method, headers.get('content-type'))) bodyStream = nodeChunks(req);
  else if (takesBody(method)) {
    const limits = bodyLimits();
    checkDeclaredLength(headers.get('content-length'), limits);
    body = await readNodeBody(req, limits);
  }
  return {
    method,
    url: `${tls ? 'https' : 'http'}://${headers.get('host') ?? 'localhost'}${target}`,
    path,
    search: q === -1 ? '' : target.slice(q + 1),
    headers,
    body,
    bodyStream,
    clientAddress: req.socket?.remoteAddress ?? null,
  };
}

/**
 * Forwarded headers from a peer TRUSTED_PROXIES does not name are dropped before anything reads
 * them, Next's pages included: X-Forwarded-For becomes the socket's address, and -Host, -Proto and
 * -Port go, so the request's own Host and scheme stand.
 */
function dropUntrustedForwarding(req: IncomingMessage): void {
  const peer = req.socket?.remoteAddress;
  if (isTrustedPeer(peer)) return;
  for (const name of ['x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded']) delete req.headers[name];
  if (peer) req.headers['x-forwarded-for'] = peer;
  else delete req.headers['x-forwarded-for'];
}

const isTls = (req: IncomingMessage) => (req.socket as (Socket & { encrypted?: boolean }) | null)?.encrypted === true;

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

function writeAnswer(res: ServerResponse, answer: ApiAnswer): void {
  const raw = answer.headers.raw;
  const body = answer.body;
  if (body instanceof EventStream) {
    res.writeHead(answer.status, raw);
    res.flushHeaders();
    body.toNode(res);
    return;
  }
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
 * What node:http refuses before a handler runs (an unknown method such as `FOO`, a malformed request
 * line or header, headers or a request not received within the server's time limits) is answered
 * here in the envelope on the socket, with the security headers of every answer, then closed.
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  const inProgress = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (!socket.writable || inProgress?.headersSent) {
    socket.destroy();
    return;
  }
  const error =
    err.code === 'HPE_INVALID_METHOD'
      ? new ApiError(2099, { detail: 'unknown method' })
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'HPE_HEADER_OVERFLOW'
        ? err.code === 'HPE_HEADER_OVERFLOW'
          ? new ApiError(2016, { detail: 'the headers are too large' })
          : new ApiError(2015, { detail: 'the request did not arrive in full in time' })
        : new ApiError(2016, { detail: 'the request could not be parsed' });
  const answer = errorAnswer(error);
  const body = answer.body as string;
  const headers = [
    ['content-type', 'application/json'],
    ['content-length', String(Buffer.byteLength(body))],
    ['trxid', newTraceId()],
    ['connection', 'close'],
    ...SECURITY_HEADERS,
  ];
  socket.end(
    `HTTP/1.1 ${answer.status} ${STATUS_TEXT[answer.status] ?? 'Bad Request'}\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${body}`,
  );
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 405: 'Method Not Allowed', 408: 'Request Timeout' };

/** The pipelines `npm start`'s node:http server takes from the Next build (see instrumentation.ts). */
export type NodeEntries = {
  /** Serves the request and returns true, or returns false to leave it to Next. */
  serve: (req: IncomingMessage, res: ServerResponse) => boolean;
  clientError: (err: Error & { code?: string }, socket: Socket) => void;
  /** Options for node:http's createServer: the same header and request time limits on every path. */
  serverOptions: { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number };
};

const NEXT_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const ALLOWED = [...NEXT_METHODS].join(', ');

/**
 * Puts the node:http entry on globalThis for scripts/start.mjs, which runs the Next build in the
 * same process. On every path, before Next sees it: a method Next does not serve (TRACE, FOO) is
 * 2099/405 and a path with a dot segment (`..` or `.`, percent-encoded once or more) or one that is
 * not valid percent-encoding is 2016/400, in the envelope; whatever Next answers carries the security headers (its redirects too).
 * `served` takes every path of its API's contract; `guarded` prefixes stay with Next except for
 * what Next would not answer in the envelope: a malformed path or an unknown method.
 */
export function exposeNodeEntries(
  apis: { prefix: string; core: ApiCore; owns: (path: string) => boolean; served: boolean }[],
  limits: { headersTimeoutMs: number; bodyTimeoutMs: number; streamMs?: number },
) {
  const serve = (req: IncomingMessage, res: ServerResponse): boolean => {
    dropUntrustedForwarding(req);
    const target = req.url ?? '/';
    const q = target.indexOf('?');
    const path = q === -1 ? target : target.slice(0, q);
    const api = apis.find((a) => target.startsWith(a.prefix));
    const oddMethod = !NEXT_METHODS.has(req.method ?? '');
    // A page's path that does not decode (`%E0%A4%A`, `%ZZ`) made Next answer 500 on every page with
    // a parameter (a chat, a guide page, the widget's page); an API's own pipeline refuses it too.
    const malformed = !api && !isWellFormedPath(path);
    if (hasDotSegment(path) || (!api && oddMethod) || malformed) {
      const answer = errorAnswer(
        oddMethod
          ? new ApiError(2099, { detail: `${req.method} is not supported; use ${ALLOWED}`, headers: { Allow: ALLOWED } })
          : malformed
            ? new ApiError(2016, { detail: 'the path is not valid percent-encoding' })
            : new ApiError(2016, { detail: 'the path holds a dot segment (. or .., encoded or not)' }),
      );
      answer.headers.set('trxid', newTraceId());
      answer.headers.set('connection', 'close');
      discardRest(req);
      answerNode(req, res, answer, isTls(req));
      return true;
    }
    if (!api) {
      // Next's own answers (pages, redirects, assets, errors) carry them too; proxy.ts replaces
      // the policy of a page (its nonce). A route handler's own headers do not replace these, so
      // the widget's chat page, framed by its asset's origins, gets neither policy nor X-Frame-Options here.
      for (const [name, value] of path.startsWith('/chat/') ? FRAMABLE_HEADERS : SECURITY_HEADERS) res.setHeader(name, value);
      if (isTls(req) || req.headers['x-forwarded-proto'] === 'https') res.setHeader('Strict-Transport-Security', HSTS);
      limitNextBody(req, res, limits.bodyTimeoutMs, isTls(req));
      return false;
    }
    const odd = oddMethod || !isWellFormedPath(path);
    if (!odd && !(api.served && api.owns(path))) {
      for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
      limitNextBody(req, res, limits.bodyTimeoutMs, isTls(req));
      return false;
    }
    serveNode(api.core, req, res).catch((err) => {
      logger.error('could not write an answer', { err });
      res.destroy();
    });
    return true;
  };
  const entries: NodeEntries = {
    serve,
    clientError: answerClientError,
    serverOptions: {
      headersTimeout: limits.headersTimeoutMs,
      // A reply sent as one event stream lasts up to REPLY_STREAM_MAX_SECONDS (the route cuts it then);
      // every other body is still refused after BODY_TIMEOUT_MS: by the pipeline (collectBody) on its
      // routes, by limitNextBody on what Next serves.
      requestTimeout: limits.headersTimeoutMs + Math.max(limits.bodyTimeoutMs, limits.streamMs ?? 0),
      // How often node:http checks those limits (30 s by default, which let a slow client stay up to 30 s longer).
      connectionsCheckingInterval: 1_000,
    },
  };
  processStore<{ __vaNodeEntries?: NodeEntries }>().__vaNodeEntries = entries;
  // scripts/start.mjs waits for this (it runs Next in the same process and serves through it).
  (process as NodeJS.EventEmitter).emit(NODE_ENTRIES_READY, entries);
}

/** The process event that hands the entries to scripts/start.mjs, once the database is open. */
const NODE_ENTRIES_READY = 'va-node-entries-ready';
