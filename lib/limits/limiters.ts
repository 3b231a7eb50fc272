import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from '@/lib/errors';

/** A counter: `points` per `durationSeconds` window for each key, under its own `name`. */
export type LimiterSpec = { name: string; points: number; durationSeconds: number };

const store = globalThis as unknown as { __vaLimiters?: Map<string, RateLimiterAbstract> };

/**
 * The one place limiters get their store. Every limit of the service (API budgets, sign-in
 * throttles, bot authentication failures) is built here, so moving all of them to a store shared
 * by several instances (PostgreSQL or Redis, both supported by rate-limiter-flexible) is a change
 * to this function alone. Limiters are kept per spec; changing a spec (tests do) builds a new one.
 */
export function limiterFor(spec: LimiterSpec): RateLimiterAbstract {
  if (!store.__vaLimiters) store.__vaLimiters = new Map();
  const id = `${spec.name}:${spec.points}:${spec.durationSeconds}`;
  let limiter = store.__vaLimiters.get(id);
  if (!limiter) {
    limiter = new RateLimiterMemory({ keyPrefix: spec.name, points: spec.points, duration: spec.durationSeconds });
    store.__vaLimiters.set(id, limiter);
  }
  return limiter;
}

/** 2012/429 in the envelope with `Retry-After` (whole seconds, at least 1). */
export function tooManyRequests(retryAfterMs: number, detail: string, limit?: number): ApiError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new ApiError(2012, {
    detail: `${detail}; retry in ${seconds} s`,
    headers: {
      'Retry-After': String(seconds),
      ...(limit === undefined ? {} : { 'Rate-Limit-Limit': String(limit) }),
      'Rate-Limit-Remaining': '0',
      'Rate-Limit-Reset': String(seconds),
    },
  });
}

/** Milliseconds until the key may try again, or 0 when it is not over its budget or blocked. */
export async function msUntilAllowed(limiter: RateLimiterAbstract, key: string, points: number): Promise<number> {
  const res = await limiter.get(key);
  if (!res || res.consumedPoints < points) return 0;
  return Math.max(res.msBeforeNext, 1);
}

/** Counts one event against the key; returns the state after it, or the wait when over the budget. */
export async function consumeOne(limiter: RateLimiterAbstract, key: string): Promise<{ consumed: number; msBeforeNext: number }> {
  try {
    const res = await limiter.consume(key, 1);
    return { consumed: res.consumedPoints, msBeforeNext: res.msBeforeNext };
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    return { consumed: rejection.consumedPoints, msBeforeNext: rejection.msBeforeNext };
  }
}
