import type { z } from 'zod';
import { cursorExpiredEnvelopeSchema, cursorNotIssuedEnvelopeSchema } from './bot/schemas/pulled-event';
import { CODES, type ErrorCode } from './codes';
import { errorEnvelopeSchema } from './common';

type HttpOf<C extends ErrorCode> = (typeof CODES)[C]['http'];
/**
 * The envelope under each HTTP status that the given codes answer with: the plain error envelope,
 * but a 410 that is 2063 (cursor expired) also carries `oldest_cursor`, and a 409 that is 2064
 * (cursor not issued) `acknowledged_cursor`.
 */
export type ErrorResponses<C extends ErrorCode> = {
  [S in HttpOf<C>]: S extends 410
    ? 2063 extends C
      ? typeof cursorExpiredEnvelopeSchema
      : typeof errorEnvelopeSchema
    : S extends 409
      ? 2064 extends C
        ? typeof cursorNotIssuedEnvelopeSchema
        : typeof errorEnvelopeSchema
      : typeof errorEnvelopeSchema;
};

const ENVELOPES: Partial<Record<ErrorCode, z.ZodTypeAny>> = {
  2063: cursorExpiredEnvelopeSchema,
  2064: cursorNotIssuedEnvelopeSchema,
};
const codesBySchema = new WeakMap<z.ZodTypeAny, ErrorCode[]>();

/**
 * A route's error responses from the one list of codes it answers with: the envelope under each
 * HTTP status those codes have in contracts/codes.ts (what ts-rest validates and types), each a
 * copy of its own that remembers its codes for the OpenAPI documents (`errorCodesOf`). So
 * `responses` and the documented codes cannot drift apart.
 */
export function errors<const C extends readonly ErrorCode[]>(...codes: C): ErrorResponses<C[number]> {
  const out: Record<number, z.ZodTypeAny> = {};
  for (const code of codes) {
    const http = CODES[code].http;
    out[http] ??= copyOf(ENVELOPES[code] ?? errorEnvelopeSchema);
    codesBySchema.set(out[http], [...(codesBySchema.get(out[http]) ?? []), code]);
  }
  return out as ErrorResponses<C[number]>;
}

/** The codes a response schema made by `errors` stands for; none for any other schema. */
export const errorCodesOf = (schema: unknown): ErrorCode[] => codesBySchema.get(schema as z.ZodTypeAny) ?? [];

/** The same schema as a new instance (with its OpenAPI name and example), so each can carry its own codes. */
function copyOf(schema: z.ZodTypeAny): z.ZodTypeAny {
  const copy = schema.describe(schema.description ?? '');
  return Object.assign(copy, { metaOpenApi: (schema as { metaOpenApi?: unknown }).metaOpenApi });
}
