import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { webhookEventSchema } from '@/contracts/bot/schemas/events';
import { virtualAgents } from '@/db/schema';
import { resetEnv } from '@/env';
import { claimDueEvents } from '@/lib/delivery/claim-due-events';
import { redeliverEvent } from '@/lib/delivery/redeliver-event';
import { ApiError } from '@/platform/errors';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';
import { attemptsOf, createBotChat, deliverDue, eventsOfChat, sendInbound, tenantWithReceiverEach, until } from './helpers';
import { type Receiver, startReceiver } from './receiver';

process.env.DELIVERY_RETRY_DELAYS_MS = '50,100,200';
// No test here waits on a timeout; a long one keeps a slow answer on a loaded machine (the 150 ms
// answer below, or any 200) from being cut off and read as a failure.
process.env.DELIVERY_TIMEOUT_MS = '10000';
resetEnv();

describe('delivery core', () => {
  const ctx = setupTestDatabase();
  let receiver: Receiver;
  let t: Tenant;

  // Each test has its own tenant and VA; earlier tests' events are failed out of its way.
  tenantWithReceiverEach(ctx, (fresh) => ({ t, receiver } = fresh));

  it('signs each request with Standard Webhooks headers that verify with the VA secret, and sends its static headers', async () => {
    await ctx.db
      .update(virtualAgents)
      .set({ webhookHeaders: { 'x-api-key': 'k-123', 'X-Tenant': 'acme' } })
      .where(eq(virtualAgents.userId, t.bot.user.id));
    const chatId = await createBotChat(t);
    const [result] = await deliverDue(ctx.db);
    assert.equal(result.status, 'delivered');

    assert.equal(receiver.requests.length, 1);
    const req = receiver.requests[0];
    assert.equal(req.method, 'POST');
    assert.equal(req.url, '/hook');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers['x-api-key'], 'k-123');
    assert.equal(req.headers['x-tenant'], 'acme');
    const [event] = await eventsOfChat(ctx.db, chatId);
    assert.equal(req.headers['webhook-id'], event.transactionId);
    assert.match(String(req.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/);
    const verified = new Webhook(t.bot.signingSecret).verify(req.raw, {
      'webhook-id': String(req.headers['webhook-id']),
      'webhook-timestamp': String(req.headers['webhook-timestamp']),
      'webhook-signature': String(req.headers['webhook-signature']),
    });
    assert.deepEqual(verified, req.body);
    assert.throws(() =>
      new Webhook(`whsec_${Buffer.from('another secret of enough length').toString('base64')}`).verify(req.raw, {
        'webhook-id': String(req.headers['webhook-id']),
        'webhook-timestamp': String(req.headers['webhook-timestamp']),
        'webhook-signature': String(req.headers['webhook-signature']),
      }),
    );
  });

  it('sends the spec envelope in its key order, with posted_on stamped at the attempt', async () => {
    const chatId = await createBotChat(t);
    const before = Date.now();
    await deliverDue(ctx.db);
    const body = receiver.requests[0].body;
    webhookEventSchema.parse(body);
    assert.deepEqual(Object.keys(body), [
      'event_type',
      'channel',
      'chat_id',
      'asset',
      'asset_address',
      'destination_id',
      'team_id',
      'subject',
      'posted_on',
      'payload',
      'transaction_id',
    ]);
    assert.deepEqual(Object.keys(body.payload), ['skill', 'messages']);
    assert.equal(body.event_type, 'chat.assigned');
    assert.equal(body.chat_id, chatId);
    assert.match(body.posted_on, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(Date.parse(body.posted_on) >= before - 1000);
  });

  it('claims only the oldest pending event of each chat, and leases it so a second claim skips it', async () => {
    const chatA = await createBotChat(t);
    await sendInbound(t, chatA, 'one');
    await sendInbound(t, chatA, 'two');
    const chatB = await createBotChat(t);
    await sendInbound(t, chatB, 'three');

    const first = await claimDueEvents(ctx.db, { limit: 10 });
    assert.deepEqual(
      first.map((e) => [e.chatId, e.seq]).sort(),
      [
        [chatA, 1],
        [chatB, 1],
      ].sort(),
    );
    assert.deepEqual(await claimDueEvents(ctx.db, { limit: 10 }), []);
  });

  it('never gives the same event to two concurrent claims, and rounds of them claim every event', async () => {
    const chats = [];
    for (let i = 0; i < 12; i++) chats.push(await createBotChat(t));
    // A claim skips rows another one holds (SKIP LOCKED), so one round may leave some for the next.
    const ids: number[] = [];
    for (let round = 0; round < 5 && ids.length < 12; round++) {
      const claims = await Promise.all(Array.from({ length: 6 }, () => claimDueEvents(ctx.db, { limit: 3 })));
      ids.push(...claims.flat().map((e) => e.id));
    }
    assert.equal(new Set(ids).size, ids.length, 'no event claimed twice');
    assert.equal(ids.length, 12);
  });

  it('lets a failed event release its chat: after the last attempt the next event goes', async () => {
    receiver.setHandler((r) => (r.body.event_type === 'chat.assigned' ? { status: 500, body: 'boom' } : { status: 200 }));
    const chatId = await createBotChat(t);
    await sendInbound(t, chatId, 'after the failure');

    // 1 + 3 retries (DELIVERY_RETRY_DELAYS_MS=50,100,200); the message waits behind them.
    for (let attempt = 1; attempt <= 4; attempt++) {
      const [r] = await until(`attempt ${attempt}`, async () => {
        const done = await deliverDue(ctx.db);
        return done.length ? done : null;
      });
      assert.equal(r.attemptNumber, attempt);
      assert.equal(r.status, attempt < 4 ? 'pending' : 'failed');
      assert.ok(receiver.requests.every((q) => q.body.event_type === 'chat.assigned'));
    }
    const [assigned, received] = await eventsOfChat(ctx.db, chatId);
    assert.equal(assigned.status, 'failed');
    assert.ok(assigned.failedAt);
    assert.equal(assigned.lastError, 'HTTP 500');
    const attempts = await attemptsOf(ctx.db, assigned.id);
    assert.deepEqual(
      attempts.map((a) => [a.attemptNumber, a.httpStatus, a.responseExcerpt]),
      [
        [1, 500, 'boom'],
        [2, 500, 'boom'],
        [3, 500, 'boom'],
        [4, 500, 'boom'],
      ],
    );
    // Each wait follows the schedule, with at most 20 % jitter added.
    for (const [i, delay] of [50, 100, 200].entries()) {
      const gap = attempts[i + 1].startedAt.getTime() - attempts[i].startedAt.getTime();
      assert.ok(gap >= delay - 5, `gap ${i + 1}: ${gap} ms >= ${delay} ms`);
    }

    const [r] = await deliverDue(ctx.db);
    assert.equal(r.status, 'delivered');
    assert.equal((await eventsOfChat(ctx.db, chatId))[1].id, received.id);
    assert.equal(receiver.requests.at(-1)!.body.event_type, 'message.received');

    // Redelivered, it gets a whole new schedule: a failure is retried, not dead-lettered at once.
    await redeliverEvent(ctx.db, { accountId: t.account.id, eventId: assigned.id });
    const [again] = await deliverDue(ctx.db);
    assert.equal(again.attemptNumber, 5);
    assert.equal(again.status, 'pending');
    assert.equal((await eventsOfChat(ctx.db, chatId))[0].attemptCount, 1);
  });

  it('parks the events behind one that waits for a retry at its retry time, including ones written meanwhile', async () => {
    process.env.DELIVERY_RETRY_DELAYS_MS = '60000';
    resetEnv();
    try {
      receiver.setHandler(() => ({ status: 500 }));
      const chatId = await createBotChat(t);
      await sendInbound(t, chatId, 'queued before the failure');
      const [r] = await deliverDue(ctx.db);
      assert.equal(r.status, 'pending');
      await sendInbound(t, chatId, 'written while it waits');
      const [head, queued, written] = await eventsOfChat(ctx.db, chatId);
      assert.ok(head.nextAttemptAt.getTime() - Date.now() > 50_000);
      assert.equal(queued.nextAttemptAt.getTime(), head.nextAttemptAt.getTime());
      assert.equal(written.nextAttemptAt.getTime(), head.nextAttemptAt.getTime());
      assert.deepEqual(await claimDueEvents(ctx.db, { limit: 10 }), []);
    } finally {
      process.env.DELIVERY_RETRY_DELAYS_MS = '50,100,200';
      resetEnv();
    }
  });

  it('checks the address again at delivery: a private one is refused, with the reason recorded, when not allowed', async () => {
    // Registered while allowed (the demo's setting), then the policy tightens: nothing is sent.
    await ctx.db
      .update(virtualAgents)
      .set({ webhookUrl: `https://127.0.0.1:${receiver.port}/hook` })
      .where(eq(virtualAgents.userId, t.bot.user.id));
    process.env.WEBHOOK_ALLOW_PRIVATE = 'false';
    resetEnv();
    try {
      const chatId = await createBotChat(t);
      const [r] = await deliverDue(ctx.db);
      assert.equal(r.status, 'pending');
      const [event] = await eventsOfChat(ctx.db, chatId);
      const [attempt] = await attemptsOf(ctx.db, event.id);
      assert.equal(attempt.httpStatus, null);
      assert.equal(attempt.error, 'URL refused: 127.0.0.1 is a private, loopback, link-local or reserved address');
      assert.equal(receiver.requests.length, 0);
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
      resetEnv();
    }
  });

  it('does not follow a redirect: a 302 is a failed attempt', async () => {
    // The redirect leads to an address that would accept the event: only a sender that follows it delivers.
    receiver.setHandler((q) =>
      q.url === '/moved' ? { status: 200, body: 'ok' } : { status: 302, body: 'see elsewhere', headers: { location: '/moved' } },
    );
    const chatId = await createBotChat(t);
    const [r] = await deliverDue(ctx.db);
    assert.equal(r.status, 'pending');
    assert.equal(receiver.requests.length, 1);
    const [attempt] = await attemptsOf(ctx.db, (await eventsOfChat(ctx.db, chatId))[0].id);
    assert.equal(attempt.httpStatus, 302);
    assert.deepEqual(
      receiver.requests.map((q) => q.url),
      ['/hook'],
    );
  });

  it('counts only 200 as success (a 201 or 204 is retried)', async () => {
    receiver.setHandler(() => ({ status: 204 }));
    await createBotChat(t);
    const [r] = await deliverDue(ctx.db);
    assert.equal(r.status, 'pending');
  });

  it('keeps at most 1 KB of a long answer', async () => {
    receiver.setHandler(() => ({ status: 500, body: 'x'.repeat(20_000), delayMs: 150 }));
    const chatId = await createBotChat(t);
    await deliverDue(ctx.db);
    const [attempt] = await attemptsOf(ctx.db, (await eventsOfChat(ctx.db, chatId))[0].id);
    assert.equal(attempt.responseExcerpt, 'x'.repeat(1024));
    // The receiver waited 150 ms before answering: the attempt's duration covers that wait.
    assert.ok(attempt.durationMs >= 150, `durationMs ${attempt.durationMs}`);
  });

  it('records a refused connection as an attempt with no status and the network error', async () => {
    const closed = await startReceiver();
    await closed.close();
    await ctx.db.update(virtualAgents).set({ webhookUrl: closed.url }).where(eq(virtualAgents.userId, t.bot.user.id));
    const chatId = await createBotChat(t);
    await deliverDue(ctx.db);
    const [attempt] = await attemptsOf(ctx.db, (await eventsOfChat(ctx.db, chatId))[0].id);
    assert.equal(attempt.httpStatus, null);
    assert.match(attempt.error ?? '', /ECONNREFUSED/);
  });

  it('refuses to redeliver an event of another account (3006) or one still pending (3008)', async () => {
    const chatId = await createBotChat(t);
    const [event] = await eventsOfChat(ctx.db, chatId);
    await assert.rejects(
      redeliverEvent(ctx.db, { accountId: t.account.id, eventId: event.id }),
      (e: ApiError) => e instanceof ApiError && e.code === 3008,
    );
    const other = await createTenant(ctx.db, { webhookUrl: receiver.url });
    await assert.rejects(
      redeliverEvent(ctx.db, { accountId: other.account.id, eventId: event.id }),
      (e: ApiError) => e instanceof ApiError && e.code === 3006,
    );
    await assert.rejects(
      redeliverEvent(ctx.db, { accountId: t.account.id, eventId: 999_999_999 }),
      (e: ApiError) => e instanceof ApiError && e.code === 3006,
    );
  });

  it('redelivers a delivered event with the same transaction_id, numbering attempts on', async () => {
    const chatId = await createBotChat(t);
    await deliverDue(ctx.db);
    const [event] = await eventsOfChat(ctx.db, chatId);
    assert.equal(event.status, 'delivered');
    await redeliverEvent(ctx.db, { accountId: t.account.id, eventId: event.id });
    const [again] = await eventsOfChat(ctx.db, chatId);
    assert.equal(again.status, 'pending');
    assert.equal(again.deliveredAt, null);
    const [r] = await deliverDue(ctx.db);
    assert.equal(r.attemptNumber, 2);
    assert.equal(r.status, 'delivered');
    assert.deepEqual(
      receiver.requests.map((q) => q.headers['webhook-id']),
      [event.transactionId, event.transactionId],
    );
  });
});
