import { z } from 'zod';
import { text } from '../common';

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

/** The codes every route behind the access token can answer with (see `errors` in contracts/errors.ts). */
export const AUTH_CODES = [2002, 2003, 2004, 2012, 2099, 2007] as const;
/** Routes that read a body: also an invalid or malformed body, its size (2008) and its type (2009). */
export const BODY_CODES = [2000, 2006, 2008, 2009] as const;
