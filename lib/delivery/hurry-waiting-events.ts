import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { signalOutbox } from '@/lib/events/signal';

/**
 * Makes every event of the VA that waits for a later time (a retry's back-off, a pause of its
 * endpoint, or parked behind such an event) due now, and wakes delivery. Order per chat is kept by
 * the head-of-line rule of the claim, not by these times, so nothing jumps its chat's line.
 * Served by the partial index on pending events (account, VA). Returns how many were waiting.
 */
export async function hurryWaitingEvents(
  db: Db,
  { accountId, virtualAgentId }: { accountId: number; virtualAgentId: number },
): Promise<number> {
  const result = await db.execute(sql`
    update "events" set "next_attempt_at" = now(), "updated_at" = now()
    where "account_id" = ${accountId} and "virtual_agent_id" = ${virtualAgentId} and "status" = 'pending' and "next_attempt_at" > now()
    returning "id"`);
  const rows = (Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? [])) as { id: unknown }[];
  signalOutbox(rows.map((r) => Number(r.id)));
  return rows.length;
}
