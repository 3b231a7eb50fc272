import { and, eq, sql } from 'drizzle-orm';
import type { Recovery } from '@/contracts/admin/schemas/delivery';
import type { Db } from '@/db/client';
import { eventRecoveries, events, virtualAgents } from '@/db/schema';
import { ApiError } from '@/platform/errors';
import { wakeRecoveries } from './advance-recoveries';
import { recoveryViews } from './list-recoveries';

/**
 * Starts "recover failed events since T" for one VA: a job row that the background runner
 * (advance-recoveries.ts) works through. The total is the VA's failed events created in the
 * window now (events_va_failed_created_idx). One running recovery per VA (3008).
 */
export async function startRecovery(
  db: Db,
  { accountId, virtualAgentId, since, until }: { accountId: number; virtualAgentId: number; since: Date; until?: Date },
): Promise<Recovery> {
  const end = until ?? new Date();
  if (since.getTime() >= end.getTime()) {
    throw new ApiError(2000, {
      detail: 'since: must be before until (or now)',
      errors: [{ field: 'since', message: 'must be before until (or now)' }],
    });
  }
  const job = await db.transaction(async (tx) => {
    // The VA's row orders concurrent starts, so two cannot both find no running recovery.
    const [va] = await tx
      .select({ id: virtualAgents.userId })
      .from(virtualAgents)
      .where(and(eq(virtualAgents.userId, virtualAgentId), eq(virtualAgents.accountId, accountId)))
      .for('update');
    if (!va) throw new ApiError(3006, { detail: `no virtual agent ${virtualAgentId}` });
    const [running] = await tx
      .select({ id: eventRecoveries.id })
      .from(eventRecoveries)
      .where(and(eq(eventRecoveries.virtualAgentId, virtualAgentId), sql`${eventRecoveries.status} = 'running'`))
      .limit(1);
    if (running) throw new ApiError(3008, { detail: `recovery ${running.id} of this virtual agent is still running` });
    const [{ total }] = await tx
      .select({ total: sql<number>`count(*)::int`.mapWith(Number) })
      .from(events)
      .where(
        and(
          eq(events.virtualAgentId, virtualAgentId),
          sql`"events"."status" = 'failed'`,
          sql`${events.createdAt} >= ${since.toISOString()}::timestamptz and ${events.createdAt} < ${end.toISOString()}::timestamptz`,
        ),
      );
    const [row] = await tx.insert(eventRecoveries).values({ accountId, virtualAgentId, since, until: end, total }).returning();
    return row;
  });
  wakeRecoveries();
  const [view] = await recoveryViews(db, [job]);
  return view;
}
