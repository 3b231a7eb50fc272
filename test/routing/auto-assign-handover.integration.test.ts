import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { accounts, chats, events, teams, users } from '@/db/schema';
import { createVirtualAgent } from '@/lib/virtual-agents/create-virtual-agent';
import { tenantWithReceiverEach } from '../delivery/helpers';
import type { Receiver } from '../delivery/receiver';
import { type ApiClient, botApi, widgetApi } from '../support/api-client';
import { newChat, patchChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { newSignedInAgent, newVisitor, signedInAdminOf } from '../support/people';
import type { Tenant } from '../support/tenant';

/**
 * A chat handed to people (the customer's "Talk to a person", the bot-down fallback, the reply
 * budget) goes to people only: auto-assign and seat filling pass every VA over, even the team's
 * only ready member, until a person hands the chat back. A VA's own transfer never comes straight
 * back to that VA; another VA of the team may take it (bot to bot). The demo's shape: the VA team's Demo Bot is ready
 * with seats, its only person is away.
 */
describe('auto-assign after a handover to people', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let receiver: Receiver;
  let admin: ApiClient;
  let person: ApiClient;
  let personId: number;
  let personLogin: string;

  tenantWithReceiverEach(ctx, (fresh) => ({ t, receiver } = fresh), {
    subscriptions: ['chat.assigned', 'message.received', 'chat.unassigned', 'chat.closed'],
  });
  beforeEach(async () => {
    // The VA team assigns by itself and is where new widget chats go; the VA has no fallback team
    // and answers "Talk to a person" with `fallback` (the defaults): the request queues the chat in this team.
    await ctx.db.update(teams).set({ autoAssign: true }).where(eq(teams.id, t.botTeam.id));
    await ctx.db.update(accounts).set({ defaultTeamId: t.botTeam.id }).where(eq(accounts.id, t.account.id));
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
    // Away, like the demo's manager beside the Demo Bot.
    const made = await newSignedInAgent(ctx.db, admin, { accountId: t.account.id, teamIds: [t.botTeam.id], tag: `h-${t.agent.id}` });
    person = made.client;
    personId = made.user.id;
    personLogin = made.user.loginId;
  });

  const chatRow = async (chatId: string) => (await ctx.db.select().from(chats).where(eq(chats.id, chatId)))[0];
  const assignedTo = async (chatId: string, vaId: number) =>
    (
      await ctx.db
        .select()
        .from(events)
        .where(and(eq(events.chatId, chatId), eq(events.virtualAgentId, vaId)))
    ).filter((e) => e.eventType === 'chat.assigned');
  const customerChat = async (text: string) => {
    const v = await newVisitor(t.assets.livechat.id);
    const started = await widgetApi('POST', '/chats', { token: v.token, body: { text } });
    assert.equal(started.status, 201, JSON.stringify(started.body));
    return { token: v.token, chatId: started.body.response.chat_id as string };
  };
  const secondVa = () =>
    createVirtualAgent(ctx.db, {
      accountId: t.account.id,
      name: `Second ${t.agent.id}`,
      description: 'Also answers in the bot team',
      webhookUrl: receiver.url,
      teamId: t.botTeam.id,
      subscriptions: ['chat.assigned'],
    });
  const botTransfer = (chatId: string) =>
    botApi('PATCH', `/internal/chats/${chatId}`, { token: t.token, body: { transfer: { teamid: t.botTeam.id } } });

  it("the demo's shape: a person request waits for a person, a VA seat freed later passes it over, the person who becomes available gets it", async () => {
    await ctx.db.update(users).set({ capacity: 1 }).where(eq(users.id, t.bot.user.id));
    const a = await customerChat('I need help with my invoice');
    assert.equal((await chatRow(a.chatId)).assigneeId, t.bot.user.id, 'a new widget chat goes to the bot');

    const asked = await widgetApi('POST', `/chats/${a.chatId}/person-request`, { token: a.token, body: {} });
    assert.equal(asked.status, 200, JSON.stringify(asked.body));
    assert.deepEqual([asked.body.response.handled_by, asked.body.response.queue_position], ['waiting', 1]);
    const waiting = await chatRow(a.chatId);
    assert.deepEqual([waiting.status, waiting.assigneeId, waiting.teamId], ['queued', null, t.botTeam.id], 'not back with the bot');
    const card = (await admin.get(`/chats/${a.chatId}`)).body.response.handover;
    assert.deepEqual([card.source, card.handovers], ['person_request', 1]);
    assert.equal((await assignedTo(a.chatId, t.bot.user.id)).length, 1, 'the bot was given the chat once, when it was new');
    const queue = (await person.get('/chats')).body.response.queue;
    assert.ok(
      queue.some((q: { chat_id: string }) => q.chat_id === a.chatId),
      'the workspace queue shows it',
    );

    // The bot's free seat takes a new chat, not the one handed to people; then it is full.
    const b = await newChat(t, { team_id: t.botTeam.id });
    assert.equal(b.assignee, t.bot.user.loginId);
    const c = await newChat(t, { team_id: t.botTeam.id });
    assert.equal(c.assignee, null, 'the bot is full and the person away');
    // The bot closes b: its freed seat goes to c, though a (older) waits in the same queue.
    assert.equal((await patchChat(t, b.chat_id, { status: 'closed' })).status, 200);
    assert.equal((await chatRow(c.chat_id)).assigneeId, t.bot.user.id);
    assert.deepEqual([(await chatRow(a.chatId)).status, (await chatRow(a.chatId)).assigneeId], ['queued', null]);

    // The person becomes available: auto-assign gives them the chat at once.
    assert.equal((await person.put('/availability', { availability: 'available' })).status, 200);
    const taken = await chatRow(a.chatId);
    assert.deepEqual([taken.status, taken.assigneeId], ['picked', personId]);
    const view = (await widgetApi('GET', `/chats/${a.chatId}`, { token: a.token })).body.response;
    assert.equal(view.handled_by, 'person');
    assert.equal((await assignedTo(a.chatId, t.bot.user.id)).length, 1);
  });

  it("a VA's transfer to its own team never comes straight back to it, by auto-assign or its freed seat; another VA of the team may take it", async () => {
    await ctx.db.update(users).set({ capacity: 1 }).where(eq(users.id, t.bot.user.id));
    const held = await newChat(t, { assignee: t.bot.user.loginId });
    const moved = await botTransfer(held.chat_id);
    assert.equal(moved.status, 202, JSON.stringify(moved.body));
    const queued = await chatRow(held.chat_id);
    assert.deepEqual([queued.status, queued.assigneeId], ['queued', null], 'the VA had the only seat, and is passed over');

    // The VA's seat is free (the transfer released it): a new chat takes it, the transferred one waits.
    const next = await newChat(t, { team_id: t.botTeam.id });
    assert.equal(next.assignee, t.bot.user.loginId);
    assert.equal((await patchChat(t, next.chat_id, { status: 'closed' })).status, 200);
    assert.deepEqual([(await chatRow(held.chat_id)).status, (await chatRow(held.chat_id)).assigneeId], ['queued', null]);
    assert.equal((await assignedTo(held.chat_id, t.bot.user.id)).length, 1, 'only its creation');

    // Bot to bot: another VA of the team is given it as soon as it has a seat.
    const other = await secondVa();
    const again = await newChat(t, { assignee: t.bot.user.loginId });
    assert.equal((await botTransfer(again.chat_id)).status, 202);
    assert.equal((await chatRow(again.chat_id)).assigneeId, other.user.id, 'a transfer between bots still reaches a bot');
    assert.equal((await assignedTo(again.chat_id, other.user.id)).length, 1);
  });

  it('a person request goes to no VA at all, even with another VA of the team ready', async () => {
    const other = await secondVa();
    const a = await customerChat('let me talk to someone');
    const asked = await widgetApi('POST', `/chats/${a.chatId}/person-request`, { token: a.token, body: {} });
    assert.equal(asked.body.response.handled_by, 'waiting', JSON.stringify(asked.body));
    assert.deepEqual([(await chatRow(a.chatId)).status, (await chatRow(a.chatId)).assigneeId], ['queued', null]);
    assert.equal((await assignedTo(a.chatId, other.user.id)).length, 0);
    assert.equal((await person.put('/availability', { availability: 'available' })).status, 200);
    assert.equal((await chatRow(a.chatId)).assigneeId, personId);
  });

  it('a person re-queuing keeps the chat with people; their hand-back gives it to the VA, and from then VAs may take it again', async () => {
    const held = await newChat(t, { assignee: t.bot.user.loginId });
    assert.equal((await botTransfer(held.chat_id)).status, 202);
    assert.equal((await person.put('/availability', { availability: 'available' })).status, 200);
    assert.equal((await chatRow(held.chat_id)).assigneeId, personId);

    // Back to the queue by the person, who goes away: the handover stands, no VA takes it.
    assert.equal((await person.put('/availability', { availability: 'unavailable' })).status, 200);
    const requeued = await person.post(`/chats/${held.chat_id}/transfer`, { team_id: t.botTeam.id });
    assert.equal(requeued.status, 200, JSON.stringify(requeued.body));
    assert.deepEqual([(await chatRow(held.chat_id)).status, (await chatRow(held.chat_id)).assigneeId], ['queued', null]);

    // The person picks it and hands it back: an explicit assignment, which the rule does not stop.
    assert.equal((await person.post(`/chats/${held.chat_id}/pick`)).status, 200);
    const back = await person.post(`/chats/${held.chat_id}/hand-back`, { note: 'sorted the invoice' });
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.equal((await chatRow(held.chat_id)).assigneeId, t.bot.user.id);
    const assigned = await assignedTo(held.chat_id, t.bot.user.id);
    assert.equal(assigned.length, 2, 'on creation, and on the hand-back');
    assert.equal((assigned[1].body as any).payload.handback.by, personLogin);
    assert.equal((assigned[1].body as any).payload.handback.note, 'sorted the invoice');

    // The hand-back ended the handover: when the VA is disabled, its chat goes back to the queue
    // and auto-assign may give it to another VA (nobody handed it to people since).
    const other = await secondVa();
    assert.equal((await admin.patch(`/virtual-agents/${t.bot.user.id}`, { enabled: false })).status, 200);
    assert.equal((await chatRow(held.chat_id)).assigneeId, other.user.id);
    assert.equal((await assignedTo(held.chat_id, other.user.id)).length, 1);
  });

  it('an ordinary new chat in the team still goes to the VA, while a handed-over chat waits in the same queue', async () => {
    const handed = await customerChat('a person please');
    assert.equal(
      (await widgetApi('POST', `/chats/${handed.chatId}/person-request`, { token: handed.token, body: {} })).body.response.handled_by,
      'waiting',
    );
    const fresh = await customerChat('what are your opening hours?');
    const row = await chatRow(fresh.chatId);
    assert.deepEqual([row.status, row.assigneeId], ['picked', t.bot.user.id]);
    assert.equal((await assignedTo(fresh.chatId, t.bot.user.id)).length, 1);
    const api = await newChat(t, { team_id: t.botTeam.id });
    assert.equal(api.assignee, t.bot.user.loginId);
    assert.deepEqual([(await chatRow(handed.chatId)).status, (await chatRow(handed.chatId)).assigneeId], ['queued', null]);
  });
});
