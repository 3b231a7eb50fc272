import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { env } from '@/env';
import { logger } from '@/platform/util/logger';

/** Operational event types sent to OPS_WEBHOOK_URL. */
type OpsEventType = 'virtual_agent.webhook_failing' | 'virtual_agent.webhook_recovered';

export type OpsEvent = { type: OpsEventType; data: Record<string, unknown> };

/** Waits before the second and third try of one operational event. */
const RETRY_MS = [1_000, 5_000];
const TIMEOUT_MS = 5_000;

/**
 * Sends an operational event to OPS_WEBHOOK_URL, when set: `{type, timestamp, data}` (the shape of
 * Svix's operational webhooks), signed with Standard Webhooks headers and OPS_WEBHOOK_SECRET. Tried
 * up to three times; a receiver that still does not answer 2xx is logged, never retried later
 * (the state it reports stays visible in the admin API). The URL is the operator's own, so the
 * address policy for bots' webhooks does not apply. Never throws; resolves whether it was taken.
 */
export async function notifyOps(event: OpsEvent): Promise<boolean> {
  const { OPS_WEBHOOK_URL: url, OPS_WEBHOOK_SECRET: secret } = env();
  if (!url || !secret) return false;
  const id = `ops_${randomUUID()}`;
  const payload = JSON.stringify({ type: event.type, timestamp: new Date().toISOString(), data: event.data });
  for (let attempt = 0; attempt <= RETRY_MS.length; attempt++) {
    if (attempt) await new Promise((r) => setTimeout(r, RETRY_MS[attempt - 1]));
    const timestamp = new Date();
    const signature = new Webhook(secret).sign(id, timestamp, payload);
    try {
      const res = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body: payload,
      });
      await res.body?.cancel();
      if (res.ok) return true;
      logger.warn('operational webhook refused an event', { type: event.type, httpStatus: res.status, attempt: attempt + 1 });
    } catch (err) {
      logger.warn('operational webhook not reached', { type: event.type, attempt: attempt + 1, err });
    }
  }
  logger.error('operational event not delivered', { type: event.type, id });
  return false;
}
