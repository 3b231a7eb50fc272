import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, inArray } from 'drizzle-orm';
import { deliveryAttempts, events, virtualAgents } from '@/db/schema';
import { resetEnv } from '@/env';
import { claimDueEvents } from '@/lib/delivery/claim-due-events';
import { stopEmbeddedEngine } from '@/lib/delivery/embedded-engine';
import { startDelivery } from '@/lib/delivery/start-delivery';
import { updateVirtualAgent } from '@/lib/virtual-agents/update-virtual-agent';
import { getVirtualAgentOrFail } from '@/lib/virtual-agents/virtual-agent-view';
import { setupTestDatabase } from '../support/db';
import { attemptsOf, createBotChat, eventsOfChat, ownReceivers, sendInbound, until } from './helpers';

// A small engine so that one VA could fill it: 12 calls in flight, at most 4 per VA.
process.env.DELIVERY_ENGINE = 'embedded';
process.env.DELIVERY_CONCURRENCY = '12';
process.env.DELIVERY_MAX_IN_FLIGHT_PER_VA = '4';
// Long enough that no call to the hanging endpoint times out while the test runs, however loaded the machine.
process.env.DELIVERY_TIMEOUT_MS = '60000';
// Four attempts within ~350 ms: any outage longer than that would dead-letter an event without a breaker.
process.env.DELIVERY_RETRY_DELAYS_MS = '50,100,200';
process.env.DELIVERY_CIRCUIT_FAILURES = '3';
process.env.DELIVERY_CIRCUIT_OPEN_MS = '800';
resetEnv();

describe('delivery isolation between endpoints', () => {
  after(() => stopEmbeddedEngine({ graceMs: 0 }));
  const ctx = setupTestDatabase();
  const own = ownReceivers(ctx);
  before(() => startDelivery());

  async function attemptCountOf(eventIds: number[]): Promise<number> {
    return (await ctx.db.select({ id: deliveryAttempts.id }).from(deliveryAttempts).where(inArray(deliveryAttempts.eventId, eventIds)))
      .length;
  }

  it("serves a healthy VA while another VA's endpoint hangs, the hanging one holding only its share", async () => {
    const hanging = await own.tenant(() => ({ hang: true }));
    const hangingChats: string[] = [];
    for (let i = 0; i < 20; i++) hangingChats.push(await createBotChat(hanging.t));
    await until('the hanging VA to have its share in flight', () => hanging.receiver.inFlight === 4);
    const hangingEvents = (await ctx.db.select({ id: events.id }).from(events).where(inArray(events.chatId, hangingChats))).map(
      (e) => e.id,
    );

    const healthy = await own.tenant();
    for (let i = 0; i < 5; i++) {
      const chatId = await createBotChat(healthy.t);
      await until(`healthy chat ${i + 1} delivered`, async () => (await eventsOfChat(ctx.db, chatId))[0]?.status === 'delivered');
    }
    // All of it happened while every call to the hanging endpoint was still unanswered: the
    // healthy VA never waited for one of them to time out.
    assert.equal(await attemptCountOf(hangingEvents), 0);
    assert.equal(hanging.receiver.requests.length, 4);
    assert.equal(hanging.receiver.maxInFlight, 4);
    assert.equal(healthy.receiver.requests.length, 5);
  });

  it('opens the circuit after consecutive failures and probes, so an outage longer than the retry schedule dead-letters nothing', async () => {
    let up = false;
    const { t, receiver } = await own.tenant(() => (up ? { status: 200 } : { status: 500, body: 'down' }));
    const chatIds: string[] = [];
    for (let i = 0; i < 10; i++) chatIds.push(await createBotChat(t));
    // The share (4) fails, the circuit opens, then a single probe fails too. Bounds, not measures,
    // here and below: alone this takes 1.5-6 s, and a loaded CI run needed more than 10 s for the
    // probe; after it, more probes fail before `up` is seen and the circuit's pause grows with them
    // (one run needed more than 20 s for the deliveries).
    await until('a failed probe after the circuit opened', () => receiver.requests.length >= 5, 60_000);
    up = true;
    for (const chatId of chatIds) {
      await until(`chat ${chatId} delivered`, async () => (await eventsOfChat(ctx.db, chatId))[0]?.status === 'delivered', 60_000);
    }
    const rows = await ctx.db.select().from(events).where(inArray(events.chatId, chatIds));
    assert.equal(rows.filter((e) => e.status !== 'delivered').length, 0);
    // Without the breaker each failing event would have used all 4 attempts in ~350 ms and failed.
    // With it, an event uses at most the failures that open the circuit (3, when the first chat's
    // event fails alone before the others are written) plus the attempt that delivers it: failed
    // probes are recorded but do not count against the event.
    assert.ok(
      rows.every((e) => e.attemptCount <= 3 + 1),
      `attempt counts ${rows.map((e) => e.attemptCount)}`,
    );
    const recorded = await ctx.db
      .select({ eventId: deliveryAttempts.eventId })
      .from(deliveryAttempts)
      .where(
        inArray(
          deliveryAttempts.eventId,
          rows.map((e) => e.id),
        ),
      );
    assert.equal(recorded.length, receiver.requests.length, 'every call recorded, probes included');
  });

  it('waits at least as long as Retry-After on a 429', async () => {
    const { t, receiver } = await own.tenant((r) =>
      r.n === 1 ? { status: 429, body: 'slow down', headers: { 'Retry-After': '2' } } : { status: 200 },
    );
    const chatId = await createBotChat(t);
    await until('the event to be delivered', async () => (await eventsOfChat(ctx.db, chatId))[0]?.status === 'delivered', 20_000);
    const [event] = await eventsOfChat(ctx.db, chatId);
    const [first, second] = await attemptsOf(ctx.db, event.id);
    assert.equal(first.httpStatus, 429);
    assert.equal(second.httpStatus, 200);
    // The schedule alone would have retried after 50 ms.
    const waited = second.startedAt.getTime() - (first.startedAt.getTime() + first.durationMs);
    assert.ok(waited >= 1_900, `retried after ${waited} ms`);
    assert.equal(receiver.requests.length, 2);
  });

  it('stops the webhook on 410 Gone, holds its events, shows why, and resumes in order at a new address', async () => {
    const { t, receiver } = await own.tenant(() => ({ status: 410, body: 'gone' }));
    const chatId = await createBotChat(t);
    const va = await until('the webhook to be stopped', async () => {
      const view = await getVirtualAgentOrFail(ctx.db, { accountId: t.account.id, id: t.bot.user.id });
      return view.webhook_disabled ? view : null;
    });
    assert.match(va.webhook_disabled?.reason ?? '', /410 Gone/);
    await sendInbound(t, chatId, 'still there?');
    const held = await eventsOfChat(ctx.db, chatId);
    assert.deepEqual(
      held.map((e) => e.status),
      ['pending', 'pending'],
    );
    // Neither event can be claimed while the webhook is stopped.
    const claimable = await claimDueEvents(ctx.db, { limit: 100 });
    assert.deepEqual(
      claimable.filter((e) => e.virtualAgentId === t.bot.user.id),
      [],
    );
    assert.equal(receiver.requests.length, 1);

    const moved = await own.receiver();
    const updated = await updateVirtualAgent(ctx.db, { accountId: t.account.id, id: t.bot.user.id, patch: { webhook_url: moved.url } });
    assert.equal(updated.webhook_disabled, null);
    const rows = await until(
      'both events delivered at the new address',
      async () => {
        const r = await eventsOfChat(ctx.db, chatId);
        return r.every((e) => e.status === 'delivered') ? r : null;
      },
      20_000,
    );
    assert.deepEqual(
      moved.firstArrivals(),
      rows.map((e) => e.transactionId),
    );
    const [row] = await ctx.db.select().from(virtualAgents).where(eq(virtualAgents.userId, t.bot.user.id));
    assert.equal(row.webhookDisabledAt, null);
  });
});
