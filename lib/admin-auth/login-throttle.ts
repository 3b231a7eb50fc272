import { env } from '@/env';
import { addressKey } from '@/platform/auth/client-address';
import { consumeOne, isRejection, limiterFor, msUntilAllowed, tooManyRequests } from '@/platform/limits/limiters';

/** The wait after the first failure past the free ones; each further one doubles it. */
const FIRST_WAIT_SECONDS = 15;
/** Longest wait one failed sign-in can impose on its account. */
const MAX_WAIT_SECONDS = 15 * 60;
/** A streak of failures is forgotten a day after it began (or at the next right password). */
const STREAK_SECONDS = 24 * 3600;

const streaks = () => limiterFor({ name: 'login-streak', points: 1_000_000, durationSeconds: STREAK_SECONDS });
// One slot per account: the next attempt after the free ones opens it for a growing number of
// seconds (rate-limiter-flexible's `customDuration`); attempts while it is open are refused.
const gates = () => limiterFor({ name: 'login-gate', points: 1, durationSeconds: 1 });
const ipFailures = () => limiterFor({ name: 'login-fail-ip', points: env().ADMIN_LOGIN_FAILURES_PER_IP_PER_HOUR, durationSeconds: 3600 });

export type LoginAttempt = { accountKey: string; ipKey: string };

/**
 * Before a password is checked. Refused (2012/429 with Retry-After), without a check, when the
 * client address has used up its failures for the hour, or when the account's consecutive
 * failures passed ADMIN_LOGIN_FREE_FAILURES and its wait (15 s, then doubling with each further
 * failure up to 15 min) has not run out. Counting happens here, before the slow password
 * check, so parallel guesses cannot all slip in before the first failure is recorded.
 */
export async function admitLoginAttempt({ email, clientAddress }: { email: string; clientAddress: string }): Promise<LoginAttempt> {
  const attempt = { accountKey: email.trim().toLowerCase(), ipKey: addressKey(clientAddress) };
  const e = env();
  const ipWait = await msUntilAllowed(ipFailures(), attempt.ipKey, e.ADMIN_LOGIN_FAILURES_PER_IP_PER_HOUR);
  if (ipWait > 0) throw tooManyRequests(ipWait, 'too many failed sign-ins from this address');

  const streak = streaks();
  const { consumed } = await consumeOne(streak, attempt.accountKey);
  if (consumed > e.ADMIN_LOGIN_FREE_FAILURES) {
    const refusedForMs = await passGate(attempt.accountKey, waitAfter(consumed, e.ADMIN_LOGIN_FREE_FAILURES));
    if (refusedForMs > 0) {
      // A refused attempt does not lengthen the streak: only real guesses do.
      await streak.reward(attempt.accountKey, 1);
      throw tooManyRequests(refusedForMs, 'too many failed sign-ins for this account');
    }
  }
  return attempt;
}

/** Seconds the account waits after its `attempt`-th consecutive failure: 15 s, 30 s, 1 min … at most 15 min. */
export function waitAfter(attempt: number, free: number): number {
  if (attempt <= free) return 0;
  return Math.min(MAX_WAIT_SECONDS, FIRST_WAIT_SECONDS * 2 ** Math.min(30, attempt - free - 1));
}

/**
 * Takes the account's one slot and keeps it for `seconds`; returns 0 when it was free (this
 * attempt goes ahead), else the ms until it frees. The take is one atomic consume.
 */
async function passGate(accountKey: string, seconds: number): Promise<number> {
  try {
    await gates().consume(accountKey, 1, { customDuration: seconds });
    return 0;
  } catch (rejection) {
    if (isRejection(rejection)) return Math.max(1, rejection.msBeforeNext);
    throw rejection;
  }
}

/** After a wrong password: one more failure for the address. (The account's streak already grew.) */
export async function recordLoginFailure(attempt: LoginAttempt): Promise<void> {
  await consumeOne(ipFailures(), attempt.ipKey);
}

/** After a right password: the account's streak ends. */
export async function recordLoginSuccess(attempt: LoginAttempt): Promise<void> {
  await streaks().delete(attempt.accountKey);
  await gates().delete(attempt.accountKey);
}
