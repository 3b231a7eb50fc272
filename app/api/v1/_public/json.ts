import { ApiError } from '@/platform/errors';
import { newTraceId } from '@/platform/util/ids';

/**
 * Answers of the public, read-only documents under /api/v1 (the OpenAPI document and the event
 * JSON Schemas): no token, cacheable, readable from any origin so tools elsewhere can load them.
 */
export function publicJson(body: string, status = 200, extra: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: {
      ...extra,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'public, max-age=300',
      'access-control-allow-origin': '*',
      trxid: newTraceId(),
    },
  });
}

/** The bot API's answer to a method a path does not support: 2099 in the envelope, with Allow. */
function methodNotAllowed(req: Request): Response {
  const err = new ApiError(2099, { detail: `${req.method} is not supported here; use GET` });
  return new Response(JSON.stringify(err.toEnvelope()), {
    status: err.httpStatus,
    headers: { 'content-type': 'application/json', allow: 'GET, HEAD', trxid: newTraceId() },
  });
}

export { methodNotAllowed as DELETE, methodNotAllowed as PATCH, methodNotAllowed as POST, methodNotAllowed as PUT };
