import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';

/**
 * Holds a VA's pending events until `until` (only ever later): its endpoint is paused (open
 * circuit, Retry-After). They drop out of the due range, so claims on every instance pass them
 * over without reading them, and no attempt is spent on them meanwhile.
 */
export async function pauseEndpointEvents(db: Db, { virtualAgentId, until }: { virtualAgentId: number; until: Date }): Promise<void> {
  await db.execute(sql`
    update "events" set "next_attempt_at" = ${until.toISOString()}::timestamptz
    where "virtual_agent_id" = ${virtualAgentId} and "status" = 'pending' and "next_attempt_at" < ${until.toISOString()}::timestamptz`);
}
