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

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** PostgreSQL connection string. Unset: embedded PGlite in DATA_DIR. */
  DATABASE_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Directory of the embedded PGlite database. */
  DATA_DIR: z.string().default('./.data/pglite'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /** Seconds to wait for a PostgreSQL connection before the request fails with 2050/503. */
  DATABASE_CONNECT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(60).default(3),
  /** Longest statement (PostgreSQL `statement_timeout`, ms) on the app's connections; migrations are exempt. */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).default(3600),
  /** Requests per minute allowed per account across the bot API. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(6000),
  /** Largest accepted request body, in bytes. */
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(262_144),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  /** Admin sign-in attempts per IP per minute. */
  ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  ADMIN_SESSION_TTL_SECONDS: z.coerce.number().int().min(60).default(43_200),
  DELIVERY_ENGINE: z.enum(['embedded', 'inngest', 'off']).default('embedded'),
  DELIVERY_RETRY_DELAYS_MS: delayList,
  DELIVERY_TIMEOUT_MS: z.coerce.number().int().min(100).default(5000),
  WEBHOOK_ALLOW_PRIVATE: booleanString,
  /** Webhook calls in flight at once per process, over all VAs. */
  DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(128),
  /** Webhook calls in flight at once per VA per process (its share; a hanging bot holds no more). */
  DELIVERY_MAX_IN_FLIGHT_PER_VA: z.coerce.number().int().min(1).max(10_000).default(64),
  /** Consecutive failed calls (no answer, 5xx, 429) that open a VA's circuit. */
  DELIVERY_CIRCUIT_FAILURES: z.coerce.number().int().min(1).default(5),
  /** First pause of an open circuit; it doubles on each failed probe up to DELIVERY_CIRCUIT_MAX_OPEN_MS. */
  DELIVERY_CIRCUIT_OPEN_MS: z.coerce.number().int().min(10).default(5_000),
  DELIVERY_CIRCUIT_MAX_OPEN_MS: z.coerce.number().int().min(10).default(300_000),
  /** Longest `Retry-After` honoured (longer ones are cut to this). */
  DELIVERY_RETRY_AFTER_MAX_MS: z.coerce.number().int().min(1_000).default(600_000),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Bearer token for GET /api/metrics; unset: the endpoint is off (404). */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** On SIGTERM, how long webhook calls in flight may take to finish before their leases are released. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
});

export type Env = z.infer<typeof envSchema>;

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
