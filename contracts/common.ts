import { z } from 'zod';
import { CODES, type Code } from './codes';

/** Largest value of a PostgreSQL `integer` column; every integer input that lands in one is bounded by it. */
export const INT4_MAX = 2_147_483_647;

/**
 * Text PostgreSQL can store: no NUL character and no unpaired UTF-16 surrogate (proper pairs, such
 * as emoji, are fine). Written to mean the same with and without the regular expression `u` flag,
 * so JSON Schema validators read the published `pattern` as the service does.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing NUL is the point of this pattern.
export const SAFE_TEXT_PATTERN = /^(?:[^\u0000\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;
export const SAFE_TEXT_MESSAGE = 'must not contain NUL characters or unpaired surrogates';

/** A positive decimal integer up to INT4_MAX, as text (for IDs that may be sent as strings). */
export const INT4_DECIMAL_PATTERN =
  /^(?:[1-9][0-9]{0,8}|1[0-9]{9}|20[0-9]{8}|21[0-3][0-9]{7}|214[0-6][0-9]{6}|2147[0-3][0-9]{5}|21474[0-7][0-9]{4}|214748[0-2][0-9]{3}|2147483[0-5][0-9]{2}|21474836[0-3][0-9]|214748364[0-7])$/;

/** One character of safe text (a code point that is not NUL and not an unpaired surrogate), as a pattern fragment. */
const SAFE_CHAR = SAFE_TEXT_PATTERN.source.slice('^(?:'.length, -')*$'.length);

/**
 * A pattern for text that must also match `fragment` (written for the whole value, without `^`
 * and `$`): both rules in one pattern, because a JSON Schema carries one `pattern` per string.
 */
export const safePattern = (fragment: string, flags = '') => new RegExp(`^(?=(?:${SAFE_CHAR})*$)(?:${fragment})$`, flags);

/** What OpenAPI 3.0 cannot say about map keys (it has no `propertyNames`), for the descriptions of maps. */
export const KEY_RULE = 'keys may not contain NUL characters or unpaired surrogates (2000)';

/** Every string the contract reads (bodies, map keys and values, query, headers, path). */
export const text = () => z.string().regex(SAFE_TEXT_PATTERN, SAFE_TEXT_MESSAGE);

/**
 * A name: safe text with at least one non-space character. The service trims names before their
 * length is checked; the pattern says the same to a client, so `"   "` is refused by both.
 */
export const NAME_PATTERN = new RegExp(`^(?=[\\s\\S]*\\S)${SAFE_TEXT_PATTERN.source.slice(1)}`);
export const nameText = () =>
  z
    .string()
    .regex(NAME_PATTERN, `must contain a non-space character and ${SAFE_TEXT_MESSAGE}`)
    .describe('Surrounding spaces are removed; what remains must be 1 character or more');

/**
 * Adds OpenAPI keywords that zod cannot carry (minProperties, maxProperties, not) to a schema's
 * entry in the document, through the `metaOpenApi` property that the converter behind
 * @ts-rest/open-api merges in (what its `extendApi` sets). Apply it last: zod methods return new
 * schemas without it.
 */
export function withOpenApi<T extends z.ZodTypeAny>(schema: T, keywords: Record<string, unknown>): T {
  const target = schema as T & { metaOpenApi?: Record<string, unknown> };
  target.metaOpenApi = { ...target.metaOpenApi, ...keywords };
  return schema;
}

/**
 * Names a schema in the OpenAPI documents: ts-rest's generator makes a schema whose entry carries a
 * `title` a component of that name, and refers to it wherever the schema is used. `example` (typed
 * by the schema; a test parses it too) is the component's example, from which the documents derive
 * the examples of the answers and bodies that hold it. Like withOpenApi, it marks this very schema.
 */
export const named = <T extends z.ZodTypeAny>(title: string, schema: T, example?: z.input<T>): T =>
  withOpenApi(schema, example === undefined ? { title } : { title, example });

/** An example of a schema that has no name, for the documents to show and derive from (see `named`). */
export const example = <T extends z.ZodTypeAny>(schema: T, value: z.input<T>): T => withOpenApi(schema, { example: value });

/**
 * A streamed answer's body as a route returns it (platform/realtime's EventStream): each entry
 * takes it its own way, the Next route as a web ReadableStream.
 */
export interface StreamedBody {
  toWeb(): ReadableStream<Uint8Array>;
}

const isStreamedBody = (v: unknown): v is StreamedBody => typeof (v as Partial<StreamedBody> | null)?.toWeb === 'function';

/**
 * A Server-Sent Events answer (the body of a `c.otherResponse`): `exampleText` is what the
 * documents show it sending, and `events` the named schema of each `event:`'s data, which they list
 * as `x-sse-events` (OpenAPI 3.0 cannot say what a stream carries).
 */
export const eventStream = (exampleText: string, events?: Record<string, z.ZodTypeAny>) =>
  withOpenApi(z.custom<StreamedBody>(isStreamedBody).describe('Server-Sent Events, streamed'), {
    example: exampleText,
    events,
  });

/**
 * RFC 3339's `date-time` and nothing looser, as the published `pattern` beside `format: date-time`:
 * validators of that format also take a space for `T`, an offset without minutes (`+01`) or without
 * its colon (`+0100`) and a leap second (`:60`), which the service refuses. Seconds are required;
 * fractions of any length; `T` and `Z` in either case.
 */
const RFC3339_DATE_TIME_PATTERN =
  /^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]+)?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$/;

/**
 * A date-time as input: RFC 3339 (`format: date-time` and RFC3339_DATE_TIME_PATTERN), whose `T` and
 * `Z` may also be lower case. The service upper-cases it before checking, so what it stores and
 * returns is upper case.
 */
export const dateTimeInput = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.toUpperCase() : v),
    z.string().regex(RFC3339_DATE_TIME_PATTERN, 'must be an RFC 3339 date-time, such as 2025-03-01T10:15:00Z').datetime({ offset: true }),
  );

/** A positive integer that fits an `integer` column (IDs in bodies). */
export const intId = () => z.number().int().positive().max(INT4_MAX);

/**
 * The same, read from a query parameter, header or path segment (text coerced to a number). Out of
 * range answers the location's 400 code instead of reaching the database.
 */

export const fieldErrorSchema = z.object({
  field: z.string().describe('Dotted path of the offending input, e.g. `customer.destination_id` or `header.team_id`'),
  message: z.string(),
});
named('FieldError', fieldErrorSchema);

/** Every error answer: the spec's envelope; `response` lists field errors when input was refused. */
export const errorEnvelopeSchema = z
  .object({
    status_code: z.number().int().describe('Service status code; see the code catalogue'),
    description: z.string(),
    response: z.object({ errors: z.array(fieldErrorSchema) }).nullable(),
  })
  .describe('Error envelope');
named('ErrorEnvelope', errorEnvelopeSchema);

/**
 * The success envelope of `code` around `response`. `answer`, when given, is the example answer of
 * this route where the example of `response` would mislead (a streamed reply, say).
 */
export function envelope<T extends z.ZodTypeAny>(code: Code, response: T, answer?: z.input<T>) {
  const schema = z.object({
    status_code: z.literal(code as number).describe(CODES[code].description),
    description: z.string(),
    response,
  });
  return answer === undefined ? schema : example(schema, { status_code: code, description: CODES[code].description, response: answer });
}

/**
 * An integer ID read from a header or query string: decimal digits only. Anything else (`0x3`,
 * `3e0`, ` 3`) stays a string and is refused, where a plain coercion would read `0x3` as 3; IDs
 * beyond PostgreSQL's `integer` are refused too (no such row can exist).
 */
export const decimalInt = (schema: z.ZodNumber) =>
  z.preprocess((v) => (typeof v === 'string' && /^[0-9]{1,16}$/.test(v) ? Number(v) : v), schema.max(2_147_483_647));

/** An id in a path, query or header: decimal digits only (no `0x3`, no `1e3`), within PostgreSQL's integer. */
export const intIdParam = () => decimalInt(z.number().int().positive());

export const isoDateTime = z.string().datetime({ offset: true });
export const pageSizeQuery = z.coerce.number().int().min(1).max(100).optional().describe('Items per page, 1 to 100 (default 25)');
export const cursorQuery = text().max(200).optional().describe('Opaque cursor: the `next_cursor` of the previous page');

/** Most keys `other_details` holds: in one request, and in a chat after a PATCH merges its pairs in. */
export const OTHER_DETAILS_MAX_KEYS = 50;
export const OTHER_DETAILS_KEYS_MESSAGE = `at most ${OTHER_DETAILS_MAX_KEYS} keys`;

export const otherDetailsSchema = withOpenApi(
  z
    .record(text().max(100), z.union([text().max(2000), z.number(), z.boolean(), z.null()]))
    .refine((v) => Object.keys(v).length <= OTHER_DETAILS_MAX_KEYS, OTHER_DETAILS_KEYS_MESSAGE)
    .describe(
      `Key-value pairs with additional information: at most ${OTHER_DETAILS_MAX_KEYS} keys (2000); keys up to 100 characters, string values up to 2,000; ${KEY_RULE}`,
    ),
  { maxProperties: OTHER_DETAILS_MAX_KEYS },
);
