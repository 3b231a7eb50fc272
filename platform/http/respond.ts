import { ZodError } from 'zod';
import { ApiError, CODES, type Code, describeFields, fieldErrorsOf, UNDERSCORE_HEADER_HINT } from '@/platform/errors';
import { metrics } from '@/platform/metrics/registry';
import { DATABASE_RETRY_AFTER_SECONDS, databaseErrorCode, isDatabaseUnavailable } from '@/platform/util/database-unavailable';
import { logger } from '@/platform/util/logger';
import { type ApiAnswer, PlainHeaders } from './api-request';
import { currentTrxid } from './request-context';

/** A success envelope for a ts-rest handler: `{status, body}` with the code's HTTP status. */
export function ok<C extends Code, T>(code: C, response: T) {
  return {
    status: CODES[code].http as (typeof CODES)[C]['http'],
    body: { status_code: code, description: CODES[code].description, response },
  } as const;
}

/** The envelope answer of an error, with the error's own headers (Allow, Retry-After...). */
export function errorAnswer(err: ApiError): ApiAnswer {
  const headers = new PlainHeaders({ 'content-type': 'application/json' });
  for (const [k, v] of Object.entries(err.headers ?? {})) headers.set(k, v);
  return { status: err.httpStatus, headers, body: JSON.stringify(err.toEnvelope()) };
}

/** The headers whose names carry underscores, which some proxies drop. */
const UNDERSCORED = new Set(['access_token', 'team_id']);

type ValidationLike = {
  pathParamsError: ZodError | null;
  headersError: ZodError | null;
  queryError: ZodError | null;
  bodyError: ZodError | null;
};

function isValidationError(err: unknown): err is ValidationLike {
  return typeof err === 'object' && err !== null && 'bodyError' in err && 'headersError' in err;
}

/** Turns anything a handler threw into an ApiError; unexpected failures are logged with the trxid. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (isValidationError(err)) {
    // Header problems first: the spec's 2002 is what a bot missing `team_id` must see.
    if (err.headersError) {
      const errors = fieldErrorsOf(err.headersError.issues, 'header');
      const dropped = err.headersError.issues.some(
        (i) => i.code === 'invalid_type' && i.received === 'undefined' && UNDERSCORED.has(String(i.path[0])),
      );
      const detail = describeFields(errors);
      return new ApiError(2002, { detail: dropped ? `${detail}; ${UNDERSCORE_HEADER_HINT}` : detail, errors });
    }
    if (err.pathParamsError) {
      const errors = fieldErrorsOf(err.pathParamsError.issues, 'path');
      return new ApiError(2014, { detail: describeFields(errors), errors });
    }
    if (err.queryError) {
      const errors = fieldErrorsOf(err.queryError.issues, 'query');
      return new ApiError(2001, { detail: describeFields(errors), errors });
    }
    if (err.bodyError) {
      const errors = fieldErrorsOf(err.bodyError.issues);
      return new ApiError(2000, { detail: describeFields(errors), errors });
    }
  }
  if (err instanceof SyntaxError) return new ApiError(2006, { detail: err.message });
  if (err instanceof ZodError) {
    const errors = fieldErrorsOf(err.issues);
    return new ApiError(2000, { detail: describeFields(errors), errors });
  }
  if (isDatabaseUnavailable(err)) {
    logger.warn('database unavailable', { trxid: currentTrxid(), reason: databaseErrorCode(err) });
    metrics().databaseUnavailable.inc();
    return new ApiError(2050, { headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) } });
  }
  logger.error('unhandled error', { trxid: currentTrxid(), err });
  return new ApiError(2007);
}
