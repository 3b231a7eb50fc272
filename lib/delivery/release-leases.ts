import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import type { ClaimedEvent } from './claim-due-events';

/**
 * Gives back the leases of events this worker claimed and will not record (it is shutting down),
 * so another worker may take them at once instead of after the lease. A lease already replaced is
 * left alone.
 */
export async function releaseLeases(db: Db, { events }: { events: Pick<ClaimedEvent, 'id' | 'lockedUntil'>[] }): Promise<void> {
  if (!events.length) return;
  const rows = JSON.stringify(events.map((e) => ({ id: e.id, lease: e.lockedUntil.toISOString() })));
  await db.execute(sql`
    update "events" set "locked_until" = null
    from jsonb_to_recordset(${rows}::jsonb) as "x"("id" bigint, "lease" timestamptz)
    where "events"."id" = "x"."id" and "events"."locked_until" = "x"."lease"`);
}
