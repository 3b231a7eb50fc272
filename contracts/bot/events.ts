import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { decimalInt, envelope, eventStream, text } from '../common';
import { errors } from '../errors';
import { AUTH_CODES, authHeaders, BODY_CODES } from './common';
import { ackBodySchema, ackResultSchema, eventPageSchema } from './schemas/pulled-event';

const c = initContract();

const afterQuery = text()
  .max(200)
  .optional()
  .describe("Read the events after this cursor (a `cursor` or `next_cursor` given before); omitted: after the VA's acknowledged position");

/** What a stream sends, as the documents show it. */
const STREAM_EXAMPLE = [
  'retry: 1000',
  '',
  'id: ev0000002a000000000000031c0000000000001f5d',
  'event: message.received',
  'data: {"cursor":"ev0000002a000000000000031c0000000000001f5d","webhook_id":"trx_01JDW3K6C4S7PMG1T0W2AF9Q3V","webhook_timestamp":"1764230400","webhook_signature":"v1,3pmrF0sWc2N1ak0rD1Ht8Bq3yQ9c4Uu1HLBFnB2sh4o=","body":"{\\"event_type\\":\\"message.received\\",\\"chat_id\\":\\"c_1\\"}"}',
  '',
  ': keep-alive',
  '',
  '',
].join('\n');

export const eventsContract = c.router({
  listEvents: {
    method: 'GET',
    path: '/events',
    summary: "Read the VA's events in order (long-poll)",
    description:
      "Every event the VA subscribed to, in one VA-wide order (commit order; a chat's events keep their order), with no public URL needed. Each item carries the exact `body` and Standard Webhooks headers a webhook delivery of the event carries: verify `webhook_signature` with any Standard Webhooks library as for a delivery. `wait_seconds` (0-30) holds the answer until at least one event is there or the wait ends (then `events` is empty and `next_cursor` is the cursor sent). Passing `after=C` acknowledges every event up to C (see `POST /events/ack`). A cursor from another VA answers 2061; one older than retention 2063 (410) with `response.oldest_cursor`; one at a position the service never gave (past the newest event, say) 2064 (409) with `response.acknowledged_cursor`, and nothing is acknowledged. Unknown query parameters are refused (2001). Works in both delivery modes: in `webhook` mode it reads (a replay after an outage) and acknowledgements change nothing.",
    headers: authHeaders,
    query: z
      .object({
        after: afterQuery,
        limit: decimalInt(z.number().int().min(1).max(500)).optional().describe('Events per answer, 1 to 500 (default 100)'),
        wait_seconds: decimalInt(z.number().int().min(0).max(30))
          .optional()
          .describe('Seconds to wait for an event when none is there, 0 to 30 (default 0: answer at once)'),
      })
      .strict(),
    responses: { 200: envelope(4309, eventPageSchema), ...errors(...AUTH_CODES, 2001, 2060, 2061, 2063, 2064) },
  },
  streamEvents: {
    method: 'GET',
    path: '/events/stream',
    summary: "Stream the VA's events (Server-Sent Events)",
    description:
      "The same items as `GET /events`, as Server-Sent Events: `id:` is the item's cursor, `event:` the event type, `data:` the item as one line of JSON. Resume after a disconnect with the `Last-Event-ID` header (browsers' EventSource sends it) or `?after=`; omitted, the stream starts after the VA's acknowledged position. A comment line (`: keep-alive`) comes at least every 15 s. At most 5 streams per VA are open at once, counted over all instances (the next answers 2062, 429). Streaming does not acknowledge: send `POST /events/ack` as you finish events. A stream ends when the server shuts down; reconnect with the last `id:` and nothing is missed or repeated. Errors before the stream starts are the usual envelope. Unknown query parameters are refused (2001).",
    headers: authHeaders.extend({
      'last-event-id': text().max(200).optional().describe('The last `id:` received: the stream resumes after it (instead of `after`)'),
    }),
    query: z.object({ after: afterQuery }).strict(),
    responses: {
      200: c.otherResponse({
        contentType: 'text/event-stream',
        body: eventStream(STREAM_EXAMPLE),
      }),
      ...errors(...AUTH_CODES, 2001, 2060, 2061, 2062, 2063, 2064, 2051),
    },
  },
  ackEvents: {
    method: 'POST',
    path: '/events/ack',
    summary: 'Acknowledge events up to a cursor',
    description:
      'Marks every event of the VA up to and including `cursor` as handled: in `pull` delivery mode they count as delivered (delivery log, metrics, VA health) and later reads without `after` start after it. The acknowledged position never moves back (acknowledging an older cursor changes nothing). In `webhook` mode the answer is the same and nothing changes. `GET /events?after=C` acknowledges up to C too.',
    headers: authHeaders,
    body: ackBodySchema,
    responses: { 200: envelope(4310, ackResultSchema), ...errors(...AUTH_CODES, ...BODY_CODES, 2060, 2061, 2063, 2064) },
  },
});
