import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
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
    /**
     * The assigned VA's typing indicator: on while `typing_until` is in the future (read time
     * decides, so nothing sweeps it), with its optional status line. Cleared by the VA's next
     * outbound message and whenever the chat leaves the VA (lib/chats/set-typing.ts).
     */
    typingUntil: tstz('typing_until'),
    typingStatus: text('typing_status'),
    /** Since when the customer has been waiting for the VA holding the chat (null: answered, or no VA). */
    awaitingReplySince: tstz('awaiting_reply_since'),
    /** When the VA's reply budget runs out (null: no clock running); typing pushes it back (lib/chats/reply-clock.ts). */
    replyDueAt: tstz('reply_due_at'),
    /**
     * Since when the chat waits in its team's queue (set whenever it becomes queued; the agent
     * workspace's queue is read oldest first by it), and why it is there: `new`, `transfer` (by
     * a bot, an agent or an administrator), `requeued`, `reply_timeout`, `bot_down`, `rerouted`
     * (taken from a VA whose webhook failed before it heard of the chat, and given to another VA
     * of the team in the same change: lib/chats/reroute-chat.ts).
     */
    queuedAt: tstz('queued_at').notNull().defaultNow(),
    queueReason: text('queue_reason'),
    /**
     * The assignee was given the chat by auto-assign, and has not changed it through the API since
     * (a PATCH by the assignee clears it, as does any other assignment). One of the conditions of
     * a re-route away from a VA whose webhook failed (lib/chats/reroute-chat.ts).
     */
    autoAssigned: boolean('auto_assigned').notNull().default(false),
    /** The replay run that made this chat (lib/replay), in a sandbox account; null for every live chat. Its events carry `replay`. */
    replayRunId: text('replay_run_id'),
    /** The latest turn of the customer for the VA holding the chat (lib/turns); null before the first. */
    turnId: text('turn_id'),
    /** The customer is typing until then (the widget says so); null: not typing, or no typing signal. */
    customerTypingUntil: tstz('customer_typing_until'),
    /**
     * Handover context the bot prepared ahead (PATCH /chats `handover`), carried by the chat's next
     * handover that brings none of its own (the fallback, the reply budget, a person taking over,
     * the customer asking for a person), then cleared.
     */
    handoverContext: jsonb('handover_context').$type<Record<string, unknown>>(),
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
    // A recording export walks an account's chats oldest first by keyset, optionally within a time window (lib/replay).
    index('chats_account_created_idx').on(t.accountId, t.createdAt, t.id),
    // `id like 'abc%'` (the admin search by the start of a chat ID) needs pattern ops under a non-C collation.
    index('chats_id_prefix_idx').on(t.id.op('text_pattern_ops')),
    index('chats_tags_idx').using('gin', t.tags),
    // Retention finds closed chats by age.
    index('chats_closed_idx').on(t.closedAt).where(sql`${t.status} = 'closed'`),
    // The reply-budget sweep reads only chats with a running clock; the VA page lists the chats waiting on it.
    index('chats_reply_due_idx').on(t.replyDueAt).where(sql`${t.replyDueAt} is not null`),
    // The agent workspace's queue: a team's waiting, unassigned chats, oldest first.
    index('chats_queue_idx').on(t.teamId, t.queuedAt, t.id).where(sql`${t.status} = 'queued' and ${t.assigneeId} is null`),
    index('chats_awaiting_reply_idx').on(t.assigneeId, t.awaitingReplySince).where(sql`${t.awaitingReplySince} is not null`),
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
    /**
     * A streamed reply (lib/chats/append-chunk.ts): `open` while chunks are appended to
     * `body.text`, then `closed`, or `cut_short` when it went idle or the chat left the VA. Null for
     * every other message. `stream_seq` is the last chunk accepted and `stream_ends` where each
     * chunk ends in the text (UTF-16 units, as the API counts length), so a retried chunk is
     * recognised without a row per chunk.
     */
    streamState: text('stream_state', { enum: ['open', 'closed', 'cut_short', 'superseded'] }),
    streamSeq: integer('stream_seq'),
    streamEnds: integer('stream_ends').array(),
    /** The last chunk (or the opening): the idle sweep closes a stream untouched for STREAM_IDLE_SECONDS. */
    streamTouchedAt: tstz('stream_touched_at'),
    /**
     * Turns (lib/turns): an inbound message's turn; an outbound reply's `in_reply_to_turn`. `stale`:
     * a reply accepted for a turn that was no longer the latest (the VA's `on_new_turn` is `continue`).
     */
    turnId: text('turn_id'),
    stale: boolean('stale'),
  },
  (t) => [
    index('messages_chat_idx').on(t.chatId, t.id),
    // Only open streams are in these: the idle sweep reads the oldest, a handover closes a chat's.
    index('messages_open_stream_idx').on(t.streamTouchedAt).where(sql`${t.streamState} = 'open'`),
    index('messages_open_stream_chat_idx').on(t.chatId).where(sql`${t.streamState} = 'open'`),
  ],
);

/**
 * Each time a VA's reply budget ran out on a chat (lib/chats/sweep-reply-clocks.ts): what was done
 * (`handover` or `notify`) and how long the customer had waited. The VA page lists them; kept as
 * long as delivered events (EVENT_RETENTION_DAYS).
 */
export const replyTimeouts = pgTable(
  'reply_timeouts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    virtualAgentId: integer('virtual_agent_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    chatId: text('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    action: text('action', { enum: ['handover', 'notify'] }).notNull(),
    waitedSeconds: integer('waited_seconds').notNull(),
    at: tstz('at').notNull().defaultNow(),
  },
  (t) => [
    index('reply_timeouts_va_idx').on(t.virtualAgentId, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('reply_timeouts_at_idx').on(t.at),
    index('reply_timeouts_chat_idx').on(t.chatId),
  ],
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
