import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { tstz } from './_columns';

/**
 * The bot request log: one row per bot API call of a known Virtual Agent (failures always,
 * successes as BOT_REQUEST_LOG says). What support needs to answer "my PATCH got 2031": the
 * operation, the path with its ids (query parameter names only, never their values), the answer's
 * HTTP status, `status_code` and catalogue description, the `trxid` and the latency. Never a body,
 * a token or customer text. Written in batches off the request's path (lib/request-log), deleted
 * after BOT_REQUEST_LOG_RETENTION_DAYS. No column is a foreign key: a deleted chat's requests still
 * explain what happened.
 *
 * A row is known by its `trxid`, a version 7 UUID: it starts with the call's time in milliseconds
 * (which is also `at`), so ordering by it is ordering by time, and one index keyed by (VA, trxid)
 * serves the VA's newest-first walk, its time filters and a look-up by trxid (across the account's
 * VAs). No serial id and no index of its own for the trxid: a row is written for nearly every bot
 * call, and each index it feeds is a share of that call's cost (BENCHMARKS.md, "bench:api").
 */
export const botRequests = pgTable(
  'bot_requests',
  {
    // No foreign keys: their per-row checks were a fifth of the log's write cost (measured in
    // BENCHMARKS.md). Both ids come from the token that made the call, and the readers join users,
    // so a row can never name another account's VA.
    accountId: integer('account_id').notNull(),
    virtualAgentId: integer('virtual_agent_id').notNull(),
    /** When the request arrived: the time in its trxid, to the millisecond. */
    at: tstz('at').notNull(),
    /** The contract's operationId (`updateChat`). */
    operation: text('operation').notNull(),
    method: text('method').notNull(),
    /** The path as sent, with its ids; query parameters by name only (`/api/v1/chats?status&cursor`). */
    path: text('path').notNull(),
    chatId: text('chat_id'),
    httpStatus: integer('http_status').notNull(),
    statusCode: integer('status_code'),
    /** The code's catalogue description, plus the names of refused fields; never the values sent. */
    description: text('description').notNull(),
    /** The answer's `trxid`, a version 7 UUID (platform/util/ids.ts newTraceId). */
    trxid: uuid('trxid').notNull(),
    latencyMs: integer('latency_ms').notNull(),
    idempotencyKey: text('idempotency_key'),
  },
  // The VA page reads newest first (failures by their own index), the chat page by chat, the trace look-up
  // by (VA, trxid) and by idempotency key, retention by age.
  (t) => [
    primaryKey({ name: 'bot_requests_pkey', columns: [t.virtualAgentId, t.trxid] }),
    // Failures only (few), for the failure and error-code filters; a success code filters the VA's walk.
    index('bot_requests_va_failures_idx').on(t.virtualAgentId, t.trxid).where(sql`${t.httpStatus} >= 400`),
    index('bot_requests_chat_idx').on(t.chatId, t.trxid).where(sql`${t.chatId} is not null`),
    // Ending in the trxid, so the trace look-up's newest calls with a key are the index's first
    // entries, however often a bot reused the key.
    index('bot_requests_key_idx').on(t.accountId, t.idempotencyKey, t.trxid).where(sql`${t.idempotencyKey} is not null`),
    // Retention deletes the oldest rows; rows arrive in time order, so a block range index serves it
    // at a fraction of a btree's upkeep per insert.
    index('bot_requests_at_brin').using('brin', t.at),
  ],
);
