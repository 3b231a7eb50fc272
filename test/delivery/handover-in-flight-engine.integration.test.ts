import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resetEnv } from '@/env';
import { stopEmbeddedEngine } from '@/lib/delivery/embedded-engine';
import { startDelivery } from '@/lib/delivery/start-delivery';
import { botApi } from '../support/api-client';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { createTenant } from '../support/tenant';
import { attemptsOf, eventsOfChat, sendInbound, until } from './helpers';
import { type Handler, startReceiver } from './receiver';

process.env.DELIVERY_RETRY_DELAYS_MS = '50,100,200';
// Far above any answer here: on PGlite in this process, the handlers' bot API calls and the engine
// share one event loop and one database, and a loaded machine must not turn a slow answer into a retry.
process.env.DELIVERY_TIMEOUT_MS = '60000';
// scripts/test.mjs turns delivery off for every other file; this one runs it as the server does.
process.env.DELIVERY_ENGINE = 'embedded';
resetEnv();

const ALL = ['chat.assigned', 'message.received', 'chat.closed', 'chat.unassigned'] as const;

describe('the embedded engine, with a bot that hands chats over from its message.received handler', () => {
  // Registered first so it runs before the database closes.
  after(() => stopEmbeddedEngine());
  const ctx = setupTestDatabase();
  before(() => startDelivery());

  it('delivers each handed-over event, then chat.unassigned, one call per chat at a time, in order', { timeout: 180_000 }, async () => {
    const open = new Set<string>();
    const overlaps: string[] = [];
    const transfers: number[] = [];
    let transferTo: (chatId: string) => Promise<number> = async () => 0;
    const handler: Handler = async (r) => {
      const chatId: string = r.body.chat_id;
      if (open.has(chatId)) overlaps.push(`${chatId}: ${r.body.event_type} while another was unanswered`);
      open.add(chatId);
      try {
        if (r.body.event_type === 'message.received') transfers.push(await transferTo(chatId));
        return { status: 200, body: 'ok' };
      } finally {
        // Cleared before the answer is written: the engine cannot send the chat's next event before it reads it.
        open.delete(chatId);
      }
    };
    const receiver = await startReceiver(handler);
    after(() => receiver.close());
    const t = await createTenant(ctx.db, { webhookUrl: receiver.url, subscriptions: [...ALL] });
    transferTo = async (chatId) =>
      (await botApi('PATCH', `/internal/chats/${chatId}`, { token: t.token, body: { transfer: { teamid: t.humanTeam.id } } })).status;

    const CHATS = 6;
    const chatIds: string[] = [];
    for (let i = 0; i < CHATS; i++) chatIds.push((await newChat(t, { assignee: t.bot.user.loginId })).chat_id);
    await Promise.all(chatIds.map((id) => sendInbound(t, id, 'I want a human agent')));

    const done = await until(
      'every chat to have its three events, none of them waiting',
      async () => {
        const all = await Promise.all(chatIds.map((id) => eventsOfChat(ctx.db, id)));
        return all.every((rows) => rows.length === 3 && rows.every((e) => e.status !== 'pending')) ? all : null;
      },
      120_000,
    );

    assert.deepEqual(transfers, Array(CHATS).fill(202), 'every handler transferred its chat');
    assert.deepEqual(overlaps, []);
    for (const [i, rows] of done.entries()) {
      assert.deepEqual(
        rows.map((e) => [e.eventType, e.status, e.supersededAt]),
        [
          ['chat.assigned', 'delivered', null],
          ['message.received', 'delivered', null],
          ['chat.unassigned', 'delivered', null],
        ],
      );
      // One attempt each, recorded by the worker that made it: the record found its lease.
      for (const e of rows)
        assert.deepEqual(
          (await attemptsOf(ctx.db, e.id)).map((a) => [e.eventType, a.httpStatus]),
          [[e.eventType, 200]],
        );
      const arrived = receiver.requests.filter((r) => r.body.chat_id === chatIds[i]).map((r) => r.body.event_type);
      assert.deepEqual(arrived, ['chat.assigned', 'message.received', 'chat.unassigned']);
    }
  });
});
