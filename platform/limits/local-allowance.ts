import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { isRejection } from '@/platform/limits/limiters';
import { processStore } from '@/platform/util/process-store';

/** Points of a key taken from the shared counter at once, and how they are being spent here. */
type Allowance = {
  /** Points reserved and not yet spent by this instance. */
  left: number;
  /** End of the shared window the points belong to (this clock). */
  until: number;
  /** The shared counter after the last reservation (all instances). */
  used: number;
  /** A reservation under way: requests arriving meanwhile wait for it rather than reserve again. */
  refill?: Promise<void>;
};

export type Taken = { ok: true; remaining: number; msBeforeNext: number } | { ok: false; msBeforeNext: number };

const store = processStore<{ __vaAllowances?: Map<string, Allowance> }>();
/** Above this many keys, ended windows are forgotten. */
const PRUNE_AT = 10_000;

/** Points per reservation: a fiftieth of the budget, so an instance holds back at most 2 % of it. */
export function chunkFor(points: number): number {
  return Math.max(1, Math.floor(points / 50));
}

/**
 * Takes one point of `key` from a shared limiter through a local allowance: the instance reserves
 * `chunkFor(points)` points of the shared counter in one hit and spends them without asking again,
 * so the shared store costs one round trip per chunk instead of one per request. A reservation
 * that crosses the budget is granted only what was left; nothing past the budget is ever
 * accepted, and points reserved here and not spent before the window ends are simply unused
 * (an account may be refused up to a chunk per instance early). With a chunk of 1 this is a plain
 * consume per request.
 */
export async function takeFromAllowance(limiter: RateLimiterAbstract, id: string, key: string, points: number): Promise<Taken> {
  store.__vaAllowances ??= new Map();
  const allowances = store.__vaAllowances;
  const chunk = chunkFor(points);
  for (;;) {
    const now = Date.now();
    const a = allowances.get(id);
    if (a && a.until > now) {
      if (a.left > 0) {
        a.left--;
        return { ok: true, remaining: Math.max(0, points - a.used) + a.left, msBeforeNext: a.until - now };
      }
      if (a.refill) {
        await a.refill;
        continue;
      }
    }
    if (allowances.size > PRUNE_AT) for (const [k, v] of allowances) if (v.until <= now && !v.refill) allowances.delete(k);
    const next: Allowance = { left: 0, until: now + 1_000, used: points };
    let refused: number | null = null;
    next.refill = (async () => {
      try {
        const res = await limiter.consume(key, chunk);
        Object.assign(next, { left: chunk, used: res.consumedPoints, until: Date.now() + res.msBeforeNext });
      } catch (rejection) {
        if (!isRejection(rejection)) {
          allowances.delete(id);
          throw rejection;
        }
        // Over the budget: what was left before this reservation, if anything (0 when refused from memory).
        const granted = rejection.consumedPoints ? Math.max(0, points - (rejection.consumedPoints - chunk)) : 0;
        Object.assign(next, { left: granted, used: points, until: Date.now() + Math.max(1, rejection.msBeforeNext) });
        if (!granted) refused = Math.max(1, rejection.msBeforeNext);
      } finally {
        next.refill = undefined;
      }
    })();
    allowances.set(id, next);
    await next.refill;
    if (refused !== null) return { ok: false, msBeforeNext: refused };
  }
}
