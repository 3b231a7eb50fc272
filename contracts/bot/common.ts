import { z } from 'zod';
import type { Code } from '../codes';
import { errorEnvelopeSchema, text } from '../schemas/common';

export const authHeaders = z.object({
  access_token: text().describe('Token from POST /authorize'),
});

export const idempotentHeaders = authHeaders.extend({
  'idempotency-key': text()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'Retrying a POST with the same key returns the first answer instead of acting twice (kept 24 h); that replayed answer carries the header `Idempotent-Replayed: true`',
    ),
});

/** Error responses every authenticated route can give, by HTTP status. */
export const authErrors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  405: errorEnvelopeSchema,
  429: errorEnvelopeSchema,
  500: errorEnvelopeSchema,
} as const;

/** Routes that read a body can also refuse its size (2008) and type (2009). */
export const bodyErrors = {
  413: errorEnvelopeSchema,
  415: errorEnvelopeSchema,
} as const;

/** The codes each route can answer with; the OpenAPI generator prints them per HTTP status. */
export const AUTH_CODES: Code[] = [2002, 2003, 2004, 2012, 2099, 2007];
export const BODY_CODES: Code[] = [2000, 2006, 2008, 2009];

export type RouteMeta = { codes: Code[] };
export const meta = (...codes: Code[]): RouteMeta => ({ codes });
