import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';

/**
 * Moves the events queued behind an event that waits for a retry to that retry's time (only ever
 * later). They could not be sent before it anyway; parked there, they drop out of the due range
 * the claim scans, so a receiver that is down for long does not make every claim walk its backlog.
 * New events of such a chat are parked when they are written (see enqueueEvent).
 */
export async function parkLaterEvents(db: Db, { eventId }: { eventId: number }): Promise<void> {
  await db.execute(sql`
    update "events" as "later" set "next_attempt_at" = "head"."next_attempt_at"
    from "events" as "head"
    where "head"."id" = ${eventId}
      and "later"."chat_id" = "head"."chat_id"
      and "later"."virtual_agent_id" = "head"."virtual_agent_id"
      and "later"."status" = 'pending'
      and "later"."seq" > "head"."seq"
      and "later"."next_attempt_at" < "head"."next_attempt_at"`);
}
