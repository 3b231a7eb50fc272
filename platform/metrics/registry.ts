import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { processStore } from '@/platform/util/process-store';

/**
 * The process's Prometheus metrics (served at /api/metrics). Kept on globalThis: route bundles and
 * the instrumentation hook would otherwise each get their own registry.
 */
function create() {
  const registry = new Registry();
  const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
  return {
    registry,
    httpRequests: new Counter({
      name: 'vachat_http_requests_total',
      help: 'API requests answered, by route template, method and HTTP status',
      labelNames: ['route', 'method', 'status'] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'vachat_http_request_duration_seconds',
      help: 'Time to answer an API request, by route template, method and HTTP status',
      labelNames: ['route', 'method', 'status'] as const,
      buckets: seconds,
      registers: [registry],
    }),
    deliveryAttempts: new Counter({
      name: 'vachat_delivery_attempts_total',
      help: 'Webhook attempts recorded, by result: delivered, retry (will be tried again), failed (dead-lettered) or superseded (failed while its chat left the VA: not tried again)',
      labelNames: ['result'] as const,
      registers: [registry],
    }),
    deliveryDuration: new Histogram({
      name: 'vachat_delivery_attempt_duration_seconds',
      help: 'Duration of a webhook attempt (until the answer or the timeout), by result',
      labelNames: ['result'] as const,
      buckets: seconds,
      registers: [registry],
    }),
    replayDeliveryAttempts: new Counter({
      name: 'vachat_replay_delivery_attempts_total',
      help: "Webhook attempts of replays (a sandbox's events, docs/guide/replay.md), by result; counted here only, never in the live counters",
      labelNames: ['result'] as const,
      registers: [registry],
    }),
    rateLimitRefusals: new Counter({
      name: 'vachat_rate_limit_refusals_total',
      help: 'Requests refused with 2012/429, by budget (api, login)',
      labelNames: ['budget'] as const,
      registers: [registry],
    }),
    replyTimeouts: new Counter({
      name: 'vachat_reply_timeouts_total',
      help: "Chats whose customer waited longer than the VA's reply budget, by action taken: handover or notify",
      labelNames: ['action'] as const,
      registers: [registry],
    }),
    streamsCutShort: new Counter({
      name: 'vachat_streams_cut_short_total',
      help: 'Streamed replies closed for the VA because no chunk came for STREAM_IDLE_SECONDS',
      registers: [registry],
    }),
    liveViewReads: new Counter({
      name: 'vachat_live_view_reads_total',
      help: "Reads of the database by live views (widget, workspace, console chat page, pulled events), by view: one at each stream's start, then one for each wake a view could not serve from the change it carried",
      labelNames: ['view'] as const,
      registers: [registry],
    }),
    liveStreamRefusals: new Counter({
      name: 'vachat_live_stream_refusals_total',
      help: 'Live streams refused with 2051/503 because this instance held as many as it can (EVENT_STREAMS_PER_INSTANCE)',
      registers: [registry],
    }),
    databaseUnavailable: new Counter({
      name: 'vachat_database_unavailable_total',
      help: 'Requests answered 2050/503 because the database could not be reached',
      registers: [registry],
    }),
  };
}

type Metrics = ReturnType<typeof create>;
const store = processStore<{ __vaMetrics?: Metrics }>();

export function metrics(): Metrics {
  store.__vaMetrics ??= create();
  return store.__vaMetrics;
}

/** Gauges computed at scrape time (backlog, circuits, pool) register here; see collect-gauges.ts. */
export function gauge(name: string, help: string, labelNames: string[], collect: (g: Gauge) => Promise<void> | void): void {
  const { registry } = metrics();
  if (registry.getSingleMetric(name)) return;
  new Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      await collect(this);
    },
  });
}

/**
 * Records one answered API request. Called once per request by the API pipeline, with the route's
 * template (never the raw path, which carries ids) or `unmatched`.
 */
export function recordHttp({ route, method, status, seconds }: { route: string; method: string; status: number; seconds: number }): void {
  const m = metrics();
  const labels = { route, method, status: String(status) };
  m.httpRequests.inc(labels);
  m.httpDuration.observe(labels, seconds);
}
