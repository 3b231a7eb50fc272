import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, tstz, updatedAt } from './_columns';
import { accounts } from './accounts';
import { chats } from './chats';
import { eventStatusEnum, eventTypeEnum } from './enums';
import { users } from './users';

/**
 * The outbox: one row per event per virtual agent, written in the transaction of the change that
 * caused it. `seq` orders a chat's events; only the lowest pending `seq` of a (chat, VA) is sent.
 */
export const events = pgTable(
  'events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Stable across retries and redeliveries; also the `webhook-id` header. */
    transactionId: text('transaction_id').notNull().unique(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    chatId: text('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    virtualAgentId: integer('virtual_agent_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventType: eventTypeEnum('event_type').notNull(),
    seq: integer('seq').notNull(),
    /** The event body without `posted_on`, which is stamped on each attempt. */
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    status: eventStatusEnum('status').notNull().default('pending'),
    attemptCount: integer('attempt_count').notNull().default(0),
    nextAttemptAt: tstz('next_attempt_at').notNull().defaultNow(),
    /** A worker holding the event until this time; others skip it. */
    lockedUntil: tstz('locked_until'),
    lastError: text('last_error'),
    deliveredAt: tstz('delivered_at'),
    failedAt: tstz('failed_at'),
    /** The recovery job (event_recoveries) that last put this failed event back in the queue. */
    recoveryId: bigint('recovery_id', { mode: 'number' }),
    /**
     * When the event was superseded: its chat left the VA while it waited to be sent or retried, so
     * it is not sent (again); the VA got `chat.unassigned` instead. An event in flight is never
     * superseded while its attempt runs. Kept for the admin pages, removed by retention.
     */
    supersededAt: tstz('superseded_at'),
    /**
     * The position of the event in its VA's pull order (GET /events): the writing transaction's id,
     * raised to the previous event of the same chat and VA so a chat's events keep their order. A
     * reader takes only rows whose `stream_xid` is below its snapshot's xmin, all of which have
     * committed, so no row can later appear behind a cursor (lib/pull/read-event-page.ts).
     */
    streamXid: bigint('stream_xid', { mode: 'number' }).notNull().default(sql`(pg_current_xact_id()::text)::bigint`),
    /**
     * A `message.received` gathering a customer's turn (lib/turns): `turn_id` names the turn. While
     * `held_until` is set the turn's window is open: the event is out of the due range and out of the
     * pull order (`stream_xid` at HELD_XID) and takes the customer's next fragments; it is released
     * (put in order, made due) when the window closes, never after `held_cap_at`. `held_ms` and
     * `turn_closed_by` (typing, window, cap, event) say afterwards how long it was held and why it closed.
     */
    turnId: text('turn_id'),
    heldUntil: tstz('held_until'),
    heldCapAt: tstz('held_cap_at'),
    heldMs: integer('held_ms'),
    turnClosedBy: text('turn_closed_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The pull order of one VA (GET /events, the stream, acknowledgements).
    index('events_va_stream_idx').on(t.virtualAgentId, t.streamXid, t.id),
    index('events_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('events_chat_va_seq_idx').on(t.chatId, t.virtualAgentId, t.seq),
    index('events_account_created_idx').on(t.accountId, t.createdAt.desc()),
    index('events_va_created_idx').on(t.virtualAgentId, t.createdAt.desc()),
    // The backlog and health counts read only pending and recently failed events; retention reads
    // delivered and failed events by age. Partial indexes keep each of those reads off the bulk.
    index('events_account_pending_idx').on(t.accountId, t.virtualAgentId, t.createdAt).where(sql`${t.status} = 'pending'`),
    index('events_account_failed_idx').on(t.accountId, t.failedAt).where(sql`${t.status} = 'failed'`),
    index('events_delivered_at_idx').on(t.deliveredAt).where(sql`${t.status} = 'delivered'`),
    // A recovery walks a VA's failed events in time order; its progress counts the events it requeued.
    index('events_va_failed_created_idx').on(t.virtualAgentId, t.createdAt, t.id).where(sql`${t.status} = 'failed'`),
    index('events_recovery_idx').on(t.recoveryId, t.status).where(sql`${t.recoveryId} is not null`),
    // On the timestamp, not the status: a migration cannot use an enum value it adds.
    index('events_account_superseded_idx').on(t.accountId, t.supersededAt).where(sql`${t.supersededAt} is not null`),
    index('events_superseded_at_idx').on(t.supersededAt).where(sql`${t.supersededAt} is not null`),
    // The turn closer reads the held events by due time (a handful at any moment).
    index('events_held_idx').on(t.heldUntil).where(sql`${t.heldUntil} is not null`),
  ],
);

/**
 * "Recover failed events since T": a background job that puts every failed event of one VA
 * created in [since, until) back in the queue, in time order, a batch at a time (the next batch
 * once the previous one has left `pending`). `cursor_*` is the last event requeued; the counts of
 * its events by status are read from `events.recovery_id`.
 */
export const eventRecoveries = pgTable(
  'event_recoveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    virtualAgentId: integer('virtual_agent_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    since: tstz('since').notNull(),
    until: tstz('until').notNull(),
    /** `running` or `done`. */
    status: text('status').$type<'running' | 'done'>().notNull().default('running'),
    /** Failed events in the window when the job started. */
    total: integer('total').notNull(),
    requeued: integer('requeued').notNull().default(0),
    cursorCreatedAt: tstz('cursor_created_at'),
    cursorId: bigint('cursor_id', { mode: 'number' }),
    /** An instance advancing the job holds it until this time. */
    lockedUntil: tstz('locked_until'),
    finishedAt: tstz('finished_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('event_recoveries_va_created_idx').on(t.virtualAgentId, t.createdAt),
    index('event_recoveries_running_idx').on(t.createdAt).where(sql`${t.status} = 'running'`),
    index('event_recoveries_finished_idx').on(t.finishedAt).where(sql`${t.status} = 'done'`),
  ],
);

export const deliveryAttempts = pgTable(
  'delivery_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    attemptNumber: integer('attempt_number').notNull(),
    startedAt: tstz('started_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    /** HTTP status of the answer; null when no answer came (network error, timeout, refused address). */
    httpStatus: integer('http_status'),
    error: text('error'),
    /** First bytes of the answer body. */
    responseExcerpt: text('response_excerpt'),
    createdAt: createdAt(),
  },
  (t) => [index('delivery_attempts_event_idx').on(t.eventId, t.attemptNumber), index('delivery_attempts_started_idx').on(t.startedAt)],
);

/**
 * Per-minute delivery outcomes of each VA, kept up to date by triggers (custom migration
 * `scale_rollup_triggers`) as attempts are recorded and events fail or are put back, so the
 * delivery charts and VA health read at most one row per VA per minute whatever the number of
 * attempts. `failed` counts attempts that made their event fail for good; the rest of `not_ok`
 * were retried. Rows outlive the attempts they count (see retention).
 */
export const deliveryRollups = pgTable(
  'delivery_rollups',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    virtualAgentId: integer('virtual_agent_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    minute: tstz('minute').notNull(),
    attempts: integer('attempts').notNull().default(0),
    delivered: integer('delivered').notNull().default(0),
    notOk: integer('not_ok').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    lastAttemptAt: tstz('last_attempt_at'),
    lastErrorAt: tstz('last_error_at'),
    lastError: text('last_error'),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.minute, t.virtualAgentId] }), index('delivery_rollups_minute_idx').on(t.minute)],
);

/**
 * How many attempts of the account took each duration, per minute, for the latency percentiles.
 * Durations under 100 ms are kept to the millisecond, longer ones to two significant figures
 * (at most 5 % off), so a minute holds a few hundred rows at most.
 */
export const deliveryLatencyRollups = pgTable(
  'delivery_latency_rollups',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    minute: tstz('minute').notNull(),
    durationMs: integer('duration_ms').notNull(),
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.minute, t.durationMs] }), index('delivery_latency_rollups_minute_idx').on(t.minute)],
);

/**
 * Each VA's position in its pull order (lib/pull): what it acknowledged, when it last read, and the
 * newest event retention removed (a cursor before it answers 410). One row per VA, written on first use.
 */
export const eventCursors = pgTable('event_cursors', {
  virtualAgentId: integer('virtual_agent_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  accountId: integer('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  ackedXid: bigint('acked_xid', { mode: 'number' }).notNull().default(0),
  ackedId: bigint('acked_id', { mode: 'number' }).notNull().default(0),
  ackedAt: tstz('acked_at'),
  /** The last read, or the last refresh of an open stream (bot-down fallback of pull VAs). */
  lastReadAt: tstz('last_read_at'),
  /** When the VA last switched to `pull`: its bot-down clock starts no earlier (lib/pull/hand-over-idle-pull.ts). */
  pullSince: tstz('pull_since'),
  floorXid: bigint('floor_xid', { mode: 'number' }).notNull().default(0),
  floorId: bigint('floor_id', { mode: 'number' }).notNull().default(0),
  updatedAt: updatedAt(),
});

/**
 * Open event streams, so the limit per VA holds across instances. Each instance refreshes its rows'
 * `seen_at` with the keep-alive and deletes them when a stream ends; a row not refreshed for a
 * minute (its instance died) no longer counts and is removed at the VA's next open.
 */
export const eventStreams = pgTable(
  'event_streams',
  {
    id: text('id').primaryKey(),
    virtualAgentId: integer('virtual_agent_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    seenAt: tstz('seen_at').notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [index('event_streams_va_idx').on(t.virtualAgentId, t.seenAt)],
);
