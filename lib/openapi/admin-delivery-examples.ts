/** Examples of the admin delivery tools (test event, delivery stats, VA health, recoveries), by operationId. */

const minute = (i: number) => new Date(Date.UTC(2026, 2, 2, 9, i)).toISOString();

const RECOVERY = {
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
};

export const ADMIN_DELIVERY_REQUEST_EXAMPLES: Record<string, unknown> = {
  adminStartRecovery: { since: '2026-02-27T00:00:00Z' },
  adminStartTestChat: { text: 'Hi, I was charged twice this month.' },
};

export const ADMIN_DELIVERY_SUCCESS_EXAMPLES: Record<string, unknown> = {
  adminStartRecovery: { ...RECOVERY, requeued: 0, delivered: 0, failed: 0, pending: 0 },
  adminListRecoveries: [
    RECOVERY,
    {
      ...RECOVERY,
      id: 5,
      since: '2026-02-20T00:00:00.000Z',
      until: '2026-02-21T00:00:00.000Z',
      status: 'done',
      total: 12,
      requeued: 12,
      delivered: 12,
      failed: 0,
      pending: 0,
      created_at: '2026-02-21T08:00:00.000Z',
      finished_at: '2026-02-21T08:00:09.000Z',
    },
  ],
  adminRetryNow: { due_now: 3 },
  adminStartTestChat: { chat_id: '019cadc6-4e1f-7b3a-8c2d-1f0e9d8c7b6a', channel: 'api', assignee: 'va-billing-bot' },
  adminSendTestEvent: {
    ok: true,
    http_status: 200,
    error: null,
    duration_ms: 87,
    response_excerpt: '{"ok":true}',
    event_type: 'chat.assigned',
    chat_id: 'test-3c1e9f0a-7b2d-4e5f-9a8b-1c2d3e4f5a6b',
    transaction_id: '0b8e4c9a-2f1d-4e3b-8a7c-6d5e4f3a2b1c',
    sent_at: '2026-03-02T09:14:07.512Z',
  },
  adminGetDeliveryStats: {
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
  },
  adminListVirtualAgentHealth: [
    {
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
    },
  ],
};
