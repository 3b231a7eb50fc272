import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { events, virtualAgents } from '@/db/schema';
import { resetEnv } from '@/env';
import { applyBotDownFallback } from '@/lib/chats/apply-bot-down-fallback';
import { deliverDue, eventsOfChat, sendInbound, tenantWithReceiverEach } from '../delivery/helpers';
import type { Receiver } from '../delivery/receiver';
import { type ApiClient, botApi } from '../support/api-client';
import { newChat, patchChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { signedInAdminOf } from '../support/people';
import type { Tenant } from '../support/tenant';

process.env.DELIVERY_RETRY_DELAYS_MS = '50,60000,60000';
process.env.DELIVERY_TIMEOUT_MS = '1000';
resetEnv();

const ALL = ['chat.assigned', 'message.received', 'chat.closed', 'chat.unassigned'] as const;

describe('handovers are safe by construction', () => {
  const ctx = setupTestDatabase();
  let receiver: Receiver;
  let t: Tenant;
  let admin: ApiClient;

  tenantWithReceiverEach(ctx, (fresh) => ({ t, receiver } = fresh), { subscriptions: [...ALL] });
  beforeEach(async () => {
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
  });

  const held = (overrides: Record<string, unknown> = {}) => newChat(t, { assignee: t.bot.user.loginId, ...overrides });
  const post = (chatId: string, body: unknown) => botApi('POST', `/chats/${chatId}/messages`, { token: t.token, body });
  const transfer = (chatId: string, teamid: number) =>
    botApi('PATCH', `/internal/chats/${chatId}`, { token: t.token, body: { transfer: { teamid } } });
  const types = () => receiver.requests.map((r) => r.body.event_type);

  it('refuses a VA outbound messages, changes and transfers on a chat it does not hold (2043); inbound and announcements stay open', async () => {
    const humans = await newChat(t, { assignee: t.agent.loginId, team_id: t.humanTeam.id });
    for (const res of [
      await post(humans.chat_id, { type: 'outbound', text: 'let me help' }),
      await patchChat(t, humans.chat_id, { tags: ['mine'] }, t.humanTeam.id),
      await patchChat(t, humans.chat_id, { status: 'closed' }, t.humanTeam.id),
      await transfer(humans.chat_id, t.botTeam.id),
    ]) {
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.equal(res.body.status_code, 2043);
      assert.equal(
        res.body.description,
        `The chat is not assigned to this virtual agent: chat ${humans.chat_id} is assigned to someone else (GET /chats/${humans.chat_id} shows who); after chat.unassigned, stop writing to it`,
      );
    }
    assert.equal((await post(humans.chat_id, { type: 'inbound', text: 'from the customer' })).status, 201);
    assert.equal((await post(humans.chat_id, { type: 'announcement', text: 'note for the agent' })).status, 201);
    const after = (await botApi('GET', `/chats/${humans.chat_id}`, { token: t.token })).body.response;
    assert.deepEqual([after.assignee, after.tag, after.status], [t.agent.loginId, [], 'picked']);
  });

  it('lets a VA take an unassigned chat by naming itself, and not by any other change', async () => {
    const queued = await newChat(t);
    const untaken = await patchChat(t, queued.chat_id, { tags: ['x'] });
    assert.equal(untaken.body.status_code, 2043);
    assert.match(untaken.body.description, /is unassigned \(waiting in its team's queue\); a VA takes it by PATCH/);
    const taken = await patchChat(t, queued.chat_id, { assignee: t.bot.user.loginId });
    assert.equal(taken.status, 200, JSON.stringify(taken.body));
    assert.equal(taken.body.response.assignee, t.bot.user.loginId);
    assert.equal((await patchChat(t, queued.chat_id, { tags: ['x'] })).status, 200);
  });

  it("supersedes the VA's waiting events when it hands a chat over, tells it chat.unassigned and refuses its later writes", async () => {
    receiver.setHandler(() => ({ status: 503 }));
    const chat = await held();
    await deliverDue(ctx.db); // chat.assigned fails once and waits for its retry
    await sendInbound(t, chat.chat_id, 'are you there?');
    await sendInbound(t, chat.chat_id, 'hello??');
    const moved = await transfer(chat.chat_id, t.humanTeam.id);
    assert.equal(moved.status, 202, JSON.stringify(moved.body));

    const byType = (await eventsOfChat(ctx.db, chat.chat_id)).map((e) => [e.eventType, e.status]);
    assert.deepEqual(byType, [
      ['chat.assigned', 'superseded'],
      ['message.received', 'superseded'],
      ['message.received', 'superseded'],
      ['chat.unassigned', 'pending'],
    ]);

    receiver.setHandler(() => ({ status: 200, body: 'ok' }));
    const results = await deliverDue(ctx.db);
    assert.deepEqual(
      results.map((r) => r.status),
      ['delivered'],
    );
    assert.deepEqual(types(), ['chat.assigned', 'chat.unassigned'], 'only the failed first attempt and the unassigned event reached it');
    const unassigned = receiver.requests[1].body;
    assert.equal(unassigned.payload.reason, 'transferred');
    assert.equal(unassigned.payload.team_id, t.humanTeam.id);
    assert.equal(unassigned.team_id, t.humanTeam.id);

    const reply = await post(chat.chat_id, { type: 'outbound', text: 'still me' });
    assert.equal(reply.body.status_code, 2043);
    const transcript = (await botApi('GET', `/chats/${chat.chat_id}/messages`, { token: t.token })).body.response.messages;
    assert.equal(transcript.at(-1).type, 'announcement');
    assert.equal(transcript.at(-1).text, `Transferred to ${t.humanTeam.name} by ${t.bot.user.loginId}.`);

    const detail = (await admin.get(`/chats/${chat.chat_id}`)).body.response;
    const superseded = detail.events.filter((e: { status: string }) => e.status === 'superseded');
    assert.equal(superseded.length, 3);
    assert.ok(superseded.every((e: { superseded_at: string | null }) => e.superseded_at));
    const stats = (await admin.get('/deliveries/stats?window=15m')).body.response;
    assert.equal(stats.totals.superseded, 3);
  });

  it('tells the VA when the bot-down fallback takes its chat, and sends it no later event of that chat', async () => {
    await ctx.db
      .update(virtualAgents)
      .set({ fallbackTeamId: t.humanTeam.id, fallbackSkill: null })
      .where(eq(virtualAgents.userId, t.bot.user.id));
    const chat = await held();
    await sendInbound(t, chat.chat_id, 'first');
    const [assigned] = await ctx.db
      .update(events)
      .set({ status: 'failed', attemptCount: 7, lastError: 'HTTP 503', failedAt: new Date() })
      .where(and(eq(events.chatId, chat.chat_id), eq(events.eventType, 'chat.assigned')))
      .returning();
    assert.equal(await applyBotDownFallback(ctx.db, { eventId: assigned.id }), true);
    await sendInbound(t, chat.chat_id, 'second, after the fallback');

    assert.deepEqual(
      (await eventsOfChat(ctx.db, chat.chat_id)).map((e) => [e.eventType, e.status]),
      [
        ['chat.assigned', 'failed'],
        ['message.received', 'superseded'],
        ['chat.unassigned', 'pending'],
      ],
    );
    await deliverDue(ctx.db);
    assert.deepEqual(types(), ['chat.unassigned']);
    assert.equal(receiver.requests[0].body.payload.reason, 'transferred');
  });

  it('tells the VA of its own re-queue, then of the chat coming back: unassigned before assigned', async () => {
    const chat = await held();
    await deliverDue(ctx.db);
    const requeued = await patchChat(t, chat.chat_id, { status: 'queued' });
    assert.equal(requeued.status, 200);
    await deliverDue(ctx.db);
    assert.deepEqual(types(), ['chat.assigned', 'chat.unassigned']);
    assert.equal(receiver.requests[1].body.payload.reason, 'requeued');
  });

  it('asks before redelivering an event to a VA that no longer holds the chat (3010), and redelivers with force', async () => {
    const chat = await held();
    await deliverDue(ctx.db);
    const [assigned] = await eventsOfChat(ctx.db, chat.chat_id);
    assert.equal(assigned.status, 'delivered');
    assert.equal((await admin.post(`/events/${assigned.id}/redeliver`, {})).status, 200, 'the VA holds it: no question');
    await deliverDue(ctx.db);
    await transfer(chat.chat_id, t.humanTeam.id);
    const asked = await admin.post(`/events/${assigned.id}/redeliver`, {});
    assert.equal(asked.status, 409, JSON.stringify(asked.body));
    assert.equal(asked.body.status_code, 3010);
    assert.equal((await ctx.db.select().from(events).where(eq(events.id, assigned.id)))[0].status, 'delivered');
    const forced = await admin.post(`/events/${assigned.id}/redeliver?force=true`, {});
    assert.equal(forced.status, 200, JSON.stringify(forced.body));
    assert.equal((await ctx.db.select().from(events).where(eq(events.id, assigned.id)))[0].status, 'pending');
  });
});
