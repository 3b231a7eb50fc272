import { z } from 'zod';
import { CODES, type Code } from '../codes';

export const fieldErrorSchema = z.object({
  field: z.string().describe('Dotted path of the offending input, e.g. `customer.destination_id` or `header.team_id`'),
  message: z.string(),
});

/** Every error answer: the spec's envelope; `response` lists field errors when input was refused. */
export const errorEnvelopeSchema = z
  .object({
    status_code: z.number().int().describe('Service status code; see the code catalogue'),
    description: z.string(),
    response: z.object({ errors: z.array(fieldErrorSchema) }).nullable(),
  })
  .describe('Error envelope');

export function envelope<T extends z.ZodTypeAny>(code: Code, response: T) {
  return z.object({
    status_code: z.literal(code as number).describe(CODES[code].description),
    description: z.string(),
    response,
  });
}

/**
 * An integer ID read from a header or query string: decimal digits only. Anything else (`0x3`,
 * `3e0`, ` 3`) stays a string and is refused, where a plain coercion would read `0x3` as 3; IDs
 * beyond PostgreSQL's `integer` are refused too (no such row can exist).
 */
export const decimalInt = (schema: z.ZodNumber) =>
  z.preprocess((v) => (typeof v === 'string' && /^[0-9]{1,16}$/.test(v) ? Number(v) : v), schema.max(2_147_483_647));

export const isoDateTime = z.string().datetime({ offset: true });
export const pageSizeQuery = z.coerce.number().int().min(1).max(100).optional().describe('Items per page, 1 to 100 (default 25)');
export const cursorQuery = z.string().max(200).optional().describe('Opaque cursor: the `next_cursor` of the previous page');

export const otherDetailsSchema = z
  .record(z.string().max(100), z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]))
  .describe('Key-value pairs with additional information');
