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
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Tests only, set by `npm test` on PostgreSQL: the migrated database each test file copies. */
  TEST_DB_TEMPLATE: z.string().optional(),
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

/** The validated environment. Read once; tests may call `resetEnv()` after changing process.env. */
export function env(): Env {
  if (!cached) {
    const parsed = envSchema.safeParse(process.env);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw new Error(`Invalid environment: ${problems}`);
    }
    cached = parsed.data;
  }
  return cached;
}

export function resetEnv(): void {
  cached = undefined;
}
