import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { virtualAgents } from '@/db/schema';
import { resetEnv } from '@/env';
import { stopEmbeddedEngine } from '@/lib/delivery/embedded-engine';
import { redeliverEvent } from '@/lib/delivery/redeliver-event';
import { startDelivery } from '@/lib/delivery/start-delivery';
import { botApi } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { attemptsOf, createBotChat, eventsOfChat, ownReceivers, sendInbound, until } from './helpers';
import type { Handler } from './receiver';

process.env.DELIVERY_RETRY_DELAYS_MS = '50,100,200';
process.env.DELIVERY_TIMEOUT_MS = '300';
// scripts/test.mjs turns delivery off for every other file; this one runs it as the server does.
process.env.DELIVERY_ENGINE = 'embedded';
resetEnv();

describe('embedded delivery engine', () => {
  // Registered first so it runs before the database closes.
  after(() => stopEmbeddedEngine());
  const ctx = setupTestDatabase();
  const own = ownReceivers(ctx);

  before(() => startDelivery());

  /** Fails the first `n` requests with `reply`, then answers 200. */
  const failFirst =
    (n: number, reply: ReturnType<Handler>): Handler =>
    (r) =>
      r.n <= n ? reply : { status: 200, body: 'ok' };

  async function deliveredChat(chatId: string, count: number, timeoutMs?: number) {
    return until(
      `${count} delivered events on chat ${chatId}`,
      async () => {
        const rows = await eventsOfChat(ctx.db, chatId);
        return rows.length === count && rows.every((e) => e.status === 'delivered') ? rows : null;
      },
      timeoutMs,
    );
  }

  for (const [name, reply] of [
    ['a 500', { status: 500, body: 'oops' }],
    ['a 404', { status: 404, body: 'no such hook' }],
    ['a timeout (no answer)', { hang: true }],
  ] as const) {
    it(`retries ${name} and delivers on the next 200 with the same transaction_id`, async () => {
      const { t, receiver } = await own.tenant(failFirst(1, reply));
      const chatId = await createBotChat(t);
      const [event] = await deliveredChat(chatId, 1);

      assert.deepEqual(
        receiver.requests.map((r) => r.headers['webhook-id']),
        [event.transactionId, event.transactionId],
      );
      assert.equal(receiver.requests[0].body.transaction_id, receiver.requests[1].body.transaction_id);
      const attempts = await attemptsOf(ctx.db, event.id);
      assert.deepEqual(
        attempts.map((a) => a.attemptNumber),
        [1, 2],
      );
      assert.equal(attempts[1].httpStatus, 200);
      if ('hang' in reply) {
        assert.equal(attempts[0].httpStatus, null);
        assert.match(attempts[0].error ?? '', /timed out after 300 ms/);
        assert.ok(attempts[0].durationMs >= 290 && attempts[0].durationMs < 2_300, `took ${attempts[0].durationMs} ms`);
      } else {
        assert.equal(attempts[0].httpStatus, reply.status);
        assert.equal(attempts[0].responseExcerpt, reply.body);
      }
    });
  }

  it('delivers 50 inbound messages of one chat in order, holding later ones back while one is retried', async () => {
    // The 10th request fails: the chat waits for its retry, and nothing after it overtakes it.
    const { t, receiver } = await own.tenant((r) => (r.n === 10 ? { status: 503, body: 'busy' } : { status: 200 }));
    const chatId = await createBotChat(t);
    for (let i = 1; i <= 50; i++) await sendInbound(t, chatId, `message ${i}`);
    const rows = await deliveredChat(chatId, 51);

    assert.deepEqual(
      receiver.firstArrivals(),
      rows.map((e) => e.transactionId),
    );
    // 51 events and the one retry; a slow answer past the timeout may add a resend (at least once).
    assert.ok(receiver.requests.length >= 52, `${receiver.requests.length} requests`);
    assert.equal(receiver.requests[9].headers['webhook-id'], receiver.requests[10].headers['webhook-id']);
    const texts = receiver.requests.filter((r) => r.body.event_type === 'message.received').map((r) => r.body.payload.messages[0].text);
    assert.deepEqual(
      [...new Set(texts)],
      Array.from({ length: 50 }, (_, i) => `message ${i + 1}`),
    );
    // One request of the chat in flight at a time: each was sent after the previous one was answered.
    assert.equal(receiver.maxInFlight, 1);
  });

  it('marks an event failed after its last attempt, then delivers it again on redelivery', async () => {
    const { t, receiver } = await own.tenant(() => ({ status: 500 }));
    const chatId = await createBotChat(t);
    const [failed] = await until('the event to fail', async () => {
      const rows = await eventsOfChat(ctx.db, chatId);
      return rows[0]?.status === 'failed' ? rows : null;
    });
    assert.equal(failed.attemptCount, 4);
    assert.equal(receiver.requests.length, 4);

    receiver.setHandler(() => ({ status: 200, body: 'back' }));
    await redeliverEvent(ctx.db, { accountId: t.account.id, eventId: failed.id });
    const [delivered] = await deliveredChat(chatId, 1);
    assert.equal(delivered.transactionId, failed.transactionId);
    const attempts = await attemptsOf(ctx.db, failed.id);
    assert.deepEqual(
      attempts.map((a) => [a.attemptNumber, a.httpStatus]),
      [
        [1, 500],
        [2, 500],
        [3, 500],
        [4, 500],
        [5, 200],
      ],
    );
    assert.equal(receiver.requests.at(-1)!.headers['webhook-id'], failed.transactionId);
  });

  it("hands the chat to the VA's fallback team when an event fails for good", async () => {
    const { t } = await own.tenant(() => ({ status: 503, body: 'down' }));
    await ctx.db.update(virtualAgents).set({ fallbackTeamId: t.humanTeam.id }).where(eq(virtualAgents.userId, t.bot.user.id));
    const chatId = await createBotChat(t);
    await until('the event to fail', async () => (await eventsOfChat(ctx.db, chatId))[0]?.status === 'failed');
    const chat = await until('the chat to move', async () => {
      const r = await botApi('GET', `/chats/${chatId}`, { token: t.token });
      return r.body.response?.team_id === t.humanTeam.id ? r.body.response : null;
    });
    assert.notEqual(chat.assignee, t.bot.user.loginId);
  });

  it('keeps delivering other chats while one chat waits on a receiver that does not answer', async () => {
    // One VA whose receiver never answers for the slow chat: each of its attempts runs into the timeout.
    let slowChat = '';
    const { t, receiver } = await own.tenant((r) => (r.body.chat_id === slowChat ? { hang: true } : { status: 200 }));
    slowChat = await createBotChat(t);
    await until('the slow chat to be in flight', () => receiver.requests.some((r) => r.body.chat_id === slowChat));
    const fast: string[] = [];
    for (let i = 0; i < 5; i++) fast.push(await createBotChat(t));
    // On a loaded machine a fast chat's 200 can miss the 300 ms timeout and wait for its retry:
    // the wait is generous, while the windows below still prove they were served meanwhile.
    for (const chatId of fast) await deliveredChat(chatId, 1, 30_000);

    const [slow] = await until('the slow chat to give up', async () => {
      const rows = await eventsOfChat(ctx.db, slowChat);
      return rows[0]?.status === 'failed' ? rows : null;
    });
    // Fast chats were answered while a slow attempt was still waiting for its answer.
    const windows = (await attemptsOf(ctx.db, slow.id)).map((a) => [a.startedAt.getTime(), a.startedAt.getTime() + a.durationMs]);
    assert.equal(windows.length, 4);
    const fastRequests = receiver.requests.filter((r) => fast.includes(r.body.chat_id));
    // Delivery is at least once: on a loaded machine a 200 can come back after the 300 ms timeout and
    // the event is sent again, so count chats reached rather than requests.
    assert.equal(new Set(fastRequests.map((r) => r.body.chat_id)).size, 5);
    const fastArrivals = fastRequests.map((r) => r.at);
    assert.ok(
      fastArrivals.some((at) => windows.some(([from, to]) => at > from && at < to)),
      'no fast chat was delivered while the slow chat had a call in flight',
    );
  });

  it('sends each event to the VA URL and headers current at the attempt', async () => {
    const { t, receiver } = await own.tenant();
    const moved = await own.receiver();
    await ctx.db
      .update(virtualAgents)
      .set({ webhookUrl: moved.url, webhookHeaders: { authorization: 'Bearer x' } })
      .where(eq(virtualAgents.userId, t.bot.user.id));
    const chatId = await createBotChat(t);
    await deliveredChat(chatId, 1);
    assert.equal(receiver.requests.length, 0);
    assert.equal(moved.requests[0].headers.authorization, 'Bearer x');
  });
});
