import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { eventRecoveries } from '@/db/schema';
import { signalOutbox } from '@/lib/events/signal';
import { processStore } from '@/platform/util/process-store';
import { rowsOf } from '@/platform/util/rows-of';

/** Events a recovery puts back at once; the next batch waits until these have left `pending`. */
const RECOVERY_BATCH = 500;
const LEASE_MS = 30_000;

const store = processStore<{ __vaRecoveryWake?: () => void }>();

/** Asks this process's runner (if any) to look at the recoveries now rather than at its next tick. */
export function wakeRecoveries(): void {
  store.__vaRecoveryWake?.();
}

/** Registers the runner's wake-up (the embedded engine's recovery timer). */
export function onRecoveryWake(wake: (() => void) | undefined): void {
  store.__vaRecoveryWake = wake;
}

type Step = 'waiting' | 'requeued' | 'done';

/**
 * One step of each running recovery that no other instance holds: when none of the events it put
 * back is still pending, the next batch of the VA's failed events in its window (oldest first,
 * after its cursor; events_va_failed_created_idx) goes back in the queue with a fresh retry run
 * and the job's id; with none left, the job is done. Each chat's events keep their order: only the
 * lowest pending one of a chat is ever sent. Returns what each job did.
 */
export async function advanceRecoveries(db: Db, { batchSize = RECOVERY_BATCH }: { batchSize?: number } = {}): Promise<Map<number, Step>> {
  const steps = new Map<number, Step>();
  for (;;) {
    const [job] = await db
      .update(eventRecoveries)
      .set({ lockedUntil: sql`now() + ${LEASE_MS}::int * interval '1 millisecond'` })
      .where(
        sql`${eventRecoveries.id} = (
          select "id" from "event_recoveries"
          where "status" = 'running' and ("locked_until" is null or "locked_until" <= now())
            and not (${sql.raw(steps.size ? `"id" in (${[...steps.keys()].join(',')})` : 'false')})
          order by "created_at" limit 1 for update skip locked)`,
      )
      .returning();
    if (!job) return steps;
    try {
      steps.set(job.id, await step(db, job, batchSize));
    } finally {
      await db.update(eventRecoveries).set({ lockedUntil: null }).where(sql`${eventRecoveries.id} = ${job.id}`);
    }
  }
}

async function step(db: Db, job: typeof eventRecoveries.$inferSelect, batchSize: number): Promise<Step> {
  const [waiting] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from (
      select 1 from "events" where "recovery_id" = ${job.id} and "status" = 'pending' limit 1) as p`),
  );
  if (Number(waiting?.n) > 0) return 'waiting';
  const after = job.cursorCreatedAt
    ? sql`and ("created_at", "id") > (${job.cursorCreatedAt.toISOString()}::timestamptz, ${job.cursorId}::bigint)`
    : sql``;
  const requeued = rowsOf<{ id: string | number; created_at: string | Date }>(
    await db.execute(sql`
      with "picked" as (
        select "id" from "events"
        where "virtual_agent_id" = ${job.virtualAgentId} and "status" = 'failed'
          and "created_at" >= ${job.since.toISOString()}::timestamptz and "created_at" < ${job.until.toISOString()}::timestamptz
          ${after}
        order by "created_at", "id"
        limit ${batchSize})
      update "events" set "status" = 'pending', "attempt_count" = 0, "next_attempt_at" = now(), "locked_until" = null,
        "failed_at" = null, "recovery_id" = ${job.id}, "updated_at" = now()
      from "picked" where "events"."id" = "picked"."id" and "events"."status" = 'failed'
      returning "events"."id", "events"."created_at"`),
  );
  if (!requeued.length) {
    await db
      .update(eventRecoveries)
      .set({ status: 'done', finishedAt: sql`now()`, updatedAt: sql`now()` })
      .where(sql`${eventRecoveries.id} = ${job.id}`);
    return 'done';
  }
  const last = requeued
    .map((r) => ({ id: Number(r.id), at: new Date(r.created_at) }))
    .reduce((a, b) => (b.at.getTime() > a.at.getTime() || (b.at.getTime() === a.at.getTime() && b.id > a.id) ? b : a));
  await db
    .update(eventRecoveries)
    .set({
      requeued: sql`${eventRecoveries.requeued} + ${requeued.length}`,
      cursorCreatedAt: last.at,
      cursorId: last.id,
      updatedAt: sql`now()`,
    })
    .where(sql`${eventRecoveries.id} = ${job.id}`);
  signalOutbox(requeued.map((r) => Number(r.id)));
  return 'requeued';
}
