import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, tstz, updatedAt } from './_columns';
import { accounts } from './accounts';
import { assets, customers } from './assets';
import { channelEnum, chatStatusEnum, messageTypeEnum } from './enums';
import { teams } from './teams';
import { users } from './users';

export const chats = pgTable(
  'chats',
  {
    /** The public `chat_id` (a UUID, kept as text so any path value compares safely). */
    id: text('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    teamId: integer('team_id')
      .notNull()
      .references(() => teams.id),
    /** Name of a skill of the chat's team, or null. */
    skill: text('skill'),
    status: chatStatusEnum('status').notNull().default('queued'),
    channel: channelEnum('channel').notNull(),
    assetId: integer('asset_id')
      .notNull()
      .references(() => assets.id),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    assigneeId: integer('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    aliasId: text('alias_id'),
    subject: text('subject'),
    threadId: text('thread_id'),
    browserFingerprint: text('browserfingerprint'),
    flag: text('flag'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    otherDetails: jsonb('other_details').$type<Record<string, unknown>>().notNull().default({}),
    routeParams: jsonb('route_params').$type<Record<string, unknown>>().notNull().default({}),
    outcome: text('outcome'),
    closedAt: tstz('closed_at'),
    /** Last event sequence number handed out for this chat; orders its events. */
    eventSeq: integer('event_seq').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // Lists read newest first, `order by updated_at desc, id desc`: PostgreSQL reads a bare DESC as
  // NULLS FIRST, so every list index says so too (drizzle's `.desc()` alone means NULLS LAST, which
  // the planner cannot use for that order). Each filter has an index that ends in the list's order,
  // so a page is a short index walk from the cursor, at any table size. The trigram indexes of the
  // admin search live in a custom migration (they need the pg_trgm extension). A changed index gets
  // a new name, so it can be built concurrently on a live database before the migration drops the
  // old one (README, "Indexes on a live database").
  (t) => [
    index('chats_list_idx').on(t.accountId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('chats_status_list_idx').on(t.accountId, t.status, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('chats_channel_list_idx').on(t.accountId, t.channel, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('chats_assignee_status_list_idx').on(t.assigneeId, t.status, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('chats_assignee_list_idx').on(t.assigneeId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('chats_team_list_idx').on(t.teamId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('chats_team_status_idx').on(t.teamId, t.status, t.createdAt),
    index('chats_account_alias_idx').on(t.accountId, t.aliasId),
    index('chats_customer_idx').on(t.customerId),
    // `id like 'abc%'` (the admin search by the start of a chat ID) needs pattern ops under a non-C collation.
    index('chats_id_prefix_idx').on(t.id.op('text_pattern_ops')),
    index('chats_tags_idx').using('gin', t.tags),
    // Retention finds closed chats by age.
    index('chats_closed_idx').on(t.closedAt).where(sql`${t.status} = 'closed'`),
  ],
);

/** The transcript. `body` holds the message object as accepted (sub types, attachment, quick replies...). */
export const messages = pgTable(
  'messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    chatId: text('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Unique trace of the message, also carried by the events that quote it. */
    transid: text('transid').notNull().unique(),
    type: messageTypeEnum('type').notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    /** Who wrote it: a user's login ID for outbound and announcements, null for the customer. */
    authorLoginId: text('author_login_id'),
    sentAt: tstz('sent_at').notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [index('messages_chat_idx').on(t.chatId, t.id)],
);

/** Remembers the first answer to a POST carrying an `Idempotency-Key`. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** Method, route and body digest: the same key with another request is refused. */
    fingerprint: text('fingerprint').notNull(),
    httpStatus: integer('http_status').notNull(),
    response: jsonb('response').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);
