import { CODES, type ErrorCode } from '@/contracts/codes';

export type FieldError = { field: string; message: string };

/** An expected failure. One handler turns it into the envelope; domain code only throws it. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly httpStatus: number;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string> | undefined;
  /** More fields for `response` beside `errors` (2063's `oldest_cursor`). */
  readonly extra: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    opts: { detail?: string; errors?: FieldError[]; headers?: Record<string, string>; response?: Record<string, unknown> } = {},
  ) {
    const base = CODES[code].description;
    super(opts.detail ? `${base}: ${opts.detail}` : base);
    this.name = 'ApiError';
    this.code = code;
    this.httpStatus = CODES[code].http;
    this.errors = opts.errors;
    this.headers = opts.headers;
    this.extra = opts.response;
  }

  toEnvelope() {
    return {
      status_code: this.code,
      description: this.message,
      response: this.errors || this.extra ? { errors: this.errors ?? [], ...this.extra } : null,
    };
  }
}

/** Field errors of a zod failure, with dotted paths (`customer.destination_id`, `messages.0.text`). */
export function fieldErrorsOf(
  issues: ReadonlyArray<{ path: ReadonlyArray<string | number>; message: string }>,
  prefix?: string,
): FieldError[] {
  return issues.map((i) => ({
    field: [prefix, ...i.path].filter((p) => p !== undefined && p !== '').join('.') || (prefix ?? '(body)'),
    message: i.message,
  }));
}

export function describeFields(errors: FieldError[]): string {
  const shown = errors.slice(0, 5).map((e) => `${e.field} (${e.message})`);
  return errors.length > 5 ? `${shown.join('; ')}; and ${errors.length - 5} more` : shown.join('; ');
}

/**
 * Added to 2002 when `access_token` or `team_id` is missing: proxies drop header names with
 * underscores (nginx does unless `underscores_in_headers on;`), so a header the bot did send may
 * never arrive.
 */
export const UNDERSCORE_HEADER_HINT =
  'if your bot sends it, a proxy on the way may drop header names with underscores (nginx does unless `underscores_in_headers on;` is set)';
