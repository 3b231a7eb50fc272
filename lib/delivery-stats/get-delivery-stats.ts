import { and, count, desc, eq, gte, sql } from 'drizzle-orm';
import type { DeliveryStats, DeliveryWindow } from '@/contracts/schemas/admin-delivery';
import type { Db } from '@/db/client';
import { deliveryAttempts, events, users } from '@/db/schema';

const WINDOWS: Record<DeliveryWindow, { ms: number; bucketSeconds: number }> = {
  '15m': { ms: 15 * 60_000, bucketSeconds: 60 },
  '1h': { ms: 60 * 60_000, bucketSeconds: 60 },
  '24h': { ms: 24 * 60 * 60_000, bucketSeconds: 600 },
};

const num = (v: unknown) => Number(v ?? 0);
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const epochToIso = (v: unknown) => (v === null || v === undefined ? null : new Date(Number(v) * 1000).toISOString());

const succeeded = sql`${deliveryAttempts.httpStatus} = 200`;
/** The attempt that made its event fail for good: unsuccessful, the event `failed`, no later attempt. */
const finalFailure = sql`(${events.status} = 'failed' and not exists (select 1 from "delivery_attempts" "later" where "later"."event_id" = ${deliveryAttempts.eventId} and "later"."attempt_number" > ${deliveryAttempts.attemptNumber}))`;
const errorText = sql`coalesce(${deliveryAttempts.error}, 'HTTP ' || ${deliveryAttempts.httpStatus}::text)`;

/**
 * Delivery attempts of the account over a window, bucketed by the time they started, with latency
 * percentiles, the VAs failing most and the current backlog. Epoch seconds come out of SQL so that
 * both drivers hand back plain numbers.
 */
export async function getDeliveryStats(
  db: Db,
  { accountId, window, now = new Date() }: { accountId: number; window: DeliveryWindow; now?: Date },
): Promise<DeliveryStats> {
  const { ms, bucketSeconds } = WINDOWS[window];
  const bucketMs = bucketSeconds * 1000;
  // The last bucket is the current, partial one; the window holds ms / bucketMs buckets.
  const current = Math.floor(now.getTime() / bucketMs) * bucketMs;
  const from = new Date(current - ms + bucketMs);
  const inWindow = and(eq(events.accountId, accountId), gte(deliveryAttempts.startedAt, from));
  // A literal interval, so the grouped expression is the selected one (a parameter would differ).
  const bucket = sql`date_bin(${sql.raw(`interval '${bucketSeconds} seconds'`)}, ${deliveryAttempts.startedAt}, timestamptz '2000-01-01 00:00:00+00')`;
  const notOk = sql`${deliveryAttempts.httpStatus} is distinct from 200`;

  const rows = await db
    .select({
      epoch: sql`extract(epoch from ${bucket})::float8`.mapWith(num),
      delivered: sql`count(*) filter (where ${succeeded})`.mapWith(num),
      failed: sql`count(*) filter (where ${notOk} and ${finalFailure})`.mapWith(num),
      retried: sql`count(*) filter (where ${notOk} and not ${finalFailure})`.mapWith(num),
    })
    .from(deliveryAttempts)
    .innerJoin(events, eq(events.id, deliveryAttempts.eventId))
    .where(inWindow)
    .groupBy(bucket);

  const [latency] = await db
    .select({
      p50: sql`percentile_cont(0.5) within group (order by ${deliveryAttempts.durationMs})`.mapWith(numOrNull),
      p95: sql`percentile_cont(0.95) within group (order by ${deliveryAttempts.durationMs})`.mapWith(numOrNull),
      p99: sql`percentile_cont(0.99) within group (order by ${deliveryAttempts.durationMs})`.mapWith(numOrNull),
    })
    .from(deliveryAttempts)
    .innerJoin(events, eq(events.id, deliveryAttempts.eventId))
    .where(inWindow);

  const failedAttempts = sql`count(*) filter (where ${notOk})`;
  const failing = await db
    .select({
      id: events.virtualAgentId,
      loginId: users.loginId,
      name: users.name,
      attempts: count().mapWith(num),
      failedAttempts: failedAttempts.mapWith(num),
      lastError: sql<string | null>`(array_agg(${errorText} order by ${deliveryAttempts.startedAt} desc) filter (where ${notOk}))[1]`,
      lastErrorAt: sql`extract(epoch from max(${deliveryAttempts.startedAt}) filter (where ${notOk}))::float8`.mapWith(numOrNull),
    })
    .from(deliveryAttempts)
    .innerJoin(events, eq(events.id, deliveryAttempts.eventId))
    .innerJoin(users, eq(users.id, events.virtualAgentId))
    .where(inWindow)
    .groupBy(events.virtualAgentId, users.loginId, users.name)
    .having(sql`${failedAttempts} > 0`)
    .orderBy(desc(failedAttempts), events.virtualAgentId)
    .limit(5);

  const [backlog] = await db
    .select({
      pending: count().mapWith(num),
      retrying: sql`count(*) filter (where ${events.attemptCount} > 0)`.mapWith(num),
      oldest: sql`extract(epoch from min(${events.createdAt}))::float8`.mapWith(numOrNull),
    })
    .from(events)
    .where(and(eq(events.accountId, accountId), eq(events.status, 'pending')));

  const byBucket = new Map(rows.map((r) => [Math.round(r.epoch * 1000), r]));
  const buckets: DeliveryStats['buckets'] = [];
  for (let t = from.getTime(); t <= current; t += bucketMs) {
    const r = byBucket.get(t);
    buckets.push({ minute: new Date(t).toISOString(), delivered: r?.delivered ?? 0, retried: r?.retried ?? 0, failed: r?.failed ?? 0 });
  }
  const totals = { attempts: 0, delivered: 0, retried: 0, failed: 0 };
  for (const r of rows) {
    totals.delivered += r.delivered;
    totals.retried += r.retried;
    totals.failed += r.failed;
  }
  totals.attempts = totals.delivered + totals.retried + totals.failed;

  return {
    window,
    from: from.toISOString(),
    to: now.toISOString(),
    bucket_seconds: bucketSeconds,
    buckets,
    totals,
    latency_ms: { p50: latency?.p50 ?? null, p95: latency?.p95 ?? null, p99: latency?.p99 ?? null },
    top_failing: failing.map((f) => ({
      virtual_agent_id: f.id,
      login_id: f.loginId,
      name: f.name,
      attempts: f.attempts,
      failed_attempts: f.failedAttempts,
      last_error: f.lastError,
      last_error_at: epochToIso(f.lastErrorAt),
    })),
    backlog: { pending: backlog?.pending ?? 0, retrying: backlog?.retrying ?? 0, oldest_pending_since: epochToIso(backlog?.oldest) },
  };
}
