import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { env } from '@/env';
import { ApiError } from '@/lib/errors';
import { metrics } from '@/lib/metrics/registry';

export type RateLimitState = { limit: number; remaining: number; resetSeconds: number };

type Limiter = { limiter: RateLimiterMemory; points: number };
const store = globalThis as unknown as { __vaRateLimiters?: Map<string, Limiter> };

/** Budgets: `api` (RATE_LIMIT_PER_MINUTE) for API calls, `login` (ADMIN_LOGIN_ATTEMPTS_PER_MINUTE) against password guessing. */
export type Budget = 'api' | 'login';

function limiter(budget: Budget): Limiter {
  const points = budget === 'login' ? env().ADMIN_LOGIN_ATTEMPTS_PER_MINUTE : env().RATE_LIMIT_PER_MINUTE;
  if (!store.__vaRateLimiters) store.__vaRateLimiters = new Map();
  let entry = store.__vaRateLimiters.get(budget);
  if (!entry || entry.points !== points) {
    entry = { limiter: new RateLimiterMemory({ points, duration: 60 }), points };
    store.__vaRateLimiters.set(budget, entry);
  }
  return entry;
}

/**
 * Counts one request against the key's per-minute budget (per account for authenticated calls).
 * Over the budget: 2012/429 with Retry-After. The state feeds the Rate-Limit-* headers.
 */
export async function consumeRateLimit(key: string, budget: Budget = 'api'): Promise<RateLimitState> {
  const { limiter: l, points } = limiter(budget);
  try {
    const res = await l.consume(key, 1);
    return { limit: points, remaining: res.remainingPoints, resetSeconds: Math.ceil(res.msBeforeNext / 1000) };
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    metrics().rateLimitRefusals.inc({ budget });
    const resetSeconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
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
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'Rate-Limit-Limit': String(state.limit),
    'Rate-Limit-Remaining': String(state.remaining),
    'Rate-Limit-Reset': String(state.resetSeconds),
  };
}
