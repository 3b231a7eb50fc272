import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { tstz } from './_columns';

/**
 * Rate-limit counters shared by every instance on one PostgreSQL database (platform/limits): one row
 * per limited key and fixed window, counted by one atomic upsert per hit. UNLOGGED (custom
 * migration `rate_limits_unlogged`): a crash may forget the current windows, which only resets
 * some budgets early, and no write-ahead log is written on the bot API's hot path. Rows whose
 * window ended are deleted by the retention jobs.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    /** `<limiter>:<points>:<seconds>:<key>`, e.g. `api:6000:60:account:12`. */
    key: text('key').primaryKey(),
    points: integer('points').notNull(),
    expiresAt: tstz('expires_at').notNull(),
  },
  (t) => [index('rate_limits_expires_idx').on(t.expiresAt)],
);
