import { type RateLimiterAbstract, RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';
import { env } from '@/env';
import { ApiError } from '@/platform/errors';
import { processStore } from '@/platform/util/process-store';
import { DatabaseRateLimiter } from './database-limiter';

/**
 * A counter: `points` per `durationSeconds` window for each key, under its own `name`.
 * `memoryBlock`: once a key is over its budget, this instance refuses it for the rest of the
 * window without asking the shared store again (only for limiters never reset early by `delete`
 * or `reward`, which would reach the store but not another instance's memory).
 */
export type LimiterSpec = { name: string; points: number; durationSeconds: number; memoryBlock?: boolean };

const store = processStore<{ __vaLimiters?: Map<string, RateLimiterAbstract> }>();

/** Whether limits are counted in the database (shared by the instances) or in this process. */
export function limitStore(): 'database' | 'memory' {
  const e = env();
  return e.RATE_LIMIT_STORE ?? (e.DATABASE_URL ? 'database' : 'memory');
}

/**
 * The one place limiters get their store. Every limit of the service (API budgets, sign-in
 * throttles, bot authentication failures) is built here. On PostgreSQL they count in the
 * `rate_limits` table, so the budgets hold across instances; on the embedded database (one
 * process by construction) they count in memory. Limiters are kept per spec; changing a spec
 * (tests do, and so does a new configuration) starts counting afresh under its own keys.
 */
export function limiterFor(spec: LimiterSpec): RateLimiterAbstract {
  if (!store.__vaLimiters) store.__vaLimiters = new Map();
  const kind = limitStore();
  const id = `${spec.name}:${spec.points}:${spec.durationSeconds}`;
  let limiter = store.__vaLimiters.get(`${kind}:${id}`);
  if (!limiter) {
    const options = { keyPrefix: id, points: spec.points, duration: spec.durationSeconds };
    limiter =
      kind === 'database'
        ? new DatabaseRateLimiter({ ...options, inMemoryBlockOnConsumed: spec.memoryBlock ? spec.points + 1 : undefined })
        : new RateLimiterMemory(options);
    store.__vaLimiters.set(`${kind}:${id}`, limiter);
  }
  return limiter;
}

/**
 * Whether a limiter's rejection is a refusal (a RateLimiterRes) rather than a failure. Not
 * `instanceof`: the production build bundles the library once per route group, and a limiter kept
 * on globalThis by one group rejects with its own copy of the class (the workspace's sign-in then
 * answered 500).
 */
export function isRejection(x: unknown): x is RateLimiterRes {
  return typeof x === 'object' && x !== null && !(x instanceof Error) && 'msBeforeNext' in x && 'consumedPoints' in x;
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

/**
 * Counts one event against the key: whether it was refused, the points used, and the ms until the
 * window ends. Any rejection is a refusal, whatever it reports: a key the limiter already blocks in
 * memory is rejected with 0 points used, so "refused" must never be read from the count.
 */
export async function consumeOne(
  limiter: RateLimiterAbstract,
  key: string,
): Promise<{ refused: boolean; consumed: number; msBeforeNext: number }> {
  try {
    const res = await limiter.consume(key, 1);
    return { refused: false, consumed: res.consumedPoints, msBeforeNext: res.msBeforeNext };
  } catch (rejection) {
    if (!isRejection(rejection)) throw rejection;
    return { refused: true, consumed: rejection.consumedPoints, msBeforeNext: Math.max(1, rejection.msBeforeNext) };
  }
}

/**
 * One signed-in session's requests per minute (ADMIN_RATE_LIMIT_PER_MINUTE), for the console
 * (`admin-session`) and the agent workspace (`agent-session`): the state for the rate-limit
 * headers, or a 429 in the envelope past the budget.
 */
export async function consumeSessionBudget(name: 'admin-session' | 'agent-session', sessionKey: string, what: string) {
  const points = env().ADMIN_RATE_LIMIT_PER_MINUTE;
  try {
    const res = await limiterFor({ name, points, durationSeconds: 60 }).consume(sessionKey, 1);
    return { limit: points, remaining: res.remainingPoints, resetSeconds: Math.ceil(res.msBeforeNext / 1000) };
  } catch (rejection) {
    if (!isRejection(rejection)) throw rejection;
    throw tooManyRequests(rejection.msBeforeNext, `at most ${points} ${what} per session per minute`, points);
  }
}
