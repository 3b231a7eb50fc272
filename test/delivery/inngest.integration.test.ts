import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { InngestTestEngine, mockCtx } from '@inngest/test';
import { eq, sql } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { events } from '@/db/schema';
import { resetEnv } from '@/env';
import { setupTestDatabase } from '../support/db';
import { createTenant } from '../support/tenant';
import { attemptsOf, createBotChat, eventsOfChat, sendInbound, until } from './helpers';
import { type Receiver, startReceiver } from './receiver';

process.env.DELIVERY_RETRY_DELAYS_MS = '50,100,200';
process.env.DELIVERY_TIMEOUT_MS = '300';
resetEnv();

// A stand-in for the Inngest server's event API, so sends are seen (and can be made to fail).
let eventApiStatus = 200;
const sentToInngest: any[] = [];
const eventApi = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => (raw += c));
  req.on('end', () => {
    if (eventApiStatus === 200) sentToInngest.push(...JSON.parse(raw));
    res.writeHead(eventApiStatus, { 'content-type': 'application/json' }).end(JSON.stringify({ ids: [], status: eventApiStatus }));
  });
});
await new Promise<void>((resolve) => eventApi.listen(0, '127.0.0.1', resolve));
process.env.INNGEST_DEV = '1';
process.env.INNGEST_BASE_URL = `http://127.0.0.1:${(eventApi.address() as AddressInfo).port}`;

const { deliverChatEvents } = await import('@/inngest/functions/deliver-chat-events');
const { sweepOutbox } = await import('@/inngest/functions/sweep-outbox');
const { requestDelivery } = await import('@/inngest/request-delivery');
const { deliveryRequestsOf } = await import('@/lib/delivery/delivery-requests');

type RunOutcome = { result?: any; error?: any };

/**
 * Runs the function as Inngest would: the test engine models no retries, so each attempt is a
 * fresh execution with the next `attempt` number, started when the RetryAfterError asked for.
 */
async function runWithRetries(payload: Record<string, any>, maxAttempts = 10): Promise<{ outcome: RunOutcome; attempts: number }> {
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const engine = new InngestTestEngine({
      function: deliverChatEvents,
      events: [payload as any],
      transformCtx: (ctx) => ({ ...mockCtx(ctx), attempt }),
    });
    const outcome = (await engine.execute()) as RunOutcome;
    if (!outcome.error) return { outcome, attempts: attempt + 1 };
    assert.equal(outcome.error.name, 'RetryAfterError', JSON.stringify(outcome.error));
    // The run stopped at a retry: the chat's next attempt is scheduled in the database, which is
    // what the retry waits for (Inngest's own retryAfter rounds it up to whole seconds).
    const pending = (await eventsOfChat(await getDb(), payload.data.chatId)).filter((e) => e.status === 'pending');
    assert.ok(pending.length > 0, 'a retry is due for a chat with a pending event');
    const due = Math.min(...pending.map((e) => e.nextAttemptAt.getTime()));
    await until('the retry time', () => Date.now() >= due);
  }
  assert.fail('the run did not finish');
}

describe('Inngest delivery', () => {
  const ctx = setupTestDatabase();
  let receiver: Receiver;
  after(async () => {
    await receiver?.close();
    eventApi.closeAllConnections();
    eventApi.close();
  });
  before(async () => {
    receiver = await startReceiver();
  });

  it('hands each new outbox event to Inngest with a deterministic id', async () => {
    const t = await createTenant(ctx.db, { webhookUrl: receiver.url });
    const chatId = await createBotChat(t);
    const [event] = await eventsOfChat(ctx.db, chatId);
    sentToInngest.length = 0;
    assert.equal(await requestDelivery({ rows: await deliveryRequestsOf(ctx.db, { eventIds: [event.id] }) }), true);
    assert.equal(sentToInngest.length, 1);
    assert.equal(sentToInngest[0].id, `va-event-${event.transactionId}`);
    assert.equal(sentToInngest[0].name, 'va/delivery.requested');
    assert.deepEqual(sentToInngest[0].data, {
      eventId: event.id,
      transactionId: event.transactionId,
      chatId,
      virtualAgentId: t.bot.user.id,
    });
    await ctx.db.update(events).set({ status: 'delivered' }).where(eq(events.chatId, chatId));
  });

  it('leaves the event pending when Inngest cannot take it', async () => {
    const t = await createTenant(ctx.db, { webhookUrl: receiver.url });
    const chatId = await createBotChat(t);
    const [event] = await eventsOfChat(ctx.db, chatId);
    eventApiStatus = 500;
    try {
      assert.equal(await requestDelivery({ rows: await deliveryRequestsOf(ctx.db, { eventIds: [event.id] }) }), false);
    } finally {
      eventApiStatus = 200;
    }
    assert.equal((await eventsOfChat(ctx.db, chatId))[0].status, 'pending');
    await ctx.db.update(events).set({ status: 'delivered' }).where(eq(events.chatId, chatId));
  });

  it('retries through 503s with RetryAfterError and delivers the chat in order with the same transaction_id', async () => {
    receiver.setHandler((r) => (r.n <= 2 ? { status: 503, body: 'unavailable' } : { status: 200 }));
    receiver.requests.length = 0;
    const t = await createTenant(ctx.db, { webhookUrl: receiver.url });
    const chatId = await createBotChat(t);
    await sendInbound(t, chatId, 'one');
    await sendInbound(t, chatId, 'two');
    const rows = await eventsOfChat(ctx.db, chatId);
    const head = rows[0];

    const { outcome, attempts } = await runWithRetries({
      id: `va-event-${head.transactionId}`,
      name: 'va/delivery.requested',
      data: { eventId: head.id, transactionId: head.transactionId, chatId, virtualAgentId: t.bot.user.id },
    });
    assert.equal(attempts, 3);
    assert.deepEqual(outcome.result, { attempts: 3, delivered: 3, failed: 0, waitMs: null });

    const tids = rows.map((r) => r.transactionId);
    assert.deepEqual(
      receiver.requests.map((r) => r.headers['webhook-id']),
      [tids[0], tids[0], tids[0], tids[1], tids[2]],
    );
    assert.deepEqual(
      (await attemptsOf(ctx.db, head.id)).map((a) => a.httpStatus),
      [503, 503, 200],
    );
    assert.ok((await eventsOfChat(ctx.db, chatId)).every((e) => e.status === 'delivered'));
  });

  it('finishes at once when another run already delivered the chat', async () => {
    receiver.setHandler(() => ({ status: 200 }));
    const t = await createTenant(ctx.db, { webhookUrl: receiver.url });
    const chatId = await createBotChat(t);
    const [head] = await eventsOfChat(ctx.db, chatId);
    const payload = {
      name: 'va/delivery.requested',
      data: { eventId: head.id, transactionId: head.transactionId, chatId, virtualAgentId: t.bot.user.id },
    };
    await runWithRetries(payload);
    const before = receiver.requests.length;
    const { outcome } = await runWithRetries(payload);
    assert.deepEqual(outcome.result, { attempts: 0, delivered: 0, failed: 0, waitMs: null });
    assert.equal(receiver.requests.length, before);
  });

  it('sweeps stranded events: re-sends those nobody has worked on for a minute', async () => {
    const t = await createTenant(ctx.db, { webhookUrl: receiver.url });
    const chatId = await createBotChat(t);
    await sendInbound(t, chatId, 'behind the head');
    const [head, behind] = await eventsOfChat(ctx.db, chatId);
    await ctx.db.update(events).set({ nextAttemptAt: sql`now() - interval '2 minutes'` }).where(eq(events.chatId, chatId));

    const engine = new InngestTestEngine({ function: sweepOutbox });
    const { result, ctx: runCtx } = (await engine.execute()) as any;
    assert.ok(result.sent >= 1);
    const sent = runCtx.step.sendEvent.mock.calls.flatMap((c: any[]) => c[1]);
    const mine = sent.filter((e: any) => e.data.chatId === chatId);
    // Only the head of the chat's line; the event behind it follows once the head is delivered.
    assert.equal(mine.length, 1);
    assert.equal(mine[0].data.eventId, head.id);
    assert.match(mine[0].id, new RegExp(`^va-event-${head.transactionId}-\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d$`));
    assert.notEqual(mine[0].data.eventId, behind.id);
  });
});
