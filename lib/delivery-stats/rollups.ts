import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { deliveryAttempts, deliveryLatencyRollups, deliveryRollups, events } from '@/db/schema';

export const num = (v: unknown) => Number(v ?? 0);
export const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * `percentile_cont` over a histogram of (duration, attempts): the value at position p·(n−1) of
 * the sorted durations, interpolated between its neighbours, as PostgreSQL computes it over the rows.
 */
export function percentileFromHistogram(histogram: { durationMs: number; attempts: number }[], p: number): number | null {
  const sorted = histogram.filter((h) => h.attempts > 0).sort((a, b) => a.durationMs - b.durationMs);
  const n = sorted.reduce((s, h) => s + h.attempts, 0);
  if (n === 0) return null;
  const pos = p * (n - 1);
  const valueAt = (k: number) => {
    let seen = 0;
    for (const h of sorted) {
      seen += h.attempts;
      if (k < seen) return h.durationMs;
    }
    return sorted[sorted.length - 1].durationMs;
  };
  const lo = Math.floor(pos);
  const low = valueAt(lo);
  return low + (valueAt(Math.ceil(pos)) - low) * (pos - lo);
}

/** Attempts of the account per duration since `from` (a minute boundary), from the latency rollups. */
export async function latencyHistogram(db: Db, { accountId, from }: { accountId: number; from: Date }) {
  return db
    .select({
      durationMs: deliveryLatencyRollups.durationMs,
      attempts: sql`sum(${deliveryLatencyRollups.attempts})`.mapWith(num),
    })
    .from(deliveryLatencyRollups)
    .where(and(eq(deliveryLatencyRollups.accountId, accountId), gte(deliveryLatencyRollups.minute, from)))
    .groupBy(deliveryLatencyRollups.durationMs);
}

const notOk = sql`${deliveryAttempts.httpStatus} is distinct from 200`;

/**
 * Per-VA outcomes of the account's attempts since `since`, which need not fall on a minute: whole
 * minutes come from the rollups, the seconds before the first whole minute from the attempts
 * themselves (at most a minute of them).
 */
export async function attemptsByVirtualAgent(db: Db, { accountId, since }: { accountId: number; since: Date }) {
  const firstMinute = new Date(Math.ceil(since.getTime() / 60_000) * 60_000);
  const rolled = await db
    .select({
      id: deliveryRollups.virtualAgentId,
      attempts: sql`sum(${deliveryRollups.attempts})`.mapWith(num),
      delivered: sql`sum(${deliveryRollups.delivered})`.mapWith(num),
      notOk: sql`sum(${deliveryRollups.notOk})`.mapWith(num),
      lastAttemptAt: sql`extract(epoch from max(${deliveryRollups.lastAttemptAt}))::float8`.mapWith(numOrNull),
      lastError: sql<
        string | null
      >`(array_agg(${deliveryRollups.lastError} order by ${deliveryRollups.lastErrorAt} desc) filter (where ${deliveryRollups.lastErrorAt} is not null))[1]`,
      lastErrorAt: sql`extract(epoch from max(${deliveryRollups.lastErrorAt}))::float8`.mapWith(numOrNull),
    })
    .from(deliveryRollups)
    .where(and(eq(deliveryRollups.accountId, accountId), gte(deliveryRollups.minute, firstMinute)))
    .groupBy(deliveryRollups.virtualAgentId);
  const edge =
    firstMinute.getTime() === since.getTime()
      ? []
      : await db
          .select({
            id: events.virtualAgentId,
            attempts: sql`count(*)`.mapWith(num),
            delivered: sql`count(*) filter (where ${deliveryAttempts.httpStatus} = 200)`.mapWith(num),
            notOk: sql`count(*) filter (where ${notOk})`.mapWith(num),
            lastAttemptAt: sql`extract(epoch from max(${deliveryAttempts.startedAt}))::float8`.mapWith(numOrNull),
            lastError: sql<
              string | null
            >`(array_agg(coalesce(${deliveryAttempts.error}, 'HTTP ' || ${deliveryAttempts.httpStatus}::text) order by ${deliveryAttempts.startedAt} desc) filter (where ${notOk}))[1]`,
            lastErrorAt: sql`extract(epoch from max(${deliveryAttempts.startedAt}) filter (where ${notOk}))::float8`.mapWith(numOrNull),
          })
          .from(deliveryAttempts)
          .innerJoin(events, eq(events.id, deliveryAttempts.eventId))
          .where(and(eq(events.accountId, accountId), gte(deliveryAttempts.startedAt, since), lt(deliveryAttempts.startedAt, firstMinute)))
          .groupBy(events.virtualAgentId);

  type Row = (typeof rolled)[number];
  const byVa = new Map<number, Row>();
  for (const r of [...rolled, ...edge]) {
    const seen = byVa.get(r.id);
    if (!seen) {
      byVa.set(r.id, { ...r });
      continue;
    }
    seen.attempts += r.attempts;
    seen.delivered += r.delivered;
    seen.notOk += r.notOk;
    seen.lastAttemptAt = maxOrNull(seen.lastAttemptAt, r.lastAttemptAt);
    if (r.lastErrorAt !== null && (seen.lastErrorAt === null || r.lastErrorAt > seen.lastErrorAt)) {
      seen.lastError = r.lastError;
      seen.lastErrorAt = r.lastErrorAt;
    }
  }
  return byVa;
}

function maxOrNull(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}
