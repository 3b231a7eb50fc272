import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { z } from 'zod';
import type {
  chatAssignedEventSchema,
  chatClosedEventSchema,
  chatUnassignedEventSchema,
  eventMessageEntrySchema,
  messageReceivedEventSchema,
  webhookEventSchema,
} from '@/contracts/bot/schemas/events';

/** Every event body a VA can receive, discriminated by `event_type`. */
export type WebhookEvent = z.infer<typeof webhookEventSchema> & {
  /** Present (true) only on "Send test event" from the admin pages: the chat does not exist. */
  test?: true;
};
export type ChatAssignedEvent = z.infer<typeof chatAssignedEventSchema>;
export type MessageReceivedEvent = z.infer<typeof messageReceivedEventSchema>;
export type ChatClosedEvent = z.infer<typeof chatClosedEventSchema>;
export type ChatUnassignedEvent = z.infer<typeof chatUnassignedEventSchema>;
export type EventMessageEntry = z.infer<typeof eventMessageEntrySchema>;
export type WebhookEventType = WebhookEvent['event_type'];

export { WebhookVerificationError };

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string {
  const value = headers instanceof Headers ? headers.get(name) : headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/**
 * Checks a delivery's Standard Webhooks signature over the raw body (the bytes as received, before
 * any JSON parsing) and its timestamp (within five minutes), and returns the event. Throws
 * `WebhookVerificationError` when the signature, the timestamp or a header is wrong.
 *
 * `secret` is the VA's `whsec_…` signing secret. During a secret rotation with overlap each delivery
 * carries one signature per secret; either one verifies.
 */
export function verifyWebhook(secret: string, rawBody: string | Buffer, headers: HeaderBag): { id: string; event: WebhookEvent } {
  const wanted = {
    'webhook-id': header(headers, 'webhook-id'),
    'webhook-timestamp': header(headers, 'webhook-timestamp'),
    'webhook-signature': header(headers, 'webhook-signature'),
  };
  const event = new Webhook(secret).verify(rawBody, wanted) as WebhookEvent;
  return { id: wanted['webhook-id'], event };
}
