import type { Db } from '@/db/client';
import { metrics } from '@/platform/metrics/registry';
import { logger } from '@/platform/util/logger';
import type { ClaimedEvent } from './claim-due-events';
import { type AttemptResult, type FinishedAttempt, recordAttempts } from './record-attempts';
import { type SendOutcome, sendWebhook } from './send-webhook';

/**
 * How long an event whose call failed in this process (out of descriptors, ports or memory) waits
 * before it is tried again: the attempt is recorded but not counted, as the bot was never reached.
 */
export const LOCAL_FAILURE_HOLD_MS = 5_000;

/** What an attempt's outcome means for its event: a local failure is held, uncounted (above). */
export function finishedAttempt(event: ClaimedEvent, outcome: SendOutcome): FinishedAttempt {
  return outcome.local ? { event, outcome, uncountedHoldMs: LOCAL_FAILURE_HOLD_MS } : { event, outcome };
}

/** Sends a leased event once; what happened is recorded by `recordAttempts`. */
export async function attemptDelivery({ event }: { event: ClaimedEvent }): Promise<FinishedAttempt> {
  const outcome = await sendWebhook({
    url: event.webhookUrl,
    staticHeaders: event.webhookHeaders,
    signingSecret: event.signingSecret,
    previousSigningSecret: event.previousSigningSecret,
    transactionId: event.transactionId,
    body: event.body,
  });
  return finishedAttempt(event, outcome);
}

/** Counts a recorded attempt in the metrics and logs it at a level that matches what it means for the event. */
export function logAttempt({ event, outcome }: FinishedAttempt, result: AttemptResult): void {
  const fields = {
    eventId: event.id,
    transactionId: event.transactionId,
    chatId: event.chatId,
    attempt: result.attemptNumber,
    httpStatus: outcome.httpStatus,
    durationMs: outcome.durationMs,
  };
  const outcomeLabel = result.status === 'pending' ? 'retry' : result.status;
  const m = metrics();
  // A replay's event (only those carry `replay`) reaches no live metric: it has a counter of its own.
  if (event.body.replay) m.replayDeliveryAttempts.inc({ result: outcomeLabel });
  else {
    m.deliveryAttempts.inc({ result: outcomeLabel });
    m.deliveryDuration.observe({ result: outcomeLabel }, outcome.durationMs / 1000);
  }
  if (!result.leaseHeld) logger.warn('webhook attempt finished after its lease ran out', fields);
  if (outcome.local)
    logger.warn('webhook attempt failed in this process (not counted against the bot)', { ...fields, error: outcome.error });
  if (result.status === 'failed') logger.warn('webhook delivery failed for good', { ...fields, error: outcome.error });
  else if (result.status === 'pending' && !outcome.local)
    logger.info('webhook attempt failed; will retry', { ...fields, error: outcome.error, retryInMs: result.retryInMs });
  else logger.debug('webhook delivered', fields);
}

/**
 * One attempt of an event this worker has leased: send it, then record what happened. With `chain`,
 * the chat's next event comes back leased in `result.next` when this one released it.
 */
export async function deliverClaimedEvent(
  db: Db,
  { event, chain = false }: { event: ClaimedEvent; chain?: boolean },
): Promise<AttemptResult> {
  const finished = await attemptDelivery({ event });
  const [result] = await recordAttempts(db, { attempts: [finished], chain });
  logAttempt(finished, result);
  return result;
}
