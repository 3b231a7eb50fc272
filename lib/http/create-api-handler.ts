import {
  type AppRoute,
  type AppRouter,
  checkZodSchema,
  isAppRoute,
  isAppRouteNoBody,
  isAppRouteOtherResponse,
  TsRestResponseError,
} from '@ts-rest/core';
import { createNextHandler, RequestValidationError, TsRestResponse } from '@ts-rest/serverless/next';
import { NextRequest } from 'next/server';
import { env } from '@/lib/env';
import { ApiError } from '@/lib/errors';
import { newTraceId } from '@/lib/util/ids';
import type { RateLimitState } from './rate-limit';
import { type RequestContext, runWithContext } from './request-context';
import { errorResponse, toApiError } from './respond';
import { matchRoute, type RouteEntry, routeTable } from './route-table';

type TsRestRouter<T extends AppRouter> = Parameters<typeof createNextHandler<T, unknown>>[1];

export type ApiHandlerOptions<T extends AppRouter> = {
  contract: T;
  router: TsRestRouter<T>;
  /** Runs before the route: establishes identity and limits, or throws an ApiError. */
  guard: (req: NextRequest, entry: RouteEntry, ctx: RequestContext) => Promise<void>;
};

const BODY_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/**
 * The one entry point of an API (bot or admin): unknown paths, wrong methods, oversize or
 * non-JSON bodies and failed guards are answered here in the envelope; the rest goes to ts-rest,
 * whose errors come back through the same mapping. Every answer carries `trxid`.
 */
export function createApiHandler<T extends AppRouter>(opts: ApiHandlerOptions<T>) {
  const table = routeTable(opts.contract);
  const tsRest = createNextHandler(opts.contract, opts.router as never, {
    handlerType: 'app-router',
    responseValidation: false,
    errorHandler: (err) => errorResponse(toApiError(err)),
  });
  const direct = directHandlers(opts.contract, opts.router);

  return function handle(incoming: NextRequest): Promise<Response> {
    const ctx: RequestContext = { trxid: newTraceId() };
    return runWithContext(ctx, () => serve(incoming, ctx));
  };

  async function serve(incoming: NextRequest, ctx: RequestContext): Promise<Response> {
    let response: Response;
    try {
      const match = matchRoute(table, incoming.method, incoming.nextUrl.pathname);
      if (match.kind === 'none') throw new ApiError(2011, { detail: `${incoming.method} ${incoming.nextUrl.pathname}` });
      if (match.kind === 'wrong-method') {
        throw new ApiError(2099, {
          detail: `${incoming.method} is not supported here; use ${match.allow.join(', ')}`,
          headers: { Allow: match.allow.join(', ') },
        });
      }
      const req = await admit(incoming);
      await opts.guard(req, match.entry, ctx);
      const handler = direct.get(match.entry.route);
      response = handler ? await dispatch(req, match.entry, handler) : await tsRest(req);
    } catch (err) {
      response = errorResponse(toApiError(err));
    }
    const headers = response.headers;
    headers.set('trxid', ctx.trxid);
    if (ctx.rateLimit) setRateLimitHeaders(headers, ctx.rateLimit);
    if (ctx.setCookies) for (const cookie of ctx.setCookies) headers.append('set-cookie', cookie);
    if (ctx.afterResponse) await ctx.afterResponse(response);
    return response;
  }
}

function setRateLimitHeaders(headers: Headers, state: RateLimitState) {
  if (!headers.has('Rate-Limit-Limit')) headers.set('Rate-Limit-Limit', String(state.limit));
  if (!headers.has('Rate-Limit-Remaining')) headers.set('Rate-Limit-Remaining', String(state.remaining));
  if (!headers.has('Rate-Limit-Reset')) headers.set('Rate-Limit-Reset', String(state.resetSeconds));
}

// ---------------------------------------------------------------------------------------------
// Dispatch without ts-rest's serverless router. Its fetch handler costs a second Request per call
// (`new TsRestRequest(url, nextRequest)`: URL parse, header copy, AbortSignal, body stream
// re-wrapped), a Proxy per request and a regex walk over every route, all after we have matched the
// route ourselves. This does what its route handler does (same validation through @ts-rest/core's
// checkZodSchema, same RequestValidationError, same response building, response validation off)
// for the plain handler functions of our routers; anything else still goes through ts-rest.

type RouteArgs = { params: unknown; body: unknown; query: unknown; headers: unknown };
type RouteResult = { status: number; body: unknown };
type PlainHandler = (args: RouteArgs, extra: Record<string, unknown>) => Promise<RouteResult>;
type DirectHandler = { run: PlainHandler; params: RegExp };

function directHandlers(contract: AppRouter, router: unknown): Map<AppRoute, DirectHandler> {
  const out = new Map<AppRoute, DirectHandler>();
  const walk = (schema: AppRouter | AppRoute, impl: unknown) => {
    if (isAppRoute(schema)) {
      const run = typeof impl === 'function' ? impl : null;
      // `{handler, middleware}` implementations and RouterBuilders keep ts-rest's own path.
      if (run) out.set(schema, { run: run as PlainHandler, params: paramPattern(schema.path) });
      return;
    }
    if (!impl || typeof impl !== 'object') return;
    for (const key of Object.keys(schema)) walk(schema[key] as AppRouter | AppRoute, (impl as Record<string, unknown>)[key]);
  };
  walk(contract, router);
  return out;
}

/** itty-router's pattern for a path: named groups, values left percent-encoded as it leaves them. */
function paramPattern(path: string): RegExp {
  return new RegExp(`^${path.replace(/(\/?\.?):(\w+)/g, '($1(?<$2>[^$1/]+?))').replace(/\./g, '\\.')}/*$`);
}

async function dispatch(req: NextRequest, entry: RouteEntry, handler: DirectHandler): Promise<Response> {
  const route = entry.route;
  const url = req.nextUrl;
  const params = url.pathname.match(handler.params)?.groups ?? {};
  const query: Record<string, string | string[]> = Object.create(null);
  for (const [k, v] of url.searchParams) query[k] = query[k] ? ([] as string[]).concat(query[k], v) : v;
  let content: unknown;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const type = req.headers.get('content-type');
    if (type?.includes('json')) content = await req.json();
    else if (type?.startsWith('text/')) content = await req.text();
  }
  const headers: Record<string, string> = {};
  req.headers.forEach((value, key) => {
    headers[key] = value;
  });

  const p = checkZodSchema(params, route.pathParams, { passThroughExtraKeys: true });
  const h = checkZodSchema(headers, route.headers, { passThroughExtraKeys: true });
  const q = checkZodSchema(query, route.query);
  const b = checkZodSchema(content, 'body' in route ? route.body : null);
  if (!p.success || !h.success || !q.success || !b.success) {
    throw new RequestValidationError(
      p.success ? null : p.error,
      h.success ? null : h.error,
      q.success ? null : q.error,
      b.success ? null : b.error,
    );
  }

  const responseHeaders = new Headers();
  let result: RouteResult;
  try {
    result = await handler.run(
      { params: p.data, body: b.data, query: q.data, headers: h.data },
      { appRoute: route, request: req, responseHeaders, nextRequest: req },
    );
  } catch (err) {
    if (!(err instanceof TsRestResponseError)) throw err;
    result = { status: err.statusCode, body: err.body };
  }

  const status = Number(result.status);
  const responseType = route.responses[status];
  if (isAppRouteNoBody(responseType)) return new TsRestResponse(null, { status, headers: responseHeaders });
  if (isAppRouteOtherResponse(responseType)) {
    let body = result.body as BodyInit;
    if (body instanceof Blob) {
      responseHeaders.set('content-type', body.type || responseType.contentType);
      body = await body.arrayBuffer();
    } else {
      responseHeaders.set('content-type', responseType.contentType);
    }
    return new TsRestResponse(body as never, { status, headers: responseHeaders });
  }
  return TsRestResponse.fromJson(result.body, { status, headers: responseHeaders });
}

/**
 * Size and content-type checks before anything parses the body. A body without Content-Length
 * (chunked, or a bodiless DELETE from some clients) is read up to the limit first; an empty one
 * counts as no body.
 */
async function admit(req: NextRequest): Promise<NextRequest> {
  if (!BODY_METHODS.has(req.method)) return req;
  const max = env().MAX_BODY_BYTES;
  const declared = req.headers.get('content-length');
  if (declared !== null && Number(declared) > max) {
    throw new ApiError(2008, { detail: `at most ${max} bytes are accepted` });
  }
  if (declared !== null) {
    if (Number(declared) > 0) requireJson(req);
    return req;
  }
  if (req.body === null) return req;
  const bytes = await readLimited(req.body, max);
  if (bytes.length === 0) return new NextRequest(req.url, { method: req.method, headers: req.headers });
  requireJson(req);
  return new NextRequest(req.url, { method: req.method, headers: req.headers, body: new Uint8Array(bytes) });
}

function requireJson(req: NextRequest) {
  const type = req.headers.get('content-type');
  if (!/\bjson\b/i.test(type ?? '')) throw new ApiError(2009, { detail: type ? `got ${type}` : 'no Content-Type header' });
}

async function readLimited(body: ReadableStream<Uint8Array>, max: number): Promise<Buffer> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new ApiError(2008, { detail: `at most ${max} bytes are accepted` });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
