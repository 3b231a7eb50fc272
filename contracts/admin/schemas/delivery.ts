import { z } from 'zod';
import { dateTimeInput, isoDateTime, named, text } from '../../common';
import { CHANNELS, EVENT_TYPES } from '../../enums';

export const DELIVERY_WINDOWS = ['15m', '1h', '24h'] as const;
export type DeliveryWindow = (typeof DELIVERY_WINDOWS)[number];

export const deliveryStatsQuerySchema = z
  .object({
    window: z.enum(DELIVERY_WINDOWS).optional().describe('How far back to look: `15m`, `1h` (default) or `24h`'),
  })
  .strict();

const count = z.number().int().min(0);

const deliveryBucketSchema = z.object({
  minute: isoDateTime.describe('Start of the bucket (UTC)'),
  delivered: count.describe('Attempts answered HTTP 200'),
  retried: count.describe('Unsuccessful attempts after which the event was tried again (or is due again)'),
  failed: count.describe('Unsuccessful attempts that were the last of an event now `failed` (dead letter)'),
});

export const deliveryStatsSchema = z.object({
  window: z.enum(DELIVERY_WINDOWS),
  from: isoDateTime,
  to: isoDateTime,
  bucket_seconds: z.number().int().describe('Width of each bucket: 60 for 15m and 1h, 600 for 24h'),
  buckets: z.array(deliveryBucketSchema).describe('Every bucket of the window, oldest first, zeros included'),
  totals: z.object({
    attempts: count,
    delivered: count,
    retried: count,
    failed: count,
    superseded: count.describe(
      'Events superseded in the window: their chat left the VA while they waited to be sent or retried, so they were not sent (again). An event in flight when its chat left is counted as its attempt ended',
    ),
  }),
  latency_ms: z
    .object({ p50: z.number().nullable(), p95: z.number().nullable(), p99: z.number().nullable() })
    .describe('Percentiles of attempt duration over the window; null without attempts'),
  top_failing: z
    .array(
      z.object({
        virtual_agent_id: z.number().int(),
        login_id: z.string(),
        name: z.string(),
        attempts: count,
        failed_attempts: count.describe('Attempts not answered HTTP 200'),
        last_error: z.string().nullable(),
        last_error_at: isoDateTime.nullable(),
      }),
    )
    .describe('Up to 5 VAs with the most unsuccessful attempts in the window'),
  backlog: z.object({
    pending: count.describe('Events waiting for delivery now, whatever the window'),
    retrying: count.describe('Pending events that already had at least one attempt'),
    oldest_pending_since: isoDateTime.nullable(),
  }),
});
const minute = (i: number) => new Date(Date.UTC(2026, 2, 2, 9, i)).toISOString();
named('DeliveryStats', deliveryStatsSchema, {
  window: '15m',
  from: minute(0),
  to: '2026-03-02T09:14:31.000Z',
  bucket_seconds: 60,
  buckets: Array.from({ length: 15 }, (_, i) => ({
    minute: minute(i),
    delivered: [12, 9, 14][i % 3],
    retried: i === 13 ? 3 : 0,
    failed: i === 14 ? 1 : 0,
  })),
  totals: { attempts: 179, delivered: 175, retried: 3, failed: 1, superseded: 2 },
  latency_ms: { p50: 84, p95: 412.5, p99: 1980.2 },
  top_failing: [
    {
      virtual_agent_id: 40,
      login_id: 'va-billing-bot',
      name: 'Billing bot',
      attempts: 61,
      failed_attempts: 4,
      last_error: 'HTTP 503',
      last_error_at: '2026-03-02T09:14:02.000Z',
    },
  ],
  backlog: { pending: 2, retrying: 1, oldest_pending_since: '2026-03-02T09:13:40.000Z' },
});

export type DeliveryStats = z.infer<typeof deliveryStatsSchema>;

export const virtualAgentHealthSchema = z.object({
  virtual_agent_id: z.number().int(),
  login_id: z.string(),
  attempts: count.describe('Delivery attempts in the last 24 hours'),
  delivered: count.describe('Of those, answered HTTP 200'),
  success_rate: z.number().min(0).max(1).nullable().describe('delivered / attempts; null without attempts'),
  failed_events: count.describe('Events that failed for good in the last 24 hours'),
  pending: count.describe('Events waiting for delivery now'),
  last_attempt_at: isoDateTime.nullable(),
  last_error: z.string().nullable().describe('Error of the latest unsuccessful attempt in the last 24 hours'),
  last_error_at: isoDateTime.nullable(),
});
named('VirtualAgentHealth', virtualAgentHealthSchema, {
  virtual_agent_id: 40,
  login_id: 'va-billing-bot',
  attempts: 1204,
  delivered: 1198,
  success_rate: 0.995,
  failed_events: 1,
  pending: 2,
  last_attempt_at: '2026-03-02T09:14:07.000Z',
  last_error: 'timed out after 5000 ms',
  last_error_at: '2026-03-02T08:51:19.000Z',
});

export type VirtualAgentHealth = z.infer<typeof virtualAgentHealthSchema>;

export const testEventResultSchema = z.object({
  ok: z.boolean().describe('true when the webhook answered HTTP 200'),
  http_status: z.number().int().nullable().describe('null when no answer came'),
  error: z.string().nullable().describe('Why no answer came (refused address, timeout, connection error), or null'),
  duration_ms: z.number().int(),
  response_excerpt: z.string().nullable().describe('First characters of the answer body'),
  event_type: z.enum(EVENT_TYPES),
  chat_id: z.string().describe('A made-up chat ID starting with `test-`; no chat exists'),
  transaction_id: z.string().describe('Also the `webhook-id` header'),
  sent_at: isoDateTime,
});
named('TestEventResult', testEventResultSchema, {
  ok: true,
  http_status: 200,
  error: null,
  duration_ms: 87,
  response_excerpt: '{"ok":true}',
  event_type: 'chat.assigned',
  chat_id: 'test-3c1e9f0a-7b2d-4e5f-9a8b-1c2d3e4f5a6b',
  transaction_id: '0b8e4c9a-2f1d-4e3b-8a7c-6d5e4f3a2b1c',
  sent_at: '2026-03-02T09:14:07.512Z',
});

export type TestEventResult = z.infer<typeof testEventResultSchema>;

const RECOVERY_STATUSES = ['running', 'done'] as const;

export const startRecoverySchema = z
  .object({
    since: dateTimeInput().describe('Failed events created at or after this time are sent again'),
    until: dateTimeInput().optional().describe('…and before this time; default now'),
  })
  .strict();
named('StartRecoveryBody', startRecoverySchema, { since: '2026-02-27T00:00:00Z' });

export const recoverySchema = z.object({
  id: z.number().int(),
  virtual_agent_id: z.number().int(),
  since: isoDateTime,
  until: isoDateTime,
  status: z.enum(RECOVERY_STATUSES).describe('`running` until every failed event of the window was put back and has left `pending`'),
  total: count.describe('Failed events in the window when the recovery started'),
  requeued: count.describe('Events put back in the queue so far (a batch at a time, oldest first)'),
  delivered: count.describe('Of those, delivered since'),
  failed: count.describe('Of those, failed again (every attempt of the new run used)'),
  pending: count.describe('Of those, still waiting or being retried'),
  created_at: isoDateTime,
  finished_at: isoDateTime.nullable(),
});
named('Recovery', recoverySchema, {
  id: 7,
  virtual_agent_id: 40,
  since: '2026-02-27T00:00:00.000Z',
  until: '2026-03-02T09:10:00.000Z',
  status: 'running',
  total: 1840,
  requeued: 1000,
  delivered: 812,
  failed: 3,
  pending: 185,
  created_at: '2026-03-02T09:10:00.000Z',
  finished_at: null,
});

export type Recovery = z.infer<typeof recoverySchema>;

export const retryNowResultSchema = z.object({
  due_now: z.number().int().min(0).describe('Waiting events of the VA made due now'),
});

export const startTestChatSchema = z
  .object({
    text: text().min(1).max(2000).optional().describe("The customer's first message; a greeting that says it is a test when omitted"),
  })
  .strict();
named('StartTestChatBody', startTestChatSchema, { text: 'Hi, I was charged twice this month.' });

export const testChatSchema = z.object({
  chat_id: z.string().describe('The new chat: open it in the console to write as its customer'),
  channel: z.enum(CHANNELS),
  assignee: z.string().describe("The virtual agent's login ID"),
});
named('TestChat', testChatSchema, { chat_id: '019cadc6-4e1f-7b3a-8c2d-1f0e9d8c7b6a', channel: 'api', assignee: 'va-billing-bot' });

export type TestChat = z.infer<typeof testChatSchema>;
