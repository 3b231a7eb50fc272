import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { events, virtualAgents } from '@/db/schema';
import { resetEnv } from '@/env';
import { advanceRecoveries } from '@/lib/delivery/advance-recoveries';
import { claimDueEvents } from '@/lib/delivery/claim-due-events';
import { deliverClaimedEvent } from '@/lib/delivery/deliver-claimed-event';
import { markFailingWebhooks } from '@/lib/delivery/webhook-failing';
import { createBotChat, sendInbound, until } from '../delivery/helpers';
import { type Receiver, startReceiver } from '../delivery/receiver';
import type { ApiClient } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { signedInAdminOf } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';

const OPS_SECRET = `whsec_${Buffer.from('operational secret for the tests').toString('base64')}`;

// Two quick attempts per run, then the event fails.
process.env.DELIVERY_RETRY_DELAYS_MS = '0';
process.env.DELIVERY_TIMEOUT_MS = '500';
resetEnv();

/** Claims and attempts everything due now, round after round, until nothing is due. */
async function deliverAll(db: Parameters<typeof claimDueEvents>[0]) {
  for (let round = 0; round < 50; round++) {
    const claimed = await claimDueEvents(db, { limit: 100 });
    if (!claimed.length) return;
    await Promise.all(claimed.map((event) => deliverClaimedEvent(db, { event })));
  }
  assert.fail('events still due after 50 rounds');
}

describe('long outages of a bot', () => {
  const ctx = setupTestDatabase();
  let bot: Receiver;
  let ops: Receiver;
  let t: Tenant;
  let admin: ApiClient;
  let botUp = false;

  before(async () => {
    bot = await startReceiver(() => (botUp ? { status: 200, body: 'ok' } : { status: 503, body: 'down' }));
    ops = await startReceiver(() => ({ status: 204 }));
    process.env.OPS_WEBHOOK_URL = ops.url;
    process.env.OPS_WEBHOOK_SECRET = OPS_SECRET;
    resetEnv();
    t = await createTenant(ctx.db, { webhookUrl: bot.url, subscriptions: ['chat.assigned', 'message.received'] });
    ({ client: admin } = await signedInAdminOf(ctx.db, t.account.id));
  });
  after(async () => {
    delete process.env.OPS_WEBHOOK_URL;
    delete process.env.OPS_WEBHOOK_SECRET;
    resetEnv();
    await bot.close();
    await ops.close();
  });

  const vaView = async () => (await admin.get(`/virtual-agents/${t.bot.user.id}`)).body.response;

  it('marks a webhook failing after the period of nothing but failures, tells the operators once, and clears it on the next delivery', async () => {
    const chatId = await createBotChat(t);
    await sendInbound(t, chatId, 'hello');
    await deliverAll(ctx.db);
    const [va] = await ctx.db.select().from(virtualAgents).where(eq(virtualAgents.userId, t.bot.user.id));
    assert.ok(va.webhookFailingSince, 'the first failure is noted');
    assert.equal((await vaView()).webhook_failing, null, 'not marked before the period');

    assert.deepEqual(await markFailingWebhooks(ctx.db, { afterSeconds: 3 * 86_400 }), []);
    await ctx.db
      .update(virtualAgents)
      .set({ webhookFailingSince: sql`now() - interval '4 days'` })
      .where(eq(virtualAgents.userId, t.bot.user.id));
    assert.deepEqual(await markFailingWebhooks(ctx.db, { afterSeconds: 3 * 86_400 }), [t.bot.user.id]);
    assert.deepEqual(await markFailingWebhooks(ctx.db, { afterSeconds: 3 * 86_400 }), [], 'a transition is marked once');
    const marked = (await vaView()).webhook_failing;
    assert.ok(marked?.since && marked.marked_at, JSON.stringify(marked));

    const note = await until('the operational event', () => ops.requests.find((r) => r.body?.type === 'virtual_agent.webhook_failing'));
    const verified = new Webhook(OPS_SECRET).verify(note.raw, {
      'webhook-id': String(note.headers['webhook-id']),
      'webhook-timestamp': String(note.headers['webhook-timestamp']),
      'webhook-signature': String(note.headers['webhook-signature']),
    }) as { data: Record<string, unknown> };
    assert.equal(verified.data.virtual_agent_id, t.bot.user.id);
    assert.equal(verified.data.login_id, t.bot.user.loginId);

    // The bot answers again: the next delivery clears the mark and the operators hear of it.
    botUp = true;
    await createBotChat(t);
    await deliverAll(ctx.db);
    assert.equal((await vaView()).webhook_failing, null);
    await until('the recovered event', () => ops.requests.find((r) => r.body?.type === 'virtual_agent.webhook_recovered'));
    assert.equal(ops.requests.filter((r) => r.body?.type === 'virtual_agent.webhook_failing').length, 1);
    botUp = false;
  });

  it('recovers the failed events of a window in order, a batch at a time, with progress', async () => {
    const since = new Date();
    const chats = [await createBotChat(t), await createBotChat(t)];
    for (const chatId of chats) for (const text of ['one', 'two', 'three']) await sendInbound(t, chatId, text);
    await deliverAll(ctx.db);
    const failed = await ctx.db
      .select({ id: events.id })
      .from(events)
      .where(sql`${events.chatId} in (${sql.join(chats, sql`, `)}) and ${events.status} = 'failed'`);
    assert.equal(failed.length, 8, 'chat.assigned and three messages in each chat failed');

    botUp = true;
    bot.requests.length = 0;
    const started = await admin.post(`/virtual-agents/${t.bot.user.id}/recoveries`, { since: since.toISOString() });
    assert.equal(started.status, 201, JSON.stringify(started.body));
    const job = started.body.response;
    assert.equal(job.total, 8);
    assert.equal(job.status, 'running');
    const again = await admin.post(`/virtual-agents/${t.bot.user.id}/recoveries`, { since: since.toISOString() });
    assert.equal(again.status, 409, 'one running recovery per VA');

    for (let i = 0; i < 20; i++) {
      const steps = await advanceRecoveries(ctx.db, { batchSize: 3 });
      if (steps.get(job.id) === 'done') break;
      await deliverAll(ctx.db);
    }
    const [view] = (await admin.get(`/virtual-agents/${t.bot.user.id}/recoveries`)).body.response;
    assert.equal(view.status, 'done');
    assert.deepEqual([view.total, view.requeued, view.delivered, view.failed, view.pending], [8, 8, 8, 0, 0]);
    // Each chat's events arrived once each, in their order.
    for (const chatId of chats) {
      const got = bot.requests.filter((r) => r.body?.payload?.chat_id === chatId || r.body?.chat_id === chatId);
      const types = got.map((r) => r.body.event_type);
      assert.deepEqual(types, ['chat.assigned', 'message.received', 'message.received', 'message.received'], JSON.stringify(types));
      assert.deepEqual(
        got.slice(1).map((r) => r.body.payload.messages[0].text),
        ['one', 'two', 'three'],
      );
    }
    assert.equal(new Set(bot.requests.map((r) => r.headers['webhook-id'])).size, bot.requests.length, 'each sent once');

    const bad = await admin.post(`/virtual-agents/${t.bot.user.id}/recoveries`, { since: new Date(Date.now() + 60_000).toISOString() });
    assert.equal(bad.status, 400);
    assert.equal((await admin.get('/virtual-agents/99999999/recoveries')).status, 404);
  });
});
