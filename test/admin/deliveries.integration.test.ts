import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { deliveryAttempts, events } from '@/db/schema';
import type { ApiClient } from '../support/api-client';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { signedInAdmin, signedInAdminOf } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';

type Hit = { headers: IncomingHttpHeaders; raw: string };

/** A local webhook receiver answering `status` with a short body. */
async function receiver(status: number) {
  const hits: Hit[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      hits.push({ headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, hits, close: () => server.close() };
}

describe('admin delivery tools', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let admin: ApiClient;
  let outsider: ApiClient;

  before(async () => {
    t = await createTenant(ctx.db);
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
    outsider = (await signedInAdmin(ctx.db)).client;
  });

  describe('POST /virtual-agents/{id}/test-event', () => {
    const servers: { close: () => void }[] = [];
    after(() => {
      for (const s of servers) s.close();
    });

    it('sends one signed chat.assigned test event with the static headers and reports the answer', async () => {
      const hook = await receiver(200);
      servers.push(hook);
      const team = (await admin.post('/teams', { name: 'Test bots', auto_assign: false })).body.response;
      const created = await admin.post('/virtual-agents', {
        name: 'Tested bot',
        description: 'gets a test event',
        webhook_url: hook.url,
        webhook_headers: { 'X-Tenant': 'acme' },
        team_id: team.id,
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const va = created.body.response;

      const res = await admin.post(`/virtual-agents/${va.id}/test-event`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const result = res.body.response;
      assert.equal(result.ok, true);
      assert.equal(result.http_status, 200);
      assert.equal(result.error, null);
      assert.equal(result.response_excerpt, 'answer 200');
      assert.ok(Number.isInteger(result.duration_ms) && result.duration_ms >= 0);
      assert.match(result.chat_id, /^test-/);

      assert.equal(hook.hits.length, 1, 'sent exactly once');
      const [hit] = hook.hits;
      const body = JSON.parse(hit.raw);
      assert.doesNotThrow(() => new Webhook(va.signing_secret).verify(hit.raw, hit.headers as Record<string, string>));
      assert.equal(hit.headers['x-tenant'], 'acme');
      assert.equal(hit.headers['webhook-id'], result.transaction_id);
      assert.equal(body.event_type, 'chat.assigned');
      assert.equal(body.test, true);
      assert.equal(body.chat_id, result.chat_id);
      assert.equal(body.transaction_id, result.transaction_id);
      assert.ok(body.posted_on);

      const stored = await ctx.db.select().from(events).where(eq(events.transactionId, result.transaction_id));
      assert.deepEqual(stored, [], 'a test event is not stored');
    });

    it('reports a webhook that does not answer 200 as ok: false, without retrying', async () => {
      const hook = await receiver(503);
      servers.push(hook);
      await admin.patch(`/virtual-agents/${t.bot.user.id}`, { webhook_url: hook.url });
      const res = await admin.post(`/virtual-agents/${t.bot.user.id}/test-event`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.response.ok, false);
      assert.equal(res.body.response.http_status, 503);
      assert.equal(res.body.response.response_excerpt, 'answer 503');
      assert.equal(hook.hits.length, 1);
    });

    it('reports an unreachable webhook with the error and no status', async () => {
      await admin.patch(`/virtual-agents/${t.bot.user.id}`, { webhook_url: 'http://127.0.0.1:9/closed' });
      const res = await admin.post(`/virtual-agents/${t.bot.user.id}/test-event`);
      assert.equal(res.body.response.ok, false);
      assert.equal(res.body.response.http_status, null);
      assert.match(res.body.response.error, /ECONNREFUSED|refused/i);
    });

    it("answers 3006 for an unknown VA or another account's VA", async () => {
      assert.equal((await admin.post('/virtual-agents/999999/test-event')).body.status_code, 3006);
      const res = await outsider.post(`/virtual-agents/${t.bot.user.id}/test-event`);
      assert.equal(res.status, 404);
      assert.equal(res.body.status_code, 3006);
    });
  });

  describe('GET /deliveries/stats and /deliveries/virtual-agents', () => {
    let finalFailureAt: Date;
    before(async () => {
      // Three events of the tenant's bot: one delivered after a retry, one failed for good, one pending.
      const chats = [await newChat(t, { assignee: t.bot.user.loginId }), await newChat(t, { assignee: t.bot.user.loginId })];
      await newChat(t, { assignee: t.bot.user.loginId });
      const [delivered, failed] = await Promise.all(
        chats.map(async (c) => (await ctx.db.select().from(events).where(eq(events.chatId, c.chat_id)))[0]),
      );
      const now = Date.now();
      const at = (msAgo: number) => new Date(now - msAgo);
      await ctx.db.insert(deliveryAttempts).values([
        {
          eventId: delivered.id,
          attemptNumber: 1,
          startedAt: at(120_000),
          durationMs: 100,
          httpStatus: 500,
          error: null,
          responseExcerpt: 'no',
        },
        {
          eventId: delivered.id,
          attemptNumber: 2,
          startedAt: at(60_000),
          durationMs: 20,
          httpStatus: 200,
          error: null,
          responseExcerpt: 'ok',
        },
        {
          eventId: failed.id,
          attemptNumber: 1,
          startedAt: at(60_000),
          durationMs: 30,
          httpStatus: null,
          error: 'timed out after 5000 ms',
          responseExcerpt: null,
        },
        {
          eventId: failed.id,
          attemptNumber: 2,
          startedAt: at(1_000),
          durationMs: 40,
          httpStatus: 502,
          error: null,
          responseExcerpt: 'bad gateway',
        },
        // Outside a 15-minute window, inside 24 hours.
        {
          eventId: delivered.id,
          attemptNumber: 0,
          startedAt: at(3 * 3_600_000),
          durationMs: 10,
          httpStatus: 200,
          error: null,
          responseExcerpt: 'ok',
        },
      ]);
      await ctx.db
        .update(events)
        .set({ status: 'delivered', attemptCount: 2, deliveredAt: at(60_000) })
        .where(eq(events.id, delivered.id));
      finalFailureAt = at(1_000);
      await ctx.db.update(events).set({ status: 'failed', attemptCount: 2, failedAt: finalFailureAt }).where(eq(events.id, failed.id));
    });

    it('buckets attempts per minute as delivered, retried and failed, with percentiles, top failing VAs and backlog', async () => {
      const res = await admin.get('/deliveries/stats?window=15m');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const stats = res.body.response;
      assert.equal(stats.window, '15m');
      assert.equal(stats.bucket_seconds, 60);
      assert.equal(stats.buckets.length, 15);
      const sum = (k: string) => stats.buckets.reduce((n: number, b: Record<string, number>) => n + b[k], 0);
      assert.deepEqual(
        { delivered: sum('delivered'), retried: sum('retried'), failed: sum('failed') },
        { delivered: 1, retried: 2, failed: 1 },
      );
      assert.deepEqual(stats.totals, { attempts: 4, delivered: 1, retried: 2, failed: 1, superseded: 0 });
      const minuteOf = new Date(Math.floor(finalFailureAt.getTime() / 60_000) * 60_000).toISOString();
      assert.equal(
        stats.buckets.find((b: { minute: string }) => b.minute === minuteOf)?.failed,
        1,
        'the final failure lands in its minute',
      );
      assert.equal(stats.latency_ms.p50, 35);
      assert.ok(stats.latency_ms.p95 > 85 && stats.latency_ms.p99 <= 100);
      assert.deepEqual(stats.top_failing, [
        {
          virtual_agent_id: t.bot.user.id,
          login_id: t.bot.user.loginId,
          name: t.bot.user.name,
          attempts: 4,
          failed_attempts: 3,
          last_error: 'HTTP 502',
          last_error_at: stats.top_failing[0].last_error_at,
        },
      ]);
      assert.deepEqual(
        { pending: stats.backlog.pending, retrying: stats.backlog.retrying },
        { pending: 1, retrying: 0 },
        'the third event waits (the delivery engine is off in tests)',
      );
      assert.ok(stats.backlog.oldest_pending_since);
    });

    it('widens to 24 hours in ten-minute buckets and defaults to 1 hour', async () => {
      const day = (await admin.get('/deliveries/stats?window=24h')).body.response;
      assert.equal(day.bucket_seconds, 600);
      assert.equal(day.buckets.length, 144);
      assert.equal(day.totals.delivered, 2);
      const hour = (await admin.get('/deliveries/stats')).body.response;
      assert.equal(hour.window, '1h');
      assert.equal(hour.buckets.length, 60);
    });

    it('refuses an unknown window with 2001 and shows another account nothing', async () => {
      const bad = await admin.get('/deliveries/stats?window=2d');
      assert.equal(bad.status, 400);
      assert.equal(bad.body.status_code, 2001);
      const theirs = (await outsider.get('/deliveries/stats?window=24h')).body.response;
      assert.deepEqual(theirs.totals, { attempts: 0, delivered: 0, retried: 0, failed: 0, superseded: 0 });
      assert.deepEqual(theirs.top_failing, []);
      assert.equal(theirs.backlog.pending, 0);
      assert.deepEqual(theirs.latency_ms, { p50: null, p95: null, p99: null });
    });

    it('gives each VA its success rate, last error and backlog over 24 hours', async () => {
      const res = await admin.get('/deliveries/virtual-agents');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const mine = res.body.response.find((h: { virtual_agent_id: number }) => h.virtual_agent_id === t.bot.user.id);
      assert.equal(mine.attempts, 5);
      assert.equal(mine.delivered, 2);
      assert.equal(mine.success_rate, 0.4);
      assert.equal(mine.last_error, 'HTTP 502');
      assert.equal(mine.failed_events, 1);
      assert.equal(mine.pending, 1);
      const idle = res.body.response.find((h: { login_id: string }) => h.login_id === 'va-tested-bot');
      assert.equal(idle.success_rate, null);
      assert.equal((await outsider.get('/deliveries/virtual-agents')).body.response.length, 0);
    });
  });
});
