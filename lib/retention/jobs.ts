import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import type { Env } from '@/env';
import { deleteOldAuditEntries } from '@/lib/audit/delete-old-audit-entries';
import { rowsOf } from '@/platform/util/rows-of';
import type { RetentionJob } from './run-retention';

const DAY_MS = 24 * 60 * 60_000;
/** The README promises a retried POST its first answer for 24 hours. */
const IDEMPOTENCY_KEY_HOURS = 24;

const ago = (now: Date, ms: number) => new Date(now.getTime() - ms).toISOString();

/** Rows removed by the statement, whichever driver ran it. */
function affected(result: unknown): number {
  const r = result as { count?: number; affectedRows?: number };
  return Number(r.count ?? r.affectedRows ?? 0);
}

/**
 * The sandboxes' chats created before `before`: an index range per sandbox (chats_account_created_idx).
 * As `account_id in (select …)` (or `= any(array(…))`, or this without its order) the planner read
 * chats whole, sandbox or not;
 * test/plans/replay reads the plan.
 */
export const replayChatsPick = (limit: number, before: string) =>
  sql`select c.ctid from accounts a cross join lateral (
    select ctid from chats where chats.account_id = a.id and chats.created_at < ${before}::timestamptz
    order by chats.created_at limit ${limit}) c
    where a.sandbox_of_account_id is not null limit ${limit}`;
/** Replay runs created before `before` (replay_runs_created_idx); their lines go with them (cascade, on replay_chats' primary key). */
export const replayRunsPick = (limit: number, before: string) =>
  sql`select ctid from replay_runs where created_at < ${before}::timestamptz limit ${limit}`;

/**
 * A bounded delete: the rows `pick` selects (at most `limit`, by ctid), deleted only if `still`
 * holds for the row as it is when the delete reaches it, so a row that changed meanwhile (an event
 * put back in the queue, a chat reopened) stays.
 */
function boundedDelete(
  table: string,
  pick: (limit: number, now: Date) => ReturnType<typeof sql>,
  still: (now: Date) => ReturnType<typeof sql>,
) {
  return async (db: Db, { now, limit }: { now: Date; limit: number }) =>
    affected(await db.execute(sql`delete from ${sql.identifier(table)} where ctid = any(array(${pick(limit, now)})) and ${still(now)}`));
}

/** The job that deletes the rows of `table` whose `expires_at` has passed (tokens, sessions, limit windows). */
function expiredRows(name: string, table: string): RetentionJob {
  return {
    name,
    deleteBatch: boundedDelete(
      table,
      (limit, now) => sql`select ctid from ${sql.identifier(table)} where expires_at < ${now.toISOString()}::timestamptz limit ${limit}`,
      (now) => sql`expires_at < ${now.toISOString()}::timestamptz`,
    ),
  };
}

/**
 * The bounded delete for events, which also raises each VA's retention floor (event_cursors) to
 * the newest event removed: a pull cursor before it has lost events and answers 410 (lib/pull).
 */
function eventDelete(pick: (limit: number, now: Date) => ReturnType<typeof sql>, still: (now: Date) => ReturnType<typeof sql>) {
  return async (db: Db, { now, limit }: { now: Date; limit: number }) => {
    const [row] = rowsOf<{ n: string | number }>(
      await db.execute(sql`
        with gone as (
          delete from events where ctid = any(array(${pick(limit, now)})) and ${still(now)}
          returning virtual_agent_id, account_id, stream_xid, id),
        newest as (
          select distinct on (virtual_agent_id) virtual_agent_id, account_id, stream_xid, id from gone
          order by virtual_agent_id, stream_xid desc, id desc),
        floors as (
          insert into event_cursors as c (virtual_agent_id, account_id, floor_xid, floor_id)
          select virtual_agent_id, account_id, stream_xid, id from newest
          on conflict (virtual_agent_id) do update set floor_xid = excluded.floor_xid, floor_id = excluded.floor_id, updated_at = now()
          where (excluded.floor_xid, excluded.floor_id) > (c.floor_xid, c.floor_id))
        select count(*) as n from gone`),
    );
    return Number(row?.n ?? 0);
  };
}

/**
 * The bounded delete for closed chats. Their events go with them (cascade), so each VA's floor is
 * raised to the newest of those events, as eventDelete does: a cursor before it has lost events and
 * answers 410, whether the bot acknowledged them or (in webhook mode) replays. The events are read
 * in the statement's snapshot, before the cascade removes them (events_chat_va_seq_idx). A customer
 * left with no chat goes too, unless it was touched after `before` (a new chat of theirs on its way:
 * its upsert moves updated_at, which the delete checks again on the row it waited for).
 */
function chatDelete(
  pick: (limit: number, now: Date) => ReturnType<typeof sql>,
  still: (now: Date) => ReturnType<typeof sql>,
  before: (now: Date) => string,
) {
  return async (db: Db, { now, limit }: { now: Date; limit: number }) => {
    const [row] = rowsOf<{ n: string | number }>(
      await db.execute(sql`
        with gone as (
          delete from chats where ctid = any(array(${pick(limit, now)})) and ${still(now)}
          returning id, customer_id),
        customers_gone as (
          delete from customers cu where cu.id in (select customer_id from gone)
            and cu.updated_at < ${before(now)}::timestamptz
            and not exists (select 1 from chats ch where ch.customer_id = cu.id and ch.id not in (select id from gone))),
        newest as (
          select distinct on (e.virtual_agent_id) e.virtual_agent_id, e.account_id, e.stream_xid, e.id from events e
          where e.chat_id in (select id from gone)
          order by e.virtual_agent_id, e.stream_xid desc, e.id desc),
        floors as (
          insert into event_cursors as c (virtual_agent_id, account_id, floor_xid, floor_id)
          select virtual_agent_id, account_id, stream_xid, id from newest
          on conflict (virtual_agent_id) do update set floor_xid = excluded.floor_xid, floor_id = excluded.floor_id, updated_at = now()
          where (excluded.floor_xid, excluded.floor_id) > (c.floor_xid, c.floor_id))
        select count(*) as n from gone`),
    );
    return Number(row?.n ?? 0);
  };
}

/**
 * The retention jobs for a configuration. Delivered and superseded events (and, by cascade, their
 * attempts) go after `EVENT_RETENTION_DAYS`, failed ones after `FAILED_EVENT_RETENTION_DAYS`; pending events
 * (waiting, retrying or in flight) are never selected. Closed chats go with their transcripts
 * and events only when `CHAT_RETENTION_DAYS` is set, and never while one of their events is pending.
 * A later table plugs in with one more entry here.
 */
export function retentionJobs(
  config: Pick<
    Env,
    'EVENT_RETENTION_DAYS' | 'FAILED_EVENT_RETENTION_DAYS' | 'CHAT_RETENTION_DAYS' | 'ROLLUP_RETENTION_DAYS' | 'AUDIT_RETENTION_DAYS'
  > &
    Partial<Pick<Env, 'BOT_REQUEST_LOG_RETENTION_DAYS' | 'REPLAY_RETENTION_DAYS'>>,
): RetentionJob[] {
  const deliveredBefore = (now: Date) => ago(now, config.EVENT_RETENTION_DAYS * DAY_MS);
  const failedBefore = (now: Date) => ago(now, config.FAILED_EVENT_RETENTION_DAYS * DAY_MS);
  const jobs: RetentionJob[] = [
    {
      name: 'delivered-events',
      deleteBatch: eventDelete(
        (limit, now) =>
          sql`select ctid from events where status = 'delivered' and delivered_at < ${deliveredBefore(now)}::timestamptz limit ${limit}`,
        (now) => sql`status = 'delivered' and delivered_at < ${deliveredBefore(now)}::timestamptz`,
      ),
    },
    {
      name: 'failed-events',
      deleteBatch: eventDelete(
        (limit, now) =>
          sql`select ctid from events where status = 'failed' and failed_at < ${failedBefore(now)}::timestamptz limit ${limit}`,
        (now) => sql`status = 'failed' and failed_at < ${failedBefore(now)}::timestamptz`,
      ),
    },
    {
      // Superseded events were never sent and never will be: kept as long as delivered ones.
      name: 'superseded-events',
      deleteBatch: eventDelete(
        (limit, now) =>
          sql`select ctid from events where superseded_at is not null and superseded_at < ${deliveredBefore(now)}::timestamptz limit ${limit}`,
        (now) => sql`status = 'superseded' and superseded_at < ${deliveredBefore(now)}::timestamptz`,
      ),
    },
    {
      // Reply-budget timeouts the VA page lists: kept as long as delivered events.
      name: 'reply-timeouts',
      deleteBatch: boundedDelete(
        'reply_timeouts',
        (limit, now) => sql`select ctid from reply_timeouts where at < ${deliveredBefore(now)}::timestamptz limit ${limit}`,
        (now) => sql`at < ${deliveredBefore(now)}::timestamptz`,
      ),
    },
    {
      name: 'idempotency-keys',
      deleteBatch: boundedDelete(
        'idempotency_keys',
        (limit, now) =>
          sql`select ctid from idempotency_keys where created_at < ${ago(now, IDEMPOTENCY_KEY_HOURS * 3_600_000)}::timestamptz limit ${limit}`,
        (now) => sql`created_at < ${ago(now, IDEMPOTENCY_KEY_HOURS * 3_600_000)}::timestamptz`,
      ),
    },
    expiredRows('expired-access-tokens', 'access_tokens'),
    expiredRows('expired-admin-sessions', 'admin_sessions'),
    expiredRows('expired-agent-sessions', 'agent_sessions'),
    // Windows of the shared rate limits (platform/limits) that ended: a later hit would start afresh anyway.
    expiredRows('expired-rate-limits', 'rate_limits'),
    {
      // Finished recoveries of failed events: kept as long as failed events are.
      name: 'finished-recoveries',
      deleteBatch: boundedDelete(
        'event_recoveries',
        (limit, now) =>
          sql`select ctid from event_recoveries where status = 'done' and finished_at < ${failedBefore(now)}::timestamptz limit ${limit}`,
        (now) => sql`status = 'done' and finished_at < ${failedBefore(now)}::timestamptz`,
      ),
    },
    {
      name: 'delivery-rollups',
      deleteBatch: boundedDelete(
        'delivery_rollups',
        (limit, now) =>
          sql`select ctid from delivery_rollups where minute < ${ago(now, config.ROLLUP_RETENTION_DAYS * DAY_MS)}::timestamptz limit ${limit}`,
        (now) => sql`minute < ${ago(now, config.ROLLUP_RETENTION_DAYS * DAY_MS)}::timestamptz`,
      ),
    },
    {
      name: 'delivery-latency-rollups',
      deleteBatch: boundedDelete(
        'delivery_latency_rollups',
        (limit, now) =>
          sql`select ctid from delivery_latency_rollups where minute < ${ago(now, config.ROLLUP_RETENTION_DAYS * DAY_MS)}::timestamptz limit ${limit}`,
        (now) => sql`minute < ${ago(now, config.ROLLUP_RETENTION_DAYS * DAY_MS)}::timestamptz`,
      ),
    },
  ];
  jobs.push({
    name: 'audit-entries',
    deleteBatch: (db, { now, limit }) =>
      deleteOldAuditEntries(db, { before: new Date(now.getTime() - config.AUDIT_RETENTION_DAYS * DAY_MS), limit }),
  });
  const requestsBefore = (now: Date) => ago(now, (config.BOT_REQUEST_LOG_RETENTION_DAYS ?? 7) * DAY_MS);
  jobs.push({
    name: 'bot-requests',
    deleteBatch: boundedDelete(
      'bot_requests',
      (limit, now) => sql`select ctid from bot_requests where at < ${requestsBefore(now)}::timestamptz limit ${limit}`,
      (now) => sql`at < ${requestsBefore(now)}::timestamptz`,
    ),
  });
  // Replays (lib/replay): the sandbox's chats, then the runs with their recorded and replayed lines.
  const replaysBefore = (now: Date) => ago(now, (config.REPLAY_RETENTION_DAYS ?? 30) * DAY_MS);
  jobs.push({
    name: 'replay-chats',
    deleteBatch: chatDelete(
      (limit, now) => replayChatsPick(limit, replaysBefore(now)),
      (now) => sql`replay_run_id is not null and created_at < ${replaysBefore(now)}::timestamptz`,
      replaysBefore,
    ),
  });
  jobs.push({
    name: 'replay-runs',
    deleteBatch: boundedDelete(
      'replay_runs',
      (limit, now) => replayRunsPick(limit, replaysBefore(now)),
      (now) => sql`created_at < ${replaysBefore(now)}::timestamptz`,
    ),
  });
  const chatDays = config.CHAT_RETENTION_DAYS;
  if (chatDays !== undefined) {
    const closedBefore = (now: Date) => ago(now, chatDays * DAY_MS);
    const noPendingEvent = sql`not exists (select 1 from events e where e.chat_id = chats.id and e.status = 'pending')`;
    jobs.push({
      name: 'closed-chats',
      deleteBatch: chatDelete(
        (limit, now) =>
          sql`select ctid from chats where status = 'closed' and closed_at < ${closedBefore(now)}::timestamptz and ${noPendingEvent} limit ${limit}`,
        (now) => sql`status = 'closed' and closed_at < ${closedBefore(now)}::timestamptz and ${noPendingEvent}`,
        closedBefore,
      ),
    });
  }
  return jobs;
}
