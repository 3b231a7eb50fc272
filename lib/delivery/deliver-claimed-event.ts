import type { Db } from '@/db/client';
import { logger } from '@/lib/util/logger';
import type { ClaimedEvent } from './claim-due-events';
import { type AttemptResult, recordAttempt } from './record-attempt';
import { sendWebhook } from './send-webhook';

/** One attempt of an event this worker has leased: send it, then record what happened. */
export async function deliverClaimedEvent(db: Db, { event }: { event: ClaimedEvent }): Promise<AttemptResult> {
  const outcome = await sendWebhook({
    url: event.webhookUrl,
    staticHeaders: event.webhookHeaders,
    signingSecret: event.signingSecret,
    transactionId: event.transactionId,
    body: event.body,
  });
  const result = await recordAttempt(db, { event, outcome });
  const fields = {
    eventId: event.id,
    transactionId: event.transactionId,
    chatId: event.chatId,
    attempt: result.attemptNumber,
    httpStatus: outcome.httpStatus,
    durationMs: outcome.durationMs,
  };
  if (!result.leaseHeld) logger.warn('webhook attempt finished after its lease ran out', fields);
  if (result.status === 'failed') logger.warn('webhook delivery failed for good', { ...fields, error: outcome.error });
  else if (result.status === 'pending') logger.info('webhook attempt failed; will retry', { ...fields, error: outcome.error, retryInMs: result.retryInMs });
  else logger.debug('webhook delivered', fields);
  return result;
}
