import type { AppRouter } from '@ts-rest/core';
import { createNextHandler } from '@ts-rest/serverless/next';
import { NextRequest } from 'next/server';
import { env } from '@/lib/env';
import { ApiError } from '@/lib/errors';
import { newTraceId } from '@/lib/util/ids';
import { rateLimitHeaders } from './rate-limit';
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

  return function handle(incoming: NextRequest): Promise<Response> {
    const ctx: RequestContext = { trxid: newTraceId() };
    return runWithContext(ctx, () => serve(incoming, ctx));
  };

  async function serve(incoming: NextRequest, ctx: RequestContext): Promise<Response> {
    let response: Response;
    try {
      const req = await admit(incoming, table);
      const match = matchRoute(table, req.method, req.nextUrl.pathname);
      if (match.kind === 'none') throw new ApiError(2011, { detail: `${req.method} ${req.nextUrl.pathname}` });
      if (match.kind === 'wrong-method') {
        throw new ApiError(2099, {
          detail: `${req.method} is not supported here; use ${match.allow.join(', ')}`,
          headers: { Allow: match.allow.join(', ') },
        });
      }
      await opts.guard(req, match.entry, ctx);
      response = await tsRest(req);
    } catch (err) {
      response = errorResponse(toApiError(err));
    }
    response.headers.set('trxid', ctx.trxid);
    if (ctx.rateLimit) {
      for (const [k, v] of Object.entries(rateLimitHeaders(ctx.rateLimit))) {
        if (!response.headers.has(k)) response.headers.set(k, v);
      }
    }
    for (const cookie of ctx.setCookies ?? []) response.headers.append('set-cookie', cookie);
    return response;
  }
}

/** Size and content-type checks before anything parses the body. */
async function admit(req: NextRequest, table: RouteEntry[]): Promise<NextRequest> {
  if (!BODY_METHODS.has(req.method) || !table.length) return req;
  const max = env().MAX_BODY_BYTES;
  const declared = req.headers.get('content-length');
  if (declared !== null && Number(declared) > max) {
    throw new ApiError(2008, { detail: `at most ${max} bytes are accepted` });
  }
  const type = req.headers.get('content-type');
  const hasBody = declared === null ? req.body !== null : Number(declared) > 0;
  if (hasBody && !/\bjson\b/i.test(type ?? '')) {
    throw new ApiError(2009, { detail: type ? `got ${type}` : 'no Content-Type header' });
  }
  if (declared !== null || req.body === null) return req;
  // No Content-Length (chunked): read up to the limit, then hand on a request with the bytes.
  const bytes = await readLimited(req.body, max);
  return new NextRequest(req.url, { method: req.method, headers: req.headers, body: new Uint8Array(bytes) });
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
