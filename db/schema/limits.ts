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

/**
 * The server instances holding open widget streams: one row per process, its `seen_at` refreshed
 * every 15 s while it holds any. An instance not seen for a minute has died; deleting its row
 * deletes its streams' rows with it (the foreign key below cascades).
 */
export const widgetStreamInstances = pgTable('widget_stream_instances', {
  id: text('id').primaryKey(),
  seenAt: tstz('seen_at').notNull().defaultNow(),
});

/**
 * Open chat-widget streams, so the caps per customer and per chat (WIDGET_STREAMS_PER_CUSTOMER,
 * WIDGET_STREAMS_PER_CHAT) hold across instances. A row is written when a stream is admitted and
 * deleted when it ends. A row counts while its instance is alive (`widget_stream_instances`): one
 * row per instance is refreshed, not one per stream. Rows without an instance were written by the
 * release before, which refreshed each row's `seen_at`; they count while that is under a minute old.
 */
export const widgetStreams = pgTable(
  'widget_streams',
  {
    id: text('id').primaryKey(),
    /** `<asset id>:<livechat id>`: the customer the credential names. */
    customer: text('customer').notNull(),
    chatId: text('chat_id').notNull(),
    /** When the stream opened; the release before refreshed it every 15 s (rows without an instance). */
    seenAt: tstz('seen_at').notNull().defaultNow(),
    instanceId: text('instance_id').references(() => widgetStreamInstances.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('widget_streams_customer_idx').on(t.customer),
    index('widget_streams_chat_idx').on(t.chatId),
    index('widget_streams_seen_idx').on(t.seenAt),
    index('widget_streams_instance_idx').on(t.instanceId),
  ],
);
