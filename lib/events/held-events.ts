import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { preparedSql } from '@/platform/util/prepared';
import { rowsOf } from '@/platform/util/rows-of';
import { noteEvent, type OutboxTx } from './with-outbox';

/**
 * The `stream_xid` of a held event (a customer's turn whose window is open, lib/turns): above every
 * real transaction id, so it is never in the pull order (lib/pull reads only below the snapshot's
 * xmin) until its release gives it its real place. Below 2^53 so it reads as an exact number.
 */
export const HELD_XID = 9_007_199_254_740_991;
export const notHeldXid = sql.raw(String(HELD_XID));

/** What closed a turn's window, kept on its event for the delivery log. */
export type CloseReason = 'window' | 'typing' | 'cap' | 'event';

/**
 * What releasing a held event writes: the window is closed (`held_until` cleared, how long it was held
 * and why it closed kept for the delivery log), the event takes its place in the VA's pull order (this
 * transaction's id, raised to the chat's previous event for the VA as enqueueEvent does) and becomes
 * due (a `pull` VA's stays parked out of the due range, read by the bot instead).
 */
const releaseSet = (reason: ReturnType<typeof sql>) => sql`
  held_until = null,
  held_ms = greatest(0, round(extract(epoch from (now() - e.created_at)) * 1000))::int,
  turn_closed_by = ${reason},
  stream_xid = greatest((pg_current_xact_id()::text)::bigint, coalesce((
    select p.stream_xid from events p
    where p.chat_id = e.chat_id and p.virtual_agent_id = e.virtual_agent_id and p.seq < e.seq
    order by p.seq desc limit 1), 0)),
  next_attempt_at = case when (select va.delivery_mode from virtual_agents va where va.user_id = e.virtual_agent_id) = 'pull'
    then now() + interval '100 years' else now() end,
  updated_at = now()`;

/**
 * Closes the chat's open turn for the VA, if any, in the caller's transaction (which holds the chat's
 * lock): before any other event of the chat is written for the VA, so a held event never has one
 * behind it and a chat's events keep their order. The open turn is always the chat's latest event
 * for the VA (one indexed step back in `events_chat_va_seq_idx`).
 */
export async function releaseOpenTurn(
  tx: OutboxTx,
  { chatId, vaUserId, reason }: { chatId: string; vaUserId: number; reason: CloseReason },
): Promise<boolean> {
  const rows = rowsOf<{ id: string | number }>(await releaseOpenTurnStatement(tx).execute({ chatId, vaUserId, reason }));
  for (const row of rows) noteEvent(tx, Number(row.id), vaUserId);
  return rows.length > 0;
}

/** `releaseOpenTurn`'s statement: every event a VA is sent runs it first, so it is built once. */
export const releaseOpenTurnSql = sql`
    update events e set ${releaseSet(sql`${sql.placeholder('reason')}`)}
    where e.id = (select l.id from events l where l.chat_id = ${sql.placeholder('chatId')} and l.virtual_agent_id = ${sql.placeholder('vaUserId')}
        order by l.seq desc limit 1)
      and e.held_until is not null and e.status = 'pending'
    returning e.id`;
const releaseOpenTurnStatement = preparedSql('release_open_turn', releaseOpenTurnSql);

/**
 * The turn closer's work: releases up to `limit` held events whose window has closed, oldest due first,
 * in one statement. `SKIP LOCKED` lets every instance run it at once (each event released once); a
 * fragment or typing call holding the row is waited for on the next round. The reason kept is the one
 * the turn's last due time was decided by (typing, window or cap).
 */
export async function releaseDueTurns(tx: OutboxTx, { limit = 200 }: { limit?: number } = {}): Promise<number> {
  const rows = rowsOf<{ id: string | number; virtual_agent_id: number }>(
    await tx.execute(sql`
      with due as (
        select id from events where held_until is not null and held_until <= clock_timestamp()
        order by held_until limit ${limit} for update skip locked)
      update events e set ${releaseSet(sql`coalesce(e.turn_closed_by, 'window')`)}
      from due where e.id = due.id and e.held_until is not null and e.status = 'pending'
      returning e.id, e.virtual_agent_id`),
  );
  for (const row of rows) noteEvent(tx, Number(row.id), Number(row.virtual_agent_id));
  return rows.length;
}

/** The earliest due time of a held event (the closer sleeps until then), from `events_held_idx`. */
export async function nextTurnDue(db: Db): Promise<Date | null> {
  const [row] = rowsOf<{ at: string | Date | null }>(
    await db.execute(sql`select min(held_until) as at from events where held_until is not null`),
  );
  return row?.at ? new Date(row.at) : null;
}
