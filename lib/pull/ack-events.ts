import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { rowsOf } from '@/platform/util/rows-of';
import { comparePositions, type Position } from './cursor';

/**
 * Acknowledges the VA's events up to and including `to`. The position only moves forward. In
 * `pull` mode the events it passes that were still waiting become delivered now (the delivery log,
 * VA health and the delivery charts count them: one rollup row per minute, as for webhook
 * deliveries). In `webhook` mode nothing changes. Returns the acknowledged position.
 *
 * One short transaction; the cursor row is locked first so two acknowledgements of one VA queue
 * instead of counting the same events twice. The events read are one range of events_va_stream_idx.
 */
export async function ackEvents(
  db: Db,
  { accountId, vaUserId, to }: { accountId: number; vaUserId: number; to: Position },
): Promise<Position> {
  return db.transaction(async (tx) => {
    const [va] = rowsOf<{ mode: string }>(
      await tx.execute(sql`select delivery_mode as mode from virtual_agents where user_id = ${vaUserId} and account_id = ${accountId}`),
    );
    await tx.execute(sql`
      insert into event_cursors (virtual_agent_id, account_id) values (${vaUserId}, ${accountId})
      on conflict (virtual_agent_id) do nothing`);
    const [row] = rowsOf<{ xid: string; id: string }>(
      await tx.execute(sql`select acked_xid as xid, acked_id as id from event_cursors where virtual_agent_id = ${vaUserId} for update`),
    );
    const acked = { xid: Number(row.xid), id: Number(row.id) };
    if (va?.mode !== 'pull' || comparePositions(to, acked) <= 0) return acked;
    const [counted] = rowsOf<{ n: string | number }>(
      await tx.execute(sql`
        with done as (
          update events set status = 'delivered', delivered_at = now(), locked_until = null, updated_at = now()
          -- status as text: the partial index of all pending events (events_due_idx) must not be
          -- chosen over this VA's range of events_va_stream_idx (seen with a large backlog).
          where virtual_agent_id = ${vaUserId} and status::text = 'pending'
            and (stream_xid, id) > (${acked.xid}::bigint, ${acked.id}::bigint)
            and (stream_xid, id) <= (${to.xid}::bigint, ${to.id}::bigint)
          returning 1)
        select count(*) as n from done`),
    );
    const n = Number(counted?.n ?? 0);
    if (n > 0) {
      await tx.execute(sql`
        insert into delivery_rollups as r (account_id, virtual_agent_id, minute, attempts, delivered, last_attempt_at)
        values (${accountId}, ${vaUserId}, date_trunc('minute', now()), ${n}, ${n}, now())
        on conflict (account_id, minute, virtual_agent_id) do update set
          attempts = r.attempts + excluded.attempts, delivered = r.delivered + excluded.delivered,
          last_attempt_at = greatest(r.last_attempt_at, excluded.last_attempt_at)`);
    }
    await tx.execute(sql`
      update event_cursors set acked_xid = ${to.xid}, acked_id = ${to.id}, acked_at = now(), updated_at = now()
      where virtual_agent_id = ${vaUserId}`);
    return to;
  });
}

/** Notes that the VA read or streams now (the bot-down fallback of pull VAs); at most one write per 10 s. */
export async function noteRead(db: Db, { accountId, vaUserId }: { accountId: number; vaUserId: number }): Promise<void> {
  await db.execute(sql`
    insert into event_cursors as c (virtual_agent_id, account_id, last_read_at) values (${vaUserId}, ${accountId}, now())
    on conflict (virtual_agent_id) do update set last_read_at = now()
    where c.last_read_at is null or c.last_read_at < now() - interval '10 seconds'`);
}
