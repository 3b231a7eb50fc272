import type { z } from 'zod';
import { CODES, type ErrorCode } from '../codes';
import { errorEnvelopeSchema } from '../schemas/common';

export { meta, type RouteMeta } from '../bot/common';

type HttpOf<C extends ErrorCode> = (typeof CODES)[C]['http'];

/** The error envelope under each HTTP status that the given codes answer with. */
export type ErrorResponses<C extends ErrorCode> = { [S in HttpOf<C>]: typeof errorEnvelopeSchema };

/**
 * Responses for a route's error codes, keyed by HTTP status, so `responses` and `metadata`
 * come from the same list and cannot drift apart.
 */
export function errorsFor<const C extends readonly ErrorCode[]>(codes: C): ErrorResponses<C[number]> {
  const out: Record<number, z.ZodTypeAny> = {};
  for (const code of codes) out[CODES[code].http] = errorEnvelopeSchema;
  return out as ErrorResponses<C[number]>;
}

/** Any route behind the session: no or expired session, over the session's budget, wrong method, unexpected failure. */
export const READ_CODES = [3001, 2012, 2099, 2007] as const;
/** A route that changes something without a body: also refused when sent cross-site. */
export const ACTION_CODES = [...READ_CODES, 3003] as const;
/** A route that changes something with a JSON body: also the body's problems. */
export const WRITE_CODES = [...ACTION_CODES, 2000, 2006, 2008, 2009] as const;
