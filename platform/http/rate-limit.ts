import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { env } from '@/env';
import { ApiError } from '@/platform/errors';
import { isRejection, limiterFor, limitStore } from '@/platform/limits/limiters';
import { type Taken, takeFromAllowance } from '@/platform/limits/local-allowance';
import { metrics } from '@/platform/metrics/registry';

export type RateLimitState = { limit: number; remaining: number; resetSeconds: number };

/** Budgets: `api` (RATE_LIMIT_PER_MINUTE) for API calls, `login` (ADMIN_LOGIN_ATTEMPTS_PER_MINUTE) against password guessing. */
export type Budget = 'api' | 'login';

function limiter(budget: Budget) {
  const points = budget === 'login' ? env().ADMIN_LOGIN_ATTEMPTS_PER_MINUTE : env().RATE_LIMIT_PER_MINUTE;
  // Shared by the instances on PostgreSQL (platform/limits); a key over its budget is then refused
  // from memory until its window ends, so refusals cost no round trip.
  return {
    limiter: limiterFor({ name: budget === 'login' ? 'login-address' : 'api', points, durationSeconds: 60, memoryBlock: true }),
    points,
  };
}

/**
 * Counts one request against the key's per-minute budget (per account for authenticated calls),
 * across every instance on one PostgreSQL database.
 * Over the budget: 2012/429 with Retry-After. The state feeds the Rate-Limit-* headers.
 */
export async function consumeRateLimit(key: string, budget: Budget = 'api'): Promise<RateLimitState> {
  const { limiter: l, points } = limiter(budget);
  // In the database, a local allowance reserves points in chunks (platform/limits/local-allowance.ts):
  // one round trip per chunk, not per request. In memory there is nothing to save.
  const taken =
    limitStore() === 'database' ? await takeFromAllowance(l, `${budget}:${points}:${key}`, key, points) : await takeOne(l, key, points);
  if (taken.ok) return { limit: points, remaining: taken.remaining, resetSeconds: Math.ceil(taken.msBeforeNext / 1000) };
  metrics().rateLimitRefusals.inc({ budget });
  const resetSeconds = Math.max(1, Math.ceil(taken.msBeforeNext / 1000));
  throw new ApiError(2012, {
    detail: `at most ${points} requests per minute; retry in ${resetSeconds} s`,
    headers: {
      'Retry-After': String(resetSeconds),
      'Rate-Limit-Limit': String(points),
      'Rate-Limit-Remaining': '0',
      'Rate-Limit-Reset': String(resetSeconds),
    },
  });
}

async function takeOne(l: RateLimiterAbstract, key: string, points: number): Promise<Taken> {
  try {
    const res = await l.consume(key, 1);
    return { ok: true, remaining: Math.min(points, res.remainingPoints), msBeforeNext: res.msBeforeNext };
  } catch (rejection) {
    if (!isRejection(rejection)) throw rejection;
    return { ok: false, msBeforeNext: rejection.msBeforeNext };
  }
}
