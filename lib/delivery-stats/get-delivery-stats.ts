import { and, count, desc, eq, gte, isNotNull, sql } from 'drizzle-orm';
import type { DeliveryStats, DeliveryWindow } from '@/contracts/admin/schemas/delivery';
import type { Db } from '@/db/client';
import { deliveryRollups, events, users } from '@/db/schema';
import { latencyHistogram, num, numOrNull, percentileFromHistogram } from './rollups';

const WINDOWS: Record<DeliveryWindow, { ms: number; bucketSeconds: number }> = {
  '15m': { ms: 15 * 60_000, bucketSeconds: 60 },
  '1h': { ms: 60 * 60_000, bucketSeconds: 60 },
  '24h': { ms: 24 * 60 * 60_000, bucketSeconds: 600 },
};

const epochToIso = (v: unknown) => (v === null || v === undefined ? null : new Date(Number(v) * 1000).toISOString());

/**
 * Delivery attempts of the account over a window, bucketed by the time they started, with latency
 * percentiles, the VAs failing most and the current backlog. Everything but the backlog comes from
 * the per-minute rollups (see `delivery_rollups`), so the cost follows the window's length, not
 * the number of attempts in it. Epoch seconds come out of SQL so that both drivers hand back plain numbers.
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
  const inWindow = and(eq(deliveryRollups.accountId, accountId), gte(deliveryRollups.minute, from));
  // A literal interval, so the grouped expression is the selected one (a parameter would differ).
  const bucket = sql`date_bin(${sql.raw(`interval '${bucketSeconds} seconds'`)}, ${deliveryRollups.minute}, timestamptz '2000-01-01 00:00:00+00')`;

  const rows = await db
    .select({
      epoch: sql`extract(epoch from ${bucket})::float8`.mapWith(num),
      delivered: sql`sum(${deliveryRollups.delivered})`.mapWith(num),
      failed: sql`sum(${deliveryRollups.failed})`.mapWith(num),
      retried: sql`sum(${deliveryRollups.notOk} - ${deliveryRollups.failed})`.mapWith(num),
    })
    .from(deliveryRollups)
    .where(inWindow)
    .groupBy(bucket);

  const histogram = await latencyHistogram(db, { accountId, from });
  const latency = {
    p50: percentileFromHistogram(histogram, 0.5),
    p95: percentileFromHistogram(histogram, 0.95),
    p99: percentileFromHistogram(histogram, 0.99),
  };

  const failedAttempts = sql`sum(${deliveryRollups.notOk})`;
  const failing = await db
    .select({
      id: deliveryRollups.virtualAgentId,
      loginId: users.loginId,
      name: users.name,
      attempts: sql`sum(${deliveryRollups.attempts})`.mapWith(num),
      failedAttempts: failedAttempts.mapWith(num),
      lastError: sql<
        string | null
      >`(array_agg(${deliveryRollups.lastError} order by ${deliveryRollups.lastErrorAt} desc) filter (where ${deliveryRollups.lastErrorAt} is not null))[1]`,
      lastErrorAt: sql`extract(epoch from max(${deliveryRollups.lastErrorAt}))::float8`.mapWith(numOrNull),
    })
    .from(deliveryRollups)
    .innerJoin(users, eq(users.id, deliveryRollups.virtualAgentId))
    .where(inWindow)
    .groupBy(deliveryRollups.virtualAgentId, users.loginId, users.name)
    .having(sql`${failedAttempts} > 0`)
    .orderBy(desc(failedAttempts), deliveryRollups.virtualAgentId)
    .limit(5);

  const [backlog] = await db
    .select({
      pending: count().mapWith(num),
      retrying: sql`count(*) filter (where ${events.attemptCount} > 0)`.mapWith(num),
      oldest: sql`extract(epoch from min(${events.createdAt}))::float8`.mapWith(numOrNull),
    })
    .from(events)
    .where(and(eq(events.accountId, accountId), eq(events.status, 'pending')));

  // Read from the partial index on superseded events (account, superseded_at).
  const [superseded] = await db
    .select({ n: count().mapWith(num) })
    .from(events)
    .where(and(eq(events.accountId, accountId), isNotNull(events.supersededAt), gte(events.supersededAt, from)));

  const byBucket = new Map(rows.map((r) => [Math.round(r.epoch * 1000), r]));
  const buckets: DeliveryStats['buckets'] = [];
  for (let t = from.getTime(); t <= current; t += bucketMs) {
    const r = byBucket.get(t);
    buckets.push({ minute: new Date(t).toISOString(), delivered: r?.delivered ?? 0, retried: r?.retried ?? 0, failed: r?.failed ?? 0 });
  }
  const totals = { attempts: 0, delivered: 0, retried: 0, failed: 0, superseded: superseded?.n ?? 0 };
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
    latency_ms: latency,
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
