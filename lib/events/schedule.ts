import { env } from '@/env';

/** The published schedule: delays after attempts 1..6, so 7 attempts in all. */
export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000, 1_800_000] as const;

/** Up to this share of a delay is added at random, so a recovering receiver is not hit by a wall of retries at once. */
export const RETRY_JITTER = 0.2;

export function retryDelaysMs(): readonly number[] {
  return env().DELIVERY_RETRY_DELAYS_MS ?? DEFAULT_RETRY_DELAYS_MS;
}

/**
 * The wait after the `attemptInRun`-th failed attempt (1-based) of a run, with jitter; null when
 * that attempt was the last, so the event is dead-lettered.
 */
export function retryDelayAfter(attemptInRun: number, random: () => number = Math.random): number | null {
  const delays = retryDelaysMs();
  const base = delays[attemptInRun - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 + RETRY_JITTER * random()));
}

/**
 * How long a claim holds an event: the whole attempt (DNS, connect, answer) plus room to record it.
 * Also how long an event that was in flight when its process died waits before another takes it.
 */
export function leaseMs(): number {
  return env().DELIVERY_TIMEOUT_MS + 5_000;
}

/** A receiver's `Retry-After` is honoured between 1 s and DELIVERY_RETRY_AFTER_MAX_MS. */
export function clampRetryAfter(ms: number): number {
  return Math.min(Math.max(ms, 1_000), env().DELIVERY_RETRY_AFTER_MAX_MS);
}
