import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { HELD_XID } from './held-events';

/**
 * The chat has left the VA: its events to that VA still waiting to be sent (up to `uptoSeq`, the
 * chat's sequence before the change) are `superseded`, never sent (again). The VA hears of the
 * change by the `chat.unassigned` written next, and hears nothing more of the chat until it holds
 * it again.
 * An event in flight (leased, its lease still running) is not waiting: it is left alone, its
 * attempt is recorded as it ends (delivered, failed), and the chat's later events wait for that
 * answer (head-of-line). If that attempt fails and the event would be retried while the VA no
 * longer holds the chat, it is superseded then instead (record-attempts.ts).
 * Events written after `uptoSeq` in the same change (a `chat.closed`) stay, and are made due now:
 * they were parked behind the retry of an event that is now gone (see park-later-events.ts). A
 * `pull` VA's events stay parked out of the due range (switch-delivery-mode.ts).
 */
export async function supersedePendingEvents(
  tx: Db,
  { chatId, vaUserId, uptoSeq }: { chatId: string; vaUserId: number; uptoSeq: number },
): Promise<number> {
  const rows = await tx.execute(sql`
    update "events" set "status" = 'superseded', "superseded_at" = now(), "updated_at" = now(),
      -- A turn still held (lib/turns) closes with it and takes a real place in the pull order.
      "held_until" = null,
      "stream_xid" = case when "stream_xid" = ${HELD_XID} then (pg_current_xact_id()::text)::bigint else "stream_xid" end
    where "chat_id" = ${chatId} and "virtual_agent_id" = ${vaUserId} and "status" = 'pending' and "seq" <= ${uptoSeq}
      and ("locked_until" is null or "locked_until" <= now())
    returning "id"`);
  const superseded = rowCount(rows);
  if (superseded > 0) {
    await tx.execute(sql`
      update "events" set "next_attempt_at" = now()
      where "chat_id" = ${chatId} and "virtual_agent_id" = ${vaUserId} and "status" = 'pending' and "seq" > ${uptoSeq}
        and "next_attempt_at" > now() and "attempt_count" = 0
        and "next_attempt_at" < now() + interval '50 years'`);
  }
  return superseded;
}

/** Rows returned, whichever driver ran the statement (postgres.js: an array; PGlite: `rows`). */
function rowCount(result: unknown): number {
  if (Array.isArray(result)) return result.length;
  return (result as { rows?: unknown[] }).rows?.length ?? 0;
}
