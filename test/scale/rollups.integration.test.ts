import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { deliveryAttempts, events } from '@/db/schema';
import { getDeliveryStats } from '@/lib/delivery-stats/get-delivery-stats';
import { listVirtualAgentHealth } from '@/lib/delivery-stats/list-virtual-agent-health';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

/** Rows of a raw statement, whichever driver ran it. */
const rowsOf = <T>(r: unknown) => (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as T[];

describe('delivery rollups', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  const now = new Date();
  const at = (msAgo: number) => new Date(now.getTime() - msAgo);

  before(async () => {
    t = await createTenant(ctx.db);
    const chats = [];
    for (let i = 0; i < 6; i++) chats.push(await newChat(t, { assignee: t.bot.user.loginId }));
    const ev = await Promise.all(chats.map(async (c) => (await ctx.db.select().from(events).where(eq(events.chatId, c.chat_id)))[0]));
    // Several statements, several rows each (as the delivery engine records a batch), across minutes.
    const durations = [12, 37, 99, 140, 251, 980, 1234, 4999, 15, 66];
    let n = 0;
    for (const [i, e] of ev.entries()) {
      const attempts = Array.from({ length: 3 }, (_, k) => ({
        eventId: e.id,
        attemptNumber: k + 1,
        startedAt: at((i * 7 + k * 3) * 60_000 + 1_000 * k),
        durationMs: durations[n++ % durations.length],
        httpStatus: k === 2 && i % 3 !== 0 ? 200 : i % 2 ? 500 : null,
        error: k === 2 && i % 3 !== 0 ? null : i % 2 ? null : `timed out ${i}`,
      }));
      await ctx.db.insert(deliveryAttempts).values(attempts);
    }
    // Events 0 and 3 failed for good; 0 is then redelivered and succeeds.
    for (const e of [ev[0], ev[3]])
      await ctx.db
        .update(events)
        .set({ status: 'failed', failedAt: at(60_000) })
        .where(eq(events.id, e.id));
    for (const e of ev.filter((_, i) => i % 3 !== 0))
      await ctx.db
        .update(events)
        .set({ status: 'delivered', deliveredAt: at(60_000) })
        .where(eq(events.id, e.id));
    await ctx.db.update(events).set({ status: 'pending', failedAt: null }).where(eq(events.id, ev[0].id));
    await ctx.db
      .insert(deliveryAttempts)
      .values({ eventId: ev[0].id, attemptNumber: 4, startedAt: at(30_000), durationMs: 321, httpStatus: 200 });
    await ctx.db
      .update(events)
      .set({ status: 'delivered', deliveredAt: at(30_000) })
      .where(eq(events.id, ev[0].id));
  });

  for (const window of ['15m', '1h', '24h'] as const) {
    it(`gives the same ${window} chart, totals and failing VAs as the raw attempts`, async () => {
      const stats = await getDeliveryStats(ctx.db, { accountId: t.account.id, window, now });
      const from = stats.from;
      const raw = rowsOf<{ minute: string; delivered: number; retried: number; failed: number }>(
        await ctx.db.execute(sql`
          select extract(epoch from date_bin(${sql.raw(`interval '${stats.bucket_seconds} seconds'`)}, a.started_at, timestamptz '2000-01-01 00:00:00+00'))::float8 as minute,
            count(*) filter (where a.http_status = 200)::int as delivered,
            count(*) filter (where a.http_status is distinct from 200 and not (e.status = 'failed' and not exists (
              select 1 from delivery_attempts l where l.event_id = a.event_id and l.attempt_number > a.attempt_number)))::int as retried,
            count(*) filter (where a.http_status is distinct from 200 and e.status = 'failed' and not exists (
              select 1 from delivery_attempts l where l.event_id = a.event_id and l.attempt_number > a.attempt_number))::int as failed
          from delivery_attempts a join events e on e.id = a.event_id
          where e.account_id = ${t.account.id} and a.started_at >= ${from}::timestamptz group by 1`),
      );
      const rawBuckets = new Map(raw.map((r) => [new Date(Number(r.minute) * 1000).toISOString(), r]));
      for (const b of stats.buckets) {
        const r = rawBuckets.get(b.minute);
        assert.deepEqual(
          { delivered: b.delivered, retried: b.retried, failed: b.failed },
          { delivered: Number(r?.delivered ?? 0), retried: Number(r?.retried ?? 0), failed: Number(r?.failed ?? 0) },
          `bucket ${b.minute}`,
        );
      }
      const total = raw.reduce((s, r) => s + Number(r.delivered) + Number(r.retried) + Number(r.failed), 0);
      assert.equal(stats.totals.attempts, total);
      assert.ok(total > 0, 'the window holds attempts');

      const [exact] = rowsOf<{ p50: number | null; p95: number | null; p99: number | null }>(
        await ctx.db.execute(sql`
          select percentile_cont(0.5) within group (order by a.duration_ms) as p50,
            percentile_cont(0.95) within group (order by a.duration_ms) as p95,
            percentile_cont(0.99) within group (order by a.duration_ms) as p99
          from delivery_attempts a join events e on e.id = a.event_id
          where e.account_id = ${t.account.id} and a.started_at >= ${from}::timestamptz`),
      );
      for (const p of ['p50', 'p95', 'p99'] as const) {
        const want = Number(exact[p]);
        const got = stats.latency_ms[p] as number;
        // Durations of 100 ms and more are kept to two significant figures.
        assert.ok(Math.abs(got - want) <= want * 0.05, `${p}: rollup ${got}, raw ${want}`);
      }
      const failing = stats.top_failing[0];
      const [va] = rowsOf<{ attempts: number; not_ok: number }>(
        await ctx.db.execute(sql`
          select count(*)::int as attempts, count(*) filter (where a.http_status is distinct from 200)::int as not_ok
          from delivery_attempts a join events e on e.id = a.event_id
          where e.account_id = ${t.account.id} and a.started_at >= ${from}::timestamptz`),
      );
      assert.deepEqual(
        { attempts: failing.attempts, failed: failing.failed_attempts },
        { attempts: Number(va.attempts), failed: Number(va.not_ok) },
      );
    });
  }

  it('gives each VA the same 24-hour health as the raw attempts, to the second', async () => {
    const [health] = (await listVirtualAgentHealth(ctx.db, { accountId: t.account.id, now })).filter(
      (h) => h.virtual_agent_id === t.bot.user.id,
    );
    const [raw] = rowsOf<{ attempts: number; delivered: number; last_error: string | null }>(
      await ctx.db.execute(sql`
        select count(*)::int as attempts, count(*) filter (where a.http_status = 200)::int as delivered,
          (array_agg(coalesce(a.error, 'HTTP ' || a.http_status::text) order by a.started_at desc) filter (where a.http_status is distinct from 200))[1] as last_error
        from delivery_attempts a join events e on e.id = a.event_id
        where e.account_id = ${t.account.id} and a.started_at >= ${new Date(now.getTime() - 86_400_000).toISOString()}::timestamptz`),
    );
    assert.deepEqual(
      { attempts: health.attempts, delivered: health.delivered, last_error: health.last_error },
      { attempts: Number(raw.attempts), delivered: Number(raw.delivered), last_error: raw.last_error },
    );
  });
});
