import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { eq, inArray, sql } from 'drizzle-orm';
import { events } from '@/db/schema';
import { resetEnv } from '@/env';
import type { ApiClient } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { signedInAdminOf } from '../support/people';
import type { Tenant } from '../support/tenant';
import { createBotChat, deliverDue, eventsOfChat, sendInbound, tenantWithReceiverEach } from './helpers';
import type { Receiver } from './receiver';

// After the first failure an event waits a minute: far longer than any of these tests.
process.env.DELIVERY_RETRY_DELAYS_MS = '60000,60000';
process.env.DELIVERY_TIMEOUT_MS = '1000';
resetEnv();

describe('fast recovery after a webhook outage', () => {
  const ctx = setupTestDatabase();
  let receiver: Receiver;
  let t: Tenant;
  let admin: ApiClient;

  tenantWithReceiverEach(ctx, (fresh) => ({ t, receiver } = fresh));
  beforeEach(async () => {
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
  });

  /** Two chats whose events failed once and wait a minute for their retry; the receiver is back up. */
  async function twoWaitingChats() {
    receiver.setHandler(() => ({ status: 503 }));
    const a = await createBotChat(t);
    const b = await createBotChat(t);
    await sendInbound(t, b, 'and one more');
    await deliverDue(ctx.db);
    const waiting = await ctx.db
      .select()
      .from(events)
      .where(inArray(events.chatId, [a, b]));
    assert.ok(waiting.every((e) => e.status === 'pending' && e.nextAttemptAt.getTime() > Date.now() + 30_000));
    receiver.setHandler(() => ({ status: 200, body: 'ok' }));
    return { a, b };
  }

  it("makes the VA's other waiting events due at once when a delivery succeeds after failures, keeping each chat's order", async () => {
    const { a, b } = await twoWaitingChats();
    // Chat a's retry comes round (as its back-off slot would) and is answered 200.
    await ctx.db.update(events).set({ nextAttemptAt: sql`now()` }).where(eq(events.chatId, a));
    const first = await deliverDue(ctx.db);
    assert.deepEqual(
      first.map((r) => r.status),
      ['delivered'],
    );
    const bEvents = await eventsOfChat(ctx.db, b);
    assert.ok(
      bEvents.every((e) => e.nextAttemptAt.getTime() <= Date.now()),
      'chat b no longer waits for its back-off slot',
    );
    // Chat b: its chat.assigned first, then its message.received (one at a time, in order).
    await deliverDue(ctx.db);
    await deliverDue(ctx.db);
    const ofB = receiver.requests.filter((r) => r.body.chat_id === b).map((r) => r.body.event_type);
    assert.deepEqual(ofB, ['chat.assigned', 'chat.assigned', 'message.received'], 'the failed attempt, then both in order');
    assert.ok((await eventsOfChat(ctx.db, b)).every((e) => e.status === 'delivered'));
  });

  it('keeps the back-off when the successful event had no failures before', async () => {
    const { b } = await twoWaitingChats();
    receiver.requests.length = 0;
    await createBotChat(t);
    await deliverDue(ctx.db);
    assert.equal(receiver.requests.length, 1, 'only the new chat was sent');
    assert.ok((await eventsOfChat(ctx.db, b)).every((e) => e.status === 'pending' && e.nextAttemptAt.getTime() > Date.now()));
  });

  it('"Retry now" on the VA makes its waiting events due now, and they are delivered in order', async () => {
    const { a, b } = await twoWaitingChats();
    const res = await admin.post(`/virtual-agents/${t.bot.user.id}/retry-now`, {});
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.response.due_now, 3);
    for (let i = 0; i < 3; i++) await deliverDue(ctx.db);
    assert.ok(
      (
        await ctx.db
          .select()
          .from(events)
          .where(inArray(events.chatId, [a, b]))
      ).every((e) => e.status === 'delivered'),
    );
    const missing = await admin.post('/virtual-agents/999999/retry-now', {});
    assert.equal(missing.body.status_code, 3006);
  });
});
