import { and, gt, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { events } from '@/db/schema';
import { isPending } from './head-of-line';

/**
 * Milliseconds until the next pending event falls due (a retry, or events parked behind one), by
 * the database's clock; null when none is waiting. One probe of `events_due_idx`. Events that are
 * due but held (leased, or behind an event in flight) are not counted: the end of that attempt
 * claims again, and a dead worker's lease is found by the engine's idle poll.
 */
export async function msUntilNextDue(db: Db): Promise<number | null> {
  const [row] = await db
    .select({ ms: sql<number | null>`(extract(epoch from (min(${events.nextAttemptAt}) - now())) * 1000)::float8` })
    .from(events)
    .where(and(isPending, gt(events.nextAttemptAt, sql`now()`)));
  return row?.ms == null ? null : Number(row.ms);
}
