import { env } from '@/env';

/** What a client is told to wait before retrying when the database cannot be reached. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Connection-level failures of postgres.js and Node's sockets. */
const CONNECTION_CODES = new Set([
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * SQLSTATEs that say the server is unreachable, going away or overloaded rather than that the
 * request was wrong: class 08 (connection exception), admin/crash shutdown, cannot connect now,
 * too many connections, and a statement cancelled by `statement_timeout`.
 */
function isUnavailableState(state: string): boolean {
  return state.startsWith('08') || ['57P01', '57P02', '57P03', '53300', '57014'].includes(state);
}

/** The code of the error or of the errors it wraps (Drizzle wraps the driver's error in `cause`). */
export function databaseErrorCode(err: unknown): string | null {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || isUnavailableState(code))) return code;
    const errors = (e as { errors?: unknown }).errors;
    // A connection refused on every address arrives as an AggregateError.
    if (Array.isArray(errors)) for (const inner of errors) if (databaseErrorCode(inner)) return databaseErrorCode(inner);
  }
  return null;
}

/** True when the error means the database is down, unreachable or timing out: a 503, not a 500. */
export function isDatabaseUnavailable(err: unknown): boolean {
  return databaseErrorCode(err) !== null;
}

/** A pooled connection that was already dead when used (the server gone in a failover or a network break): not an outage. */
const STALE_CONNECTION = new Set(['57P01', '57P02', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'ECONNRESET', 'EPIPE']);

/**
 * A read-only query, run again while it fails on connections that were already dead. Connections
 * the pool kept through an outage can fail on their first use (CONNECTION_CLOSED or 57P01, one
 * after the other: a failover or a network break leaves them, and drill:ops met one 15 s after a
 * plain restart);
 * trying past them, at most once per pooled connection, reaches a fresh one and tells whether the
 * database is really there. For probes and gauges only: a request's statements are not retried
 * behind its back.
 */
export async function retryOnStaleConnection<T>(query: () => Promise<T>, tries = 1 + env().DATABASE_POOL_SIZE): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await query();
    } catch (err) {
      if (i >= tries || !STALE_CONNECTION.has(databaseErrorCode(err) ?? '')) throw err;
    }
  }
}
