import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { resetEnv } from '@/env';
import { claimDueEvents } from '@/lib/delivery/claim-due-events';
import { deliverClaimedEvent } from '@/lib/delivery/deliver-claimed-event';
import type { AttemptResult } from '@/lib/delivery/record-attempts';
import { releaseLeases } from '@/lib/delivery/release-leases';
import { type ApiClient, botApi } from '../support/api-client';
import { newChat, patchChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { signedInAdminOf } from '../support/people';
import type { Tenant } from '../support/tenant';
import { attemptsOf, deliverDue, eventsOfChat, sendInbound, tenantWithReceiverEach } from './helpers';
import type { Handler, Receiver } from './receiver';

process.env.DELIVERY_RETRY_DELAYS_MS = '50,60000,60000';
process.env.DELIVERY_TIMEOUT_MS = '5000';
resetEnv();

const ALL = ['chat.assigned', 'message.received', 'chat.closed', 'chat.unassigned'] as const;

/**
 * The most common bot there is: inside its `message.received` handler it hands the chat over
 * through the bot API, then answers the webhook. The event it is answering was in flight while
 * the chat left it; these tests pin what the delivery log then says and what is sent next.
 */
describe('a chat that leaves its VA while an event of it is in flight', () => {
  const ctx = setupTestDatabase();
  let receiver: Receiver;
  let t: Tenant;
  let admin: ApiClient;

  tenantWithReceiverEach(ctx, (fresh) => ({ t, receiver } = fresh), { subscriptions: [...ALL] });
  beforeEach(async () => {
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
  });

  const held = () => newChat(t, { assignee: t.bot.user.loginId });
  const transfer = (chatId: string) =>
    botApi('PATCH', `/internal/chats/${chatId}`, { token: t.token, body: { transfer: { teamid: t.humanTeam.id } } });
  const types = (chatId: string) => receiver.requests.filter((r) => r.body.chat_id === chatId).map((r) => r.body.event_type);

  /**
   * A handler that, on the first `message.received`, runs `act` (the bot's call) and then answers
   * `status`. While it still holds the answer it tries to claim what is due, as any worker would,
   * and keeps what it got (given back at once): nothing of the chat may be claimable then.
   */
  function actsInHandler(act: (chatId: string) => Promise<{ status: number; body: unknown }>, status: number, expectStatus: number) {
    const seen = { acted: 0, claimedMeanwhile: [] as string[] };
    const handler: Handler = async (r) => {
      if (r.body.event_type !== 'message.received' || seen.acted) return { status: 200, body: 'ok' };
      seen.acted++;
      const res = await act(r.body.chat_id);
      assert.equal(res.status, expectStatus, JSON.stringify(res.body));
      const claimed = await claimDueEvents(ctx.db, { limit: 100 });
      seen.claimedMeanwhile.push(...claimed.map((e) => `${e.chatId}:${e.transactionId}`));
      await releaseLeases(ctx.db, { events: claimed });
      return { status, body: status === 200 ? 'ok' : 'busy' };
    };
    return { seen, handler };
  }

  /** Delivery rounds until nothing is due; every result, in order. */
  async function deliverAll(): Promise<AttemptResult[]> {
    const all: AttemptResult[] = [];
    for (;;) {
      const round = await deliverDue(ctx.db);
      if (!round.length) return all;
      all.push(...round);
    }
  }

  it('records the event delivered with its attempt, and sends chat.unassigned only after that answer', async () => {
    const chat = await held();
    await deliverAll(); // chat.assigned
    const { seen, handler } = actsInHandler(transfer, 200, 202);
    receiver.setHandler(handler);
    await sendInbound(t, chat.chat_id, 'I want a human agent');

    const [received] = await deliverDue(ctx.db);
    assert.equal(seen.acted, 1, 'the handler transferred the chat');
    assert.deepEqual(seen.claimedMeanwhile, [], 'nothing of the chat could be claimed while its event was unanswered');
    // Exactly the flag behind the "lease ran out" warning (logAttempt).
    assert.deepEqual([received.status, received.leaseHeld], ['delivered', true]);

    const rows = await eventsOfChat(ctx.db, chat.chat_id);
    assert.deepEqual(
      rows.map((e) => [e.eventType, e.status]),
      [
        ['chat.assigned', 'delivered'],
        ['message.received', 'delivered'],
        ['chat.unassigned', 'pending'],
      ],
    );
    const inbound = rows[1];
    assert.equal(inbound.supersededAt, null);
    assert.ok(inbound.deliveredAt);
    assert.deepEqual(
      (await attemptsOf(ctx.db, inbound.id)).map((a) => [a.attemptNumber, a.httpStatus]),
      [[1, 200]],
    );

    const after = await deliverAll();
    assert.deepEqual(
      after.map((r) => [r.status, r.leaseHeld]),
      [['delivered', true]],
    );
    assert.deepEqual(types(chat.chat_id), ['chat.assigned', 'message.received', 'chat.unassigned']);
    assert.equal(receiver.maxInFlight, 1, 'one call in flight at a time');
    const unassigned = receiver.requests.at(-1);
    assert.ok(unassigned && unassigned.at >= receiver.requests[1].at);
    assert.equal(unassigned.body.payload.reason, 'transferred');

    // The admin chat page and the Deliveries counts say the same.
    const detail = (await admin.get(`/chats/${chat.chat_id}`)).body.response;
    const shown = detail.events.map((e: any) => [e.event_type, e.status, e.superseded_at, e.attempts.map((a: any) => a.http_status)]);
    assert.deepEqual(shown, [
      ['chat.assigned', 'delivered', null, [200]],
      ['message.received', 'delivered', null, [200]],
      ['chat.unassigned', 'delivered', null, [200]],
    ]);
    const stats = (await admin.get('/deliveries/stats?window=15m')).body.response;
    assert.deepEqual(stats.totals, { attempts: 3, delivered: 3, retried: 0, failed: 0, superseded: 0 });
  });

  it('supersedes the events waiting behind the one in flight, and chat.unassigned still waits for its answer', async () => {
    const chat = await held();
    await deliverAll();
    const { seen, handler } = actsInHandler(transfer, 200, 202);
    receiver.setHandler(handler);
    await sendInbound(t, chat.chat_id, 'I want a human agent');
    await sendInbound(t, chat.chat_id, 'now please');

    const [first] = await deliverDue(ctx.db);
    assert.deepEqual([first.status, first.leaseHeld], ['delivered', true]);
    assert.deepEqual(seen.claimedMeanwhile, [], 'chat.unassigned looked past the superseded event to the one in flight');
    assert.deepEqual(
      (await eventsOfChat(ctx.db, chat.chat_id)).map((e) => [e.eventType, e.status]),
      [
        ['chat.assigned', 'delivered'],
        ['message.received', 'delivered'],
        ['message.received', 'superseded'],
        ['chat.unassigned', 'pending'],
      ],
    );
    await deliverAll();
    assert.deepEqual(types(chat.chat_id), ['chat.assigned', 'message.received', 'chat.unassigned']);
    const stats = (await admin.get('/deliveries/stats?window=15m')).body.response;
    assert.deepEqual(stats.totals, { attempts: 3, delivered: 3, retried: 0, failed: 0, superseded: 1 });
  });

  it('ends a failed attempt of an event whose chat left meanwhile as superseded, not retried, with the attempt kept', async () => {
    const chat = await held();
    await deliverAll();
    const { seen, handler } = actsInHandler(transfer, 503, 202);
    receiver.setHandler(handler);
    await sendInbound(t, chat.chat_id, 'I want a human agent');

    const [failed] = await deliverDue(ctx.db);
    assert.deepEqual(seen.claimedMeanwhile, []);
    assert.deepEqual([failed.status, failed.retryInMs, failed.leaseHeld], ['superseded', null, true]);
    const rows = await eventsOfChat(ctx.db, chat.chat_id);
    const inbound = rows[1];
    assert.deepEqual([inbound.status, inbound.attemptCount, inbound.lastError], ['superseded', 1, 'HTTP 503']);
    assert.ok(inbound.supersededAt);
    assert.deepEqual(
      (await attemptsOf(ctx.db, inbound.id)).map((a) => a.httpStatus),
      [503],
    );

    await deliverAll();
    assert.deepEqual(types(chat.chat_id), ['chat.assigned', 'message.received', 'chat.unassigned'], 'no retry of it');
    const detail = (await admin.get(`/chats/${chat.chat_id}`)).body.response;
    assert.deepEqual(
      detail.events.map((e: any) => [e.event_type, e.status, e.attempts.map((a: any) => a.http_status)]),
      [
        ['chat.assigned', 'delivered', [200]],
        ['message.received', 'superseded', [503]],
        ['chat.unassigned', 'delivered', [200]],
      ],
    );
    const stats = (await admin.get('/deliveries/stats?window=15m')).body.response;
    assert.deepEqual(stats.totals, { attempts: 3, delivered: 2, retried: 1, failed: 0, superseded: 1 });
  });

  it('retries a failed attempt as usual when the VA still holds the chat', async () => {
    const chat = await held();
    await deliverAll();
    const tag = (chatId: string) => patchChat(t, chatId, { tags: ['seen'] });
    const { handler } = actsInHandler(tag, 503, 200);
    receiver.setHandler(handler);
    await sendInbound(t, chat.chat_id, 'hello');
    const [failed] = await deliverDue(ctx.db);
    assert.equal(failed.status, 'pending');
    assert.ok(failed.retryInMs !== null && failed.retryInMs >= 50);
  });

  it('when the VA closes the chat in its handler: the event is delivered, then chat.closed follows', async () => {
    const chat = await held();
    await deliverAll();
    const close = (chatId: string) => patchChat(t, chatId, { status: 'closed', outcome: 'resolved' });
    const { seen, handler } = actsInHandler(close, 200, 200);
    receiver.setHandler(handler);
    await sendInbound(t, chat.chat_id, 'thanks, bye');

    const [received] = await deliverDue(ctx.db);
    assert.deepEqual([received.status, received.leaseHeld], ['delivered', true]);
    assert.deepEqual(seen.claimedMeanwhile, [], 'chat.closed waited for the answer');
    await deliverAll();
    assert.deepEqual(types(chat.chat_id), ['chat.assigned', 'message.received', 'chat.closed']);
    assert.deepEqual(
      (await eventsOfChat(ctx.db, chat.chat_id)).map((e) => [e.eventType, e.status]),
      [
        ['chat.assigned', 'delivered'],
        ['message.received', 'delivered'],
        ['chat.closed', 'delivered'],
      ],
    );
  });

  it('supersedes an event whose lease ran out when the chat leaves; its late worker then finds the lease lost', async () => {
    const chat = await held();
    await deliverAll();
    await sendInbound(t, chat.chat_id, 'hello');
    // A worker leases the event with a lease that is over at once, as one that stalled past it.
    const [stalled] = await claimDueEvents(ctx.db, { limit: 10, leaseMs: 0 });
    assert.equal(stalled.body.event_type, 'message.received');
    assert.equal((await transfer(chat.chat_id)).status, 202);
    const byType = async () => (await eventsOfChat(ctx.db, chat.chat_id)).map((e) => [e.eventType, e.status]);
    const expected = [
      ['chat.assigned', 'delivered'],
      ['message.received', 'superseded'],
      ['chat.unassigned', 'pending'],
    ];
    assert.deepEqual(await byType(), expected);
    // The late attempt is kept as an attempt, and the event stays superseded.
    const late = await deliverClaimedEvent(ctx.db, { event: stalled });
    assert.equal(late.leaseHeld, false);
    assert.deepEqual(await byType(), expected);
    assert.deepEqual(
      (await attemptsOf(ctx.db, stalled.id)).map((a) => a.httpStatus),
      [200],
    );
  });
});
