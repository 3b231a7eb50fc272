import {
  type AppRoute,
  type AppRouter,
  checkZodSchema,
  isAppRoute,
  isAppRouteNoBody,
  isAppRouteOtherResponse,
  TsRestResponseError,
  validateResponse,
} from '@ts-rest/core';
import { type createNextHandler, RequestValidationError } from '@ts-rest/serverless/next';
import type { NextRequest } from 'next/server';
import { env } from '@/env';
import { ApiError } from '@/platform/errors';
import { recordHttp } from '@/platform/metrics/registry';
import { EventStream } from '@/platform/realtime/sse-stream';
import { newTraceId } from '@/platform/util/ids';
import { type ApiAnswer, type ApiRequest, PlainHeaders } from './api-request';
import { explainBodyIssues } from './explain-issues';
import type { RateLimitState } from './rate-limit';
import { bodyLimits, checkDeclaredLength, collectBody, takesBody, takesStream } from './read-body';
import { type RequestContext, runWithContext } from './request-context';
import { errorAnswer, toApiError } from './respond';
import { matchRoute, type RouteEntry, routeTable, takesBodyStream } from './route-table';

type TsRestRouter<T extends AppRouter, Caller> = Parameters<typeof createNextHandler<T, Caller>>[1];

/**
 * `Caller`: what the guard established, as the routes read it from ts-rest's typed request
 * (`{ bot: BotAuth }` for the bot API: `(args, { request }) => request.bot.accountId`).
 */
export type ApiHandlerOptions<T extends AppRouter, Caller = unknown> = {
  contract: T;
  router: TsRestRouter<T, Caller>;
  /** Runs before the route: establishes identity and limits, or throws an ApiError. */
  guard: (req: ApiRequest, entry: RouteEntry, ctx: RequestContext) => Promise<void>;
  /** Sees every answer once it is built (the bot API's request log). Must not throw or wait. */
  onAnswered?: (request: AnsweredRequest) => void;
};

/** A request with its answer, for `onAnswered`. `failure` is the error the answer reports, if any. */
export type AnsweredRequest = {
  req: ApiRequest;
  entry: RouteEntry | undefined;
  ctx: RequestContext;
  answer: ApiAnswer;
  failure: ApiError | undefined;
  /** Epoch ms when the pipeline took the request, and how long it took to answer. */
  startedAt: number;
  ms: number;
};

/** The pipeline both entries share: a parsed request in, an envelope answer out. */
export type ApiCore = (req: ApiRequest) => Promise<ApiAnswer>;

/**
 * Next's route handler for an API, with the pipeline it adapts as `.core` for the node:http entry
 * and `.owns(path)`: whether a path is one of the contract's (any method).
 */
export type ApiHandler = ((incoming: NextRequest) => Promise<Response>) & { core: ApiCore; owns: (path: string) => boolean };

/**
 * One API (bot or admin) from its contract, router and guard. Unknown paths, wrong methods,
 * oversize, slow or non-JSON bodies, failed guards and failed validation are answered in the
 * envelope; every answer carries `trxid` and, once the guard has counted the request, the
 * Rate-Limit-* headers.
 *
 * This is a small dispatcher of our own rather than ts-rest's serverless handler: it validates
 * with @ts-rest/core's `checkZodSchema` and raises ts-rest's `RequestValidationError`, like
 * ts-rest, but works on `ApiRequest` (no Fetch `Request`, `URL` or body stream per call, no second
 * route walk) so that the node:http entry need not build one. `npm run bench:api` compares it with
 * ts-rest's own fetch handler on the same server (cases f and e): it served the PATCH at about twice
 * the rate for less than half the CPU (BENCHMARKS.md, 24 Nov 2026), so it stays.
 */
export function createApiHandler<T extends AppRouter, Caller = unknown>(opts: ApiHandlerOptions<T, Caller>): ApiHandler {
  const table = routeTable(opts.contract);
  const routes = implementations(opts.contract, opts.router);

  const core: ApiCore = (req) => {
    const ctx: RequestContext = { trxid: newTraceId(), socketAddress: req.clientAddress ?? undefined };
    return runWithContext(ctx, () => serve(req, ctx));
  };

  async function serve(req: ApiRequest, ctx: RequestContext): Promise<ApiAnswer> {
    const started = performance.now();
    const startedAt = Date.now();
    let route = 'unmatched';
    let entry: RouteEntry | undefined;
    let failure: ApiError | undefined;
    let answer: ApiAnswer;
    try {
      const match = matchRoute(table, req.method, req.path);
      if (match.kind === 'found') {
        route = match.entry.path;
        entry = match.entry;
      }
      if (match.kind === 'none') throw new ApiError(2011, { detail: `${req.method} ${req.path}` });
      if (match.kind === 'wrong-method') {
        throw new ApiError(2099, {
          detail: `${req.method} is not supported here; use ${match.allow.join(', ')}`,
          headers: { Allow: match.allow.join(', ') },
        });
      }
      admit(req, match.entry.route);
      await opts.guard(req, match.entry, ctx);
      const impl = routes.get(match.entry.route);
      if (!impl) throw new Error(`no implementation for ${match.entry.method} ${match.entry.path}`);
      answer = await dispatch(req, match.entry.route, impl, ctx);
    } catch (err) {
      failure = toApiError(err);
      answer = errorAnswer(failure);
    }
    const headers = answer.headers;
    headers.set('trxid', ctx.trxid);
    if (ctx.rateLimit) setRateLimitHeaders(headers, ctx.rateLimit);
    if (ctx.setCookies) for (const cookie of ctx.setCookies) headers.append('set-cookie', cookie);
    if (ctx.afterResponse) await ctx.afterResponse(answer);
    const ms = performance.now() - started;
    recordHttp({ route, method: req.method, status: answer.status, seconds: ms / 1000 });
    opts.onAnswered?.({ req, entry, ctx, answer, failure, startedAt, ms });
    return answer;
  }

  const handler = (incoming: NextRequest) => fromNext(incoming).then(core, rejectEarly).then(toResponse);
  const owns = (path: string) => table.some((entry) => entry.pattern.test(path));
  return Object.assign(handler, { core, owns });
}

function setRateLimitHeaders(headers: PlainHeaders, state: RateLimitState) {
  if (!headers.has('Rate-Limit-Limit')) headers.set('Rate-Limit-Limit', String(state.limit));
  if (!headers.has('Rate-Limit-Remaining')) headers.set('Rate-Limit-Remaining', String(state.remaining));
  if (!headers.has('Rate-Limit-Reset')) headers.set('Rate-Limit-Reset', String(state.resetSeconds));
}

// ---------------------------------------------------------------------------------------------
// The Next.js entry: NextRequest -> ApiRequest, ApiAnswer -> Response.

async function fromNext(incoming: NextRequest): Promise<ApiRequest> {
  let body: Uint8Array | null = null;
  let bodyStream: AsyncIterable<Uint8Array> | undefined;
  if (takesStream(incoming.method, incoming.headers.get('content-type')) && incoming.body) {
    bodyStream = webChunks(incoming.body.getReader());
  } else if (takesBody(incoming.method) && incoming.body) {
    const limits = bodyLimits();
    checkDeclaredLength(incoming.headers.get('content-length'), limits);
    const reader = incoming.body.getReader();
    body = await collectBody(webChunks(reader), limits, () => void reader.cancel().catch(() => {}));
  }
  const url = incoming.nextUrl;
  return {
    method: incoming.method,
    url: incoming.url,
    path: url.pathname,
    search: url.search.slice(1),
    headers: incoming.headers,
    body,
    bodyStream,
    // Next does not expose the socket; a trusted proxy's header is the guard's business.
    clientAddress: null,
  };
}

async function* webChunks(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncIterable<Uint8Array> {
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    void dropRest(reader);
  }
}

/**
 * Left early (a refusal, or the route has what it needs, such as a reply stream's `finish` with the
 * client's `[DONE]` and the body's end still to come): the rest is read and dropped until the body
 * ends, as `npm start`'s entry does, so the request completes and its connection serves the next
 * one. Cancelling the body instead stopped Next from reading the connection at all: the bytes the
 * client sent after it stayed unread, and the next request on that keep-alive connection was never
 * answered. How long a client may go on sending is the server's request time limit. A body refused
 * for its size or its slowness is cancelled (collectBody's `stop`), which ends this at once.
 */
async function dropRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  try {
    while (!(await reader.read()).done);
  } catch {
    // the client went away
  }
}

/** A body refused while being read is answered like any other refusal, with its own trxid. */
function rejectEarly(err: unknown): ApiAnswer {
  const answer = errorAnswer(toApiError(err));
  answer.headers.set('trxid', newTraceId());
  return answer;
}

function toResponse(answer: ApiAnswer): Response {
  const headers = new Headers();
  for (const [k, v] of Object.entries(answer.headers.raw)) {
    if (Array.isArray(v)) for (const one of v) headers.append(k, one);
    else if (v !== undefined) headers.set(k, v);
  }
  const body = answer.body instanceof EventStream ? answer.body.toWeb() : answer.body;
  return new Response(body as BodyInit | null, { status: answer.status, headers });
}

// ---------------------------------------------------------------------------------------------
// Dispatch: what ts-rest's route handler does for a plain handler function (the same validation
// through @ts-rest/core's checkZodSchema, the same RequestValidationError, response validation
// off), on ApiRequest.

type RouteArgs = { params: unknown; body: unknown; query: unknown; headers: unknown };
type RouteResult = { status: number; body: unknown };
type PlainHandler = (args: RouteArgs, extra: Record<string, unknown>) => Promise<RouteResult>;
type Implementation = { run: PlainHandler; params: RegExp };

function implementations(contract: AppRouter, router: unknown): Map<AppRoute, Implementation> {
  const out = new Map<AppRoute, Implementation>();
  const walk = (schema: AppRouter | AppRoute, impl: unknown) => {
    if (isAppRoute(schema)) {
      // Only plain functions: per-route middleware (`{handler, middleware}`) is not used here, and
      // the guard covers what it would do.
      if (typeof impl !== 'function') throw new Error(`${schema.method} ${schema.path}: implement it as a plain function`);
      out.set(schema, { run: impl as PlainHandler, params: paramPattern(schema.path) });
      return;
    }
    if (!impl || typeof impl !== 'object') throw new Error('router does not match the contract');
    for (const key of Object.keys(schema)) walk(schema[key] as AppRouter | AppRoute, (impl as Record<string, unknown>)[key]);
  };
  walk(contract, router);
  return out;
}

/** Named groups for a contract path; values stay percent-encoded, as ts-rest leaves them. */
function paramPattern(path: string): RegExp {
  return new RegExp(`^${path.replace(/(\/?\.?):(\w+)/g, '($1(?<$2>[^$1/]+?))').replace(/\./g, '\\.')}/*$`);
}

const decoder = new TextDecoder();

const hasBody = (req: ApiRequest): req is ApiRequest & { body: Uint8Array } =>
  takesBody(req.method) && req.body !== null && req.body.byteLength > 0;

/**
 * Size is checked while reading (in the entry); before the guard, the content type of a non-empty
 * body. An event stream goes only to a route that takes one, and such a route takes nothing else.
 */
function admit(req: ApiRequest, route: AppRoute): void {
  if (takesBodyStream(route)) {
    if (req.bodyStream) return;
    const type = req.headers.get('content-type');
    throw new ApiError(2009, { detail: `this route takes text/event-stream (${type ? `got ${type}` : 'no Content-Type header'})` });
  }
  if (req.bodyStream) throw new ApiError(2009, { detail: 'got text/event-stream, which only POST /chats/{chat_id}/messages/stream takes' });
  if (!hasBody(req)) return;
  const type = req.headers.get('content-type');
  if (!/\bjson\b/i.test(type ?? '')) throw new ApiError(2009, { detail: type ? `got ${type}` : 'no Content-Type header' });
}

function queryOf(search: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null);
  if (!search) return query;
  for (const [k, v] of new URLSearchParams(search)) {
    const seen = query[k];
    query[k] = seen === undefined ? v : ([] as string[]).concat(seen, v);
  }
  return query;
}

/** Headers as ts-rest hands them to validation: every header, lower-case names. */
function headerRecord(headers: Headers): Record<string, string> {
  if (headers instanceof PlainHeaders) {
    const out: Record<string, string> = {};
    for (const key in headers.raw) {
      const v = headers.raw[key];
      if (v !== undefined) out[key] = typeof v === 'string' ? v : v.join(', ');
    }
    return out;
  }
  const out: Record<string, string> = {};
  headers.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

async function dispatch(req: ApiRequest, route: AppRoute, impl: Implementation, ctx: RequestContext): Promise<ApiAnswer> {
  // After the guard, so a caller without credentials learns nothing from the parse. An empty body counts as none.
  const content = req.bodyStream ?? (hasBody(req) ? JSON.parse(decoder.decode(req.body)) : undefined);
  const params = req.path.match(impl.params)?.groups ?? {};
  const p = checkZodSchema(params, route.pathParams, { passThroughExtraKeys: true });
  const h = checkZodSchema(headerRecord(req.headers), route.headers, { passThroughExtraKeys: true });
  const q = checkZodSchema(queryOf(req.search), route.query);
  const b = checkZodSchema(content, 'body' in route ? route.body : null);
  if (!p.success || !h.success || !q.success || !b.success) {
    throw new RequestValidationError(
      p.success ? null : p.error,
      h.success ? null : h.error,
      q.success ? null : q.error,
      b.success ? null : explainBodyIssues(b.error, 'body' in route ? route.body : null, content),
    );
  }

  const headers = new PlainHeaders();
  let result: RouteResult;
  try {
    result = await impl.run(
      { params: p.data, body: b.data, query: q.data, headers: h.data },
      // The caller, as the guard established it, on ts-rest's request (the routers' `Caller`).
      {
        appRoute: route,
        request: Object.assign(req, { bot: ctx.bot, admin: ctx.admin, agent: ctx.agent, widget: ctx.widget }),
        responseHeaders: headers,
      },
    );
  } catch (err) {
    if (!(err instanceof TsRestResponseError)) throw err;
    result = { status: err.statusCode, body: err.body };
  }

  const status = Number(result.status);
  // Throws ResponseValidationError (a logged 500) when the body is not what the contract says.
  if (env().VALIDATE_RESPONSES) validateResponse({ appRoute: route, response: result });
  const responseType = route.responses[status];
  if (isAppRouteNoBody(responseType)) return { status, headers, body: null };
  if (isAppRouteOtherResponse(responseType)) {
    const body = result.body;
    if (body instanceof ReadableStream || body instanceof EventStream) {
      headers.set('content-type', responseType.contentType);
      // Through proxies and Next's compression untouched (no-transform), and never cached.
      headers.set('cache-control', 'no-cache, no-transform');
      headers.set('x-accel-buffering', 'no');
      return { status, headers, body };
    }
    if (body instanceof Blob) {
      headers.set('content-type', body.type || responseType.contentType);
      return { status, headers, body: new Uint8Array(await body.arrayBuffer()) };
    }
    headers.set('content-type', responseType.contentType);
    return { status, headers, body: typeof body === 'string' || body instanceof Uint8Array ? body : String(body) };
  }
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  return { status, headers, body: JSON.stringify(result.body) };
}
