import { z } from 'zod';
import { errorEnvelopeSchema, fieldErrorSchema, named, text } from '../../common';

const eventCursorSchema = z
  .string()
  .describe("Opaque position in the VA's event order; pass it back as `after` (or `Last-Event-ID`), never build one");

/**
 * One event as `GET /events` and the stream give it: the very bytes and Standard Webhooks headers
 * a webhook delivery of the event carries, so one verifier and one handler serve both ways.
 */
const pulledEventSchema = z.object({
  cursor: eventCursorSchema,
  webhook_id: z.string().describe("The `webhook-id` header of a delivery: the event's `transaction_id`"),
  webhook_timestamp: z.string().describe('The `webhook-timestamp` header: when this copy was signed, in seconds since the epoch'),
  webhook_signature: z
    .string()
    .describe(
      'The `webhook-signature` header: `v1,<base64 HMAC-SHA256>` of `<webhook_id>.<webhook_timestamp>.<body>` under the signing secret',
    ),
  body: z.string().describe('The event body (a `WebhookEvent`) as the exact JSON text that was signed: verify it before parsing it'),
});
named('PulledEvent', pulledEventSchema);

export type PulledEvent = z.infer<typeof pulledEventSchema>;

export const eventPageSchema = z.object({
  events: z.array(pulledEventSchema).describe('In the VA-wide order; empty when none came within `wait_seconds`'),
  next_cursor: eventCursorSchema.describe('The cursor after the last event given (the same one when none was): pass it as `after` next'),
});
const CURSOR_EXAMPLE = 'ev0000002a000000000000031c0000000000001f5d';
named('EventPage', eventPageSchema, {
  events: [
    {
      cursor: CURSOR_EXAMPLE,
      webhook_id: 'trx_01JDW3K6C4S7PMG1T0W2AF9Q3V',
      webhook_timestamp: '1772442849',
      webhook_signature: 'v1,3pmrF0sWc2N1ak0rD1Ht8Bq3yQ9c4Uu1HLBFnB2sh4o=',
      body: '{"event_type":"message.received","channel":"livechat","chat_id":"c_8f3a2b"}',
    },
  ],
  next_cursor: CURSOR_EXAMPLE,
});

export const ackBodySchema = z
  .object({ cursor: text().max(200).describe('Acknowledge every event up to and including this cursor') })
  .strict();
named('AckEventsBody', ackBodySchema, { cursor: CURSOR_EXAMPLE });

export const ackResultSchema = z.object({
  acknowledged: eventCursorSchema.describe("The VA's acknowledged position after this call (never moves back)"),
});
named('AckResult', ackResultSchema, { acknowledged: CURSOR_EXAMPLE });

/** 2063: the cursor is older than what retention kept; `oldest_cursor` reads on from the oldest event still kept. */
export const cursorExpiredEnvelopeSchema = errorEnvelopeSchema.extend({
  response: z.object({
    errors: z.array(fieldErrorSchema),
    oldest_cursor: eventCursorSchema.describe('Pass as `after` to read from the oldest event still kept'),
  }),
});
named('CursorExpiredEnvelope', cursorExpiredEnvelopeSchema);

/** 2064: no event of the VA is at the cursor's position; `acknowledged_cursor` is where a read without one starts. */
export const cursorNotIssuedEnvelopeSchema = errorEnvelopeSchema.extend({
  response: z.object({
    errors: z.array(fieldErrorSchema),
    acknowledged_cursor: eventCursorSchema.describe(
      'Where a read without a cursor starts (the acknowledged position): pass it as `after`, or pass none',
    ),
  }),
});
named('CursorNotIssuedEnvelope', cursorNotIssuedEnvelopeSchema);
