import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, tstz, updatedAt } from './_columns';
import { accounts } from './accounts';
import { users } from './users';

/**
 * A replay (lib/replay): a recording's chats sent, turn by turn, to a VA of the account's sandbox.
 * `options` holds the turn timings and concurrency it ran with. Deleted with its chats after
 * REPLAY_RETENTION_DAYS.
 */
export const replayRuns = pgTable(
  'replay_runs',
  {
    /** `rpl_…`, the `run_id` of the events' `replay` marker. */
    id: text('id').primaryKey(),
    /** The live account that asked for it; its sandbox ran the chats. */
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    sandboxAccountId: integer('sandbox_account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    virtualAgentId: integer('virtual_agent_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    label: text('label').notNull().default(''),
    // `loading` while its chats are being added (each run is created with it), then `running`, `done` or `failed`;
    // `interrupted` when the process running it stopped (no heartbeat for REPLAY_STALL_SECONDS).
    status: text('status', { enum: ['loading', 'running', 'done', 'failed', 'interrupted'] })
      .notNull()
      .default('running'),
    options: jsonb('options').$type<Record<string, unknown>>().notNull().default({}),
    chatsTotal: integer('chats_total').notNull(),
    chatsDone: integer('chats_done').notNull().default(0),
    error: text('error'),
    finishedAt: tstz('finished_at'),
    createdAt: createdAt(),
    /** While `running`, the runner's process sets it every quarter of REPLAY_STALL_SECONDS (its heartbeat). */
    updatedAt: updatedAt(),
  },
  (t) => [
    index('replay_runs_account_idx').on(t.accountId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('replay_runs_created_idx').on(t.createdAt),
  ],
);

/** One recorded chat of a run: the line as recorded and, once replayed, what the bot did (same format). */
export const replayChats = pgTable(
  'replay_chats',
  {
    runId: text('run_id')
      .notNull()
      .references(() => replayRuns.id, { onDelete: 'cascade' }),
    /** The line's position in the recording (0-based). */
    seq: integer('seq').notNull(),
    recording: jsonb('recording').$type<Record<string, unknown>>().notNull(),
    result: jsonb('result').$type<Record<string, unknown>>(),
    /** The sandbox chat it ran as. */
    chatId: text('chat_id'),
    status: text('status', { enum: ['pending', 'done', 'failed'] })
      .notNull()
      .default('pending'),
    error: text('error'),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] }), index('replay_chats_chat_idx').on(t.chatId).where(sql`${t.chatId} is not null`)],
);
