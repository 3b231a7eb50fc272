import ipaddr from 'ipaddr.js';
import { z } from 'zod';

const booleanString = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const delayList = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (!v) return undefined;
    const parts = v.split(',').map((p) => Number(p.trim()));
    if (parts.some((n) => !Number.isInteger(n) || n < 0)) {
      ctx.addIssue({ code: 'custom', message: 'must be comma-separated non-negative integers (ms)' });
      return z.NEVER;
    }
    return parts;
  });

/**
 * A retention period in days: a whole number in production; decimals down to 0.001 (86 s) let a
 * soak or a drill see rows deleted within the hour (bench:soak runs with minutes).
 */
const retentionDays = (fallback: number) => z.coerce.number().min(0.001).default(fallback);

/**
 * TRUSTED_PROXIES: empty (no proxy: the socket address is the client), a hop count (`1`: one
 * proxy in front; take the address it saw), or a comma-separated list of proxy addresses/CIDRs.
 */
const trustedProxies = z
  .string()
  .optional()
  .transform((v, ctx): TrustedProxies => {
    const raw = (v ?? '').trim();
    if (raw === '' || raw === '0') return { kind: 'none' };
    if (/^\d+$/.test(raw)) {
      const hops = Number(raw);
      if (hops > 20) {
        ctx.addIssue({ code: 'custom', message: 'a hop count above 20 is not plausible' });
        return z.NEVER;
      }
      return { kind: 'hops', hops };
    }
    const cidrs: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
    for (const part of raw.split(',').map((p) => p.trim())) {
      try {
        cidrs.push(part.includes('/') ? ipaddr.parseCIDR(part) : singleHost(part));
      } catch {
        ctx.addIssue({ code: 'custom', message: `"${part}" is neither an IP address nor a CIDR range` });
        return z.NEVER;
      }
    }
    return { kind: 'cidrs', cidrs };
  });

export type TrustedProxies =
  | { kind: 'none' }
  | { kind: 'hops'; hops: number }
  | { kind: 'cidrs'; cidrs: [ipaddr.IPv4 | ipaddr.IPv6, number][] };

function singleHost(address: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  const ip = ipaddr.process(address);
  return [ip, ip.kind() === 'ipv4' ? 32 : 128];
}

export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    /** PostgreSQL connection string. Unset: embedded PGlite in DATA_DIR. */
    DATABASE_URL: z
      .string()
      .url()
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /** Directory of the embedded PGlite database. */
    DATA_DIR: z.string().default('./.data/pglite'),
    /** Port of `npm start`; also the port the start banner's URLs and the demo bot's webhook are built on. */
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    /** Seconds to wait for a PostgreSQL connection before the request fails with 2050/503. */
    DATABASE_CONNECT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(60).default(3),
    /** Longest statement (PostgreSQL `statement_timeout`, ms) on the app's connections; migrations are exempt. */
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
    ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).default(3600),
    /**
     * Seconds a checked access token is remembered by an instance (0: every call looks it up).
     * Revocations reach every instance at once on PostgreSQL; this bounds a missed one.
     */
    TOKEN_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
    /** Requests per minute allowed per account across the bot API. */
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(6000),
    /**
     * Where rate limits count: `database` (the `rate_limits` table, shared by every instance on one
     * database) or `memory` (per process). Default: `database` with DATABASE_URL, else `memory`.
     */
    RATE_LIMIT_STORE: z.enum(['database', 'memory']).optional(),
    /** Largest accepted request body, in bytes. */
    MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(262_144),
    /** Longest wait for a request body to arrive in full, in ms (a slowly sent body is refused, 2015/408). */
    BODY_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
    /**
     * Longest wait for a request's headers, in ms, on every path of `npm start`'s server (a client
     * sending them slowly gets 2015/408 and the connection is closed). The whole request (headers and
     * body) is given HEADERS_TIMEOUT_MS + BODY_TIMEOUT_MS.
     */
    HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
    ADMIN_EMAIL: z.string().email().optional(),
    /** Checked against the password policy at start (platform/auth/password-policy.ts). */
    ADMIN_PASSWORD: z.string().optional(),
    /** Admin sign-in attempts per client address per minute. */
    ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: z.coerce.number().int().min(1).default(10),
    /** Which forwarded addresses to believe (see trustedProxies above); default none. */
    TRUSTED_PROXIES: trustedProxies,
    /** Failed sign-ins on one account (from anywhere) before each further one costs a growing wait. */
    ADMIN_LOGIN_FREE_FAILURES: z.coerce.number().int().min(1).default(5),
    /** Failed sign-ins from one client address per hour, over all accounts. */
    ADMIN_LOGIN_FAILURES_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(100),
    /** Admin API requests per session per minute. */
    ADMIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
    /** Failed `/authorize` and invalid-token calls per client address per minute. */
    BOT_AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    /** How long the previous signing secret keeps signing deliveries after a rotation. */
    SIGNING_SECRET_OVERLAP_SECONDS: z.coerce.number().int().min(0).default(86_400),
    /** How long the previous API key keeps authorizing after a rotation with overlap. */
    API_KEY_OVERLAP_SECONDS: z.coerce.number().int().min(0).default(86_400),
    /** Audit entries older than this are deleted by the retention jobs. */
    AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).default(365),
    /**
     * The bot request log (lib/request-log): `all` records the calls of a known VA (failures all,
     * successes as BOT_REQUEST_LOG_SAMPLE_RATE says), `failures` only answers of 400 and above, `off` nothing.
     */
    BOT_REQUEST_LOG: z.enum(['all', 'failures', 'off']).default('all'),
    /**
     * Share of the chats whose successful calls are recorded under `all`, 0 to 1, chosen by chat ID
     * (calls about no chat: by trxid); failures are always recorded. Default (`botRequestSampleRate`):
     * half with DATABASE_URL, since recording every success cost bench:api 7 % of its throughput,
     * over the 5 % budget (BENCHMARKS.md); every call on the embedded database, which serves a
     * demo or a trial, not production load.
     */
    BOT_REQUEST_LOG_SAMPLE_RATE: z.coerce.number().min(0).max(1).optional(),
    /** Days request log rows are kept. */
    BOT_REQUEST_LOG_RETENTION_DAYS: retentionDays(7),
    /** Rows the log may hold in memory waiting for a write; past it new rows are dropped and counted. */
    BOT_REQUEST_LOG_MAX_BUFFER: z.coerce.number().int().min(100).max(1_000_000).default(20_000),
    ADMIN_SESSION_TTL_SECONDS: z.coerce.number().int().min(60).default(43_200),
    DELIVERY_ENGINE: z.enum(['embedded', 'inngest', 'off']).default('embedded'),
    DELIVERY_RETRY_DELAYS_MS: delayList,
    DELIVERY_TIMEOUT_MS: z.coerce.number().int().min(100).default(5000),
    WEBHOOK_ALLOW_PRIVATE: booleanString,
    /**
     * Checks every answer body against the contract's response schema and turns a mismatch into a
     * logged 500 (2007). For tests and development: a route that answers what the contract does not
     * say fails loudly instead of reaching a client.
     */
    VALIDATE_RESPONSES: booleanString,
    /** Webhook calls in flight at once per process, over all VAs. */
    DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(256),
    /** Webhook calls in flight at once per VA per process (its share; a hanging bot holds no more). */
    DELIVERY_MAX_IN_FLIGHT_PER_VA: z.coerce.number().int().min(1).max(10_000).default(128),
    /** Consecutive failed calls (no answer, 5xx, 429) that open a VA's circuit. */
    DELIVERY_CIRCUIT_FAILURES: z.coerce.number().int().min(1).default(5),
    /** First pause of an open circuit; it doubles on each failed probe up to DELIVERY_CIRCUIT_MAX_OPEN_MS. */
    DELIVERY_CIRCUIT_OPEN_MS: z.coerce.number().int().min(10).default(5_000),
    DELIVERY_CIRCUIT_MAX_OPEN_MS: z.coerce.number().int().min(10).default(300_000),
    /** Longest `Retry-After` honoured (longer ones are cut to this). */
    DELIVERY_RETRY_AFTER_MAX_MS: z.coerce.number().int().min(1_000).default(600_000),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    /** Retention (lib/retention): days a delivered event and its attempts are kept. */
    EVENT_RETENTION_DAYS: retentionDays(30),
    /** Days a replay run, its recorded and replayed lines and its sandbox chats are kept (lib/replay). */
    REPLAY_RETENTION_DAYS: retentionDays(30),
    /**
     * A running replay whose process has shown no sign of life for this long (it stopped or
     * restarted mid-run) is marked `interrupted` (lib/replay); a live run beats every quarter of it.
     */
    REPLAY_STALL_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
    /** Days a failed event (still redeliverable until then) and its attempts are kept. */
    FAILED_EVENT_RETENTION_DAYS: retentionDays(90),
    /** Days a closed chat, its transcript and events are kept; unset keeps them for ever. */
    CHAT_RETENTION_DAYS: z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined || v === '') return undefined;
        const n = Number(v);
        if (!Number.isFinite(n) || n < 0.001) {
          ctx.addIssue({ code: 'custom', message: 'must be a number of days (at least 0.001), or unset to keep closed chats' });
          return z.NEVER;
        }
        return n;
      }),
    /** Days the per-minute delivery rollups (charts, VA health) are kept. */
    ROLLUP_RETENTION_DAYS: z.coerce.number().int().min(2).default(90),
    /** Rows per retention delete statement. */
    RETENTION_BATCH_SIZE: z.coerce.number().int().min(1).max(100_000).default(1000),
    /** Minutes between retention runs of the embedded engine (Inngest runs it hourly by cron). */
    RETENTION_INTERVAL_MINUTES: z.coerce.number().int().min(1).default(60),
    /** A VA's webhook with nothing but failures for this long is marked failing (default 3 days). */
    WEBHOOK_FAILING_AFTER_SECONDS: z.coerce.number().int().min(1).default(259_200),
    /**
     * Bot-down fallback of `pull` VAs: a VA that has neither read nor held a stream open for this
     * long while an event of a chat it holds has waited as long loses the chat to its fallback team.
     * Unset: the webhook retry schedule's total (DELIVERY_RETRY_DELAYS_MS), the time a webhook
     * VA's event takes to fail for good, so both modes wait alike.
     */
    PULL_IDLE_FALLBACK_SECONDS: z.coerce.number().int().min(60).optional(),
    /**
     * Turns (docs/guide/turns.md): how long a turn waits, after a message from a widget customer who is
     * not typing, for typing to start again before it closes. Longer gathers the bursts of customers
     * who pause after sending; a lone message reaches the bot about this much later than with no window.
     */
    TURN_NOT_TYPING_GRACE_MS: z.coerce.number().int().min(0).max(2000).default(150),
    /** A streamed reply left this long without a chunk is closed with what it holds, marked cut short. */
    STREAM_IDLE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
    /**
     * Longest a reply sent as one event stream (POST /chats/{chat_id}/messages/stream) may take; past
     * it the reply is cut short (2133). `npm start`'s server gives a request this long beside the headers' time.
     */
    REPLY_STREAM_MAX_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
    /** Where operational events (a webhook marked failing, recovered) are POSTed; unset: none are sent. */
    OPS_WEBHOOK_URL: z
      .string()
      .url()
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /** Standard Webhooks secret (`whsec_` + base64) that signs the operational events; required with OPS_WEBHOOK_URL. */
    OPS_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]{16,}={0,2}$/, 'must be whsec_ followed by a base64 key')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /**
     * The service's public address (`https://chat.example.com`), used in the chat widget's embed
     * snippet and link. Unset: the address the admin's request came to.
     */
    PUBLIC_URL: z
      .string()
      .url()
      .regex(/^https?:\/\/[^/]+\/?$/, 'must be an origin such as https://chat.example.com (no path)')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /** Chat widget: messages (and new chats) per customer per minute. */
    WIDGET_MESSAGES_PER_MINUTE: z.coerce.number().int().min(1).default(20),
    /** Chat widget: requests per client address per minute, over every customer behind it. */
    WIDGET_REQUESTS_PER_MINUTE_PER_ADDRESS: z.coerce.number().int().min(1).default(300),
    /** Chat widget: new customer credentials per client address per hour. */
    WIDGET_VISITORS_PER_HOUR_PER_ADDRESS: z.coerce.number().int().min(1).default(30),
    /** Chat widget: event streams one customer may hold open at once, over all instances (2066 past it). */
    WIDGET_STREAMS_PER_CUSTOMER: z.coerce.number().int().min(1).max(1000).default(10),
    /** Chat widget: event streams open on one chat at once, over all instances (2066 past it). */
    WIDGET_STREAMS_PER_CHAT: z.coerce.number().int().min(1).max(1000).default(5),
    /**
     * Live streams (pulled events, widget, workspace, console chat page) one instance holds at once
     * (2051/503 past it). Unset: the process's open-file limit less a tenth (at least 256) kept for
     * the database pool, webhook calls and other requests.
     */
    EVENT_STREAMS_PER_INSTANCE: z.coerce.number().int().min(1).optional(),
    /** Chat widget: days a customer credential stays valid (the browser keeps it; a new one starts a new customer). */
    WIDGET_CREDENTIAL_DAYS: z.coerce.number().int().min(1).max(3650).default(180),
    /** Bearer token for GET /api/metrics; unset: the endpoint is off (404). */
    METRICS_TOKEN: z.string().min(16).optional(),
    /** On SIGTERM, how long webhook calls in flight may take to finish before their leases are released. */
    SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
    /** Tests only, set by `npm test` on PostgreSQL: the migrated database each test file copies. */
    TEST_DB_TEMPLATE: z.string().optional(),
    /** Tests only, set by `npm test` on the embedded database: a dump of a migrated database each test file loads. */
    TEST_PGLITE_TEMPLATE: z.string().optional(),
  })
  .superRefine((e, ctx) => {
    if (e.OPS_WEBHOOK_URL && !e.OPS_WEBHOOK_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['OPS_WEBHOOK_SECRET'], message: 'is required when OPS_WEBHOOK_URL is set' });
    }
  });

export type Env = z.infer<typeof envSchema>;

/** BOT_REQUEST_LOG_SAMPLE_RATE, or its default: 0.5 on PostgreSQL (DATABASE_URL), 1 on the embedded database. */
export function botRequestSampleRate(e: Env = env()): number {
  return e.BOT_REQUEST_LOG_SAMPLE_RATE ?? (e.DATABASE_URL ? 0.5 : 1);
}

let cached: Env | undefined;

/** Variables whose values are never echoed back in a configuration error. */
const SECRET = /PASSWORD|SECRET|_KEY$|URL$|^METRICS_TOKEN$/;

/** One line per bad variable (`NAME=value: problem`; secrets without their value), or none. */
export function environmentProblems(source: Record<string, string | undefined> = process.env): string[] {
  const parsed = envSchema.safeParse(source);
  if (parsed.success) return [];
  const byName = new Map<string, string[]>();
  for (const issue of parsed.error.issues) {
    const name = issue.path.join('.');
    byName.set(name, [...(byName.get(name) ?? []), issue.message]);
  }
  return [...byName].map(([name, messages]) => {
    const value = source[name];
    const shown = value === undefined ? `${name} (unset)` : SECRET.test(name) ? name : `${name}=${value}`;
    return `${shown}: ${messages.join('; ')}`;
  });
}

/** The validated environment. Read once; tests may call `resetEnv()` after changing process.env. */
export function env(): Env {
  if (!cached) {
    const parsed = envSchema.safeParse(process.env);
    if (!parsed.success) throw new Error(`Invalid environment: ${environmentProblems().join('; ')}`);
    cached = parsed.data;
  }
  return cached;
}

export function resetEnv(): void {
  cached = undefined;
}
