import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { rowsOf } from '@/platform/util/rows-of';

/** Pending events moved per statement: each statement stays far below the statement timeout. */
export const PAUSE_BATCH = 2_000;

/**
 * Holds a VA's pending events until `until` (only ever later): its endpoint is paused (open
 * circuit, Retry-After). They drop out of the due range, so claims on every instance pass them
 * over without reading them, and no attempt is spent on them meanwhile.
 *
 * A VA can have tens of thousands of pending events (a long outage), and moving them all in one
 * UPDATE took longer than the statement timeout. So they move in batches of `batchSize`, walking
 * the VA's pending events in (created_at, id) order on events_account_pending_idx, each batch its
 * own short statement; an event written meanwhile is due at once and, if the endpoint still
 * fails, its own attempt pauses the VA again.
 */
export async function pauseEndpointEvents(
  db: Db,
  {
    accountId,
    virtualAgentId,
    until,
    batchSize = PAUSE_BATCH,
  }: { accountId: number; virtualAgentId: number; until: Date; batchSize?: number },
): Promise<number> {
  const at = until.toISOString();
  let cursor = { createdAt: '-infinity', id: 0 };
  let moved = 0;
  for (;;) {
    const [row] = rowsOf<{ created_at: string | null; id: string | number | null; n: number; moved: number }>(
      await db.execute(sql`
        with "picked" as (
          select "id", "created_at" from "events"
          where "account_id" = ${accountId} and "virtual_agent_id" = ${virtualAgentId} and "events"."status" = 'pending'
            and ("created_at", "id") > (${cursor.createdAt}::timestamptz, ${cursor.id}::bigint)
          order by "created_at", "id"
          limit ${batchSize}),
        "moved" as (
          update "events" set "next_attempt_at" = ${at}::timestamptz
          from "picked"
          where "events"."id" = "picked"."id" and "events"."status" = 'pending' and "events"."next_attempt_at" < ${at}::timestamptz
          returning 1)
        select "last"."created_at"::text as "created_at", "last"."id",
          (select count(*)::int from "picked") as "n", (select count(*)::int from "moved") as "moved"
        from (select 1) as "one"
        left join lateral (select "created_at", "id" from "picked" order by "created_at" desc, "id" desc limit 1) as "last" on true`),
    );
    moved += Number(row?.moved ?? 0);
    if (!row || Number(row.n) < batchSize || row.created_at === null) return moved;
    cursor = { createdAt: row.created_at, id: Number(row.id) };
  }
}
