import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Recovery } from '@/contracts/admin/schemas/delivery';
import type { Db } from '@/db/client';
import { eventRecoveries, events, virtualAgents } from '@/db/schema';
import { ApiError } from '@/platform/errors';

type Job = typeof eventRecoveries.$inferSelect;

/** Recoveries as the admin API shows them, with the states of the events each put back (events_recovery_idx). */
export async function recoveryViews(db: Db, jobs: Job[]): Promise<Recovery[]> {
  const counts = new Map<string, number>();
  if (jobs.length) {
    const rows = await db
      .select({ id: events.recoveryId, status: events.status, n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(events)
      .where(
        inArray(
          events.recoveryId,
          jobs.map((j) => j.id),
        ),
      )
      .groupBy(events.recoveryId, events.status);
    for (const r of rows) counts.set(`${r.id}:${r.status}`, r.n);
  }
  const n = (id: number, status: string) => counts.get(`${id}:${status}`) ?? 0;
  return jobs.map((j) => ({
    id: j.id,
    virtual_agent_id: j.virtualAgentId,
    since: j.since.toISOString(),
    until: j.until.toISOString(),
    status: j.status,
    total: j.total,
    requeued: j.requeued,
    delivered: n(j.id, 'delivered'),
    failed: n(j.id, 'failed'),
    pending: n(j.id, 'pending'),
    created_at: j.createdAt.toISOString(),
    finished_at: j.finishedAt?.toISOString() ?? null,
  }));
}

/** The VA's ten latest recoveries, newest first (event_recoveries_va_created_idx). */
export async function listRecoveries(db: Db, { accountId, virtualAgentId }: { accountId: number; virtualAgentId: number }) {
  const [va] = await db
    .select({ id: virtualAgents.userId })
    .from(virtualAgents)
    .where(and(eq(virtualAgents.userId, virtualAgentId), eq(virtualAgents.accountId, accountId)));
  if (!va) throw new ApiError(3006, { detail: `no virtual agent ${virtualAgentId}` });
  const jobs = await db
    .select()
    .from(eventRecoveries)
    .where(and(eq(eventRecoveries.virtualAgentId, virtualAgentId), eq(eventRecoveries.accountId, accountId)))
    .orderBy(desc(eventRecoveries.createdAt))
    .limit(10);
  return recoveryViews(db, jobs);
}
