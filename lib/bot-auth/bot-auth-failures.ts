import { env } from '@/env';
import { addressKey } from '@/platform/auth/client-address';
import type { ApiError } from '@/platform/errors';
import { consumeOne, limiterFor, msUntilAllowed, tooManyRequests } from '@/platform/limits/limiters';

const failures = () => limiterFor({ name: 'bot-auth-fail', points: env().BOT_AUTH_FAILURES_PER_MINUTE, durationSeconds: 60 });

/**
 * Failed `POST /authorize` calls and calls with an unknown or expired access token, counted per
 * client address (BOT_AUTH_FAILURES_PER_MINUTE). Past the budget an address gets 2012/429 with
 * Retry-After instead of an answer about its key, so keys cannot be tried at speed.
 */
export async function refuseIfFailingTooOften(clientAddress: string): Promise<void> {
  const wait = await msUntilAllowed(failures(), addressKey(clientAddress), env().BOT_AUTH_FAILURES_PER_MINUTE);
  if (wait > 0) throw tooManyRequests(wait, 'too many failed authentications from this address', env().BOT_AUTH_FAILURES_PER_MINUTE);
}

/** Counts one failure; returns the 429 to answer instead once the address is over its budget. */
export async function recordBotAuthFailure(clientAddress: string): Promise<ApiError | null> {
  const points = env().BOT_AUTH_FAILURES_PER_MINUTE;
  const { refused, msBeforeNext } = await consumeOne(failures(), addressKey(clientAddress));
  return refused ? tooManyRequests(msBeforeNext, 'too many failed authentications from this address', points) : null;
}
