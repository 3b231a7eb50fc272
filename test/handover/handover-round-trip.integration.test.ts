import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { approvals, virtualAgents } from '@/db/schema';
import { expireApprovals } from '@/lib/approvals/expire-approvals';
import { deliveredBodies, tenantWithReceiverEach } from '../delivery/helpers';
import type { Receiver } from '../delivery/receiver';
import { type ApiClient, botApi } from '../support/api-client';
import { newChat, patchChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { newSignedInAgent, signedInAdminOf } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';

const CONTEXT = {
  reason: 'Refund above what the bot may grant',
  summary: 'Order 8841 arrived damaged; the customer wants 240 EUR back.',
  intent: 'refund',
  fields: { order_id: '8841', amount: '240 EUR' },
};

describe('handover round trip: context, hand-back, loop limit and approvals', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let receiver: Receiver;
  let admin: ApiClient;
  let person: ApiClient;
  let personLogin: string;

  tenantWithReceiverEach(ctx, (fresh) => ({ t, receiver } = fresh), {
    subscriptions: ['chat.assigned', 'message.received', 'chat.closed', 'chat.unassigned'],
  });
  beforeEach(async () => {
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
    const made = await newSignedInAgent(ctx.db, admin, { accountId: t.account.id, teamIds: [t.humanTeam.id], tag: `p-${t.agent.id}` });
    person = made.client;
    personLogin = made.user.loginId;
  });

  const transfer = (chatId: string, body: Record<string, unknown> = {}) =>
    botApi('PATCH', `/internal/chats/${chatId}`, { token: t.token, body: { transfer: { teamid: t.humanTeam.id }, ...body } });
  const botChat = () => newChat(t, { assignee: t.bot.user.loginId });
  const ask = (chatId: string, body: Record<string, unknown> = {}, token = t.token) =>
    botApi('POST', `/chats/${chatId}/approvals`, {
      token,
      body: {
        action: 'refund',
        summary: 'Refund 240 EUR for order 8841',
        details: [
          { key: 'order_id', value: '8841' },
          { key: 'amount', value: '240 EUR', editable: true },
        ],
        expires_in_seconds: 600,
        team_id: t.humanTeam.id,
        ...body,
      },
    });

  it('shows the context on the queue, on the chat before the transcript, in the console and in chat.unassigned', async () => {
    const chat = await botChat();
    const moved = await transfer(chat.chat_id, { handover: CONTEXT });
    assert.equal(moved.status, 202, JSON.stringify(moved.body));

    const lists = (await person.get('/chats')).body.response;
    const queued = lists.queue.find((q: { chat_id: string }) => q.chat_id === chat.chat_id);
    assert.deepEqual(queued.handover, { from: t.bot.user.loginId, reason: CONTEXT.reason, intent: 'refund' });

    const opened = await person.get(`/chats/${chat.chat_id}`);
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    const card = opened.body.response.handover;
    assert.deepEqual(
      [card.source, card.from, card.reason, card.summary, card.intent, card.fields, card.handovers, card.max_handovers, card.can_hand_back],
      ['transfer', t.bot.user.loginId, CONTEXT.reason, CONTEXT.summary, 'refund', CONTEXT.fields, 1, 3, true],
    );
    assert.deepEqual(Object.keys(opened.body.response).indexOf('handover') < Object.keys(opened.body.response).indexOf('transcript'), true);

    const bodies = await deliveredBodies(ctx.db, receiver, chat.chat_id);
    const lost = bodies.find((b) => b.event_type === 'chat.unassigned');
    assert.deepEqual(lost?.payload.handover, { source: 'transfer', ...CONTEXT });

    const widgetSafe = await botApi('GET', `/chats/${chat.chat_id}/messages`, { token: t.token });
    assert.ok(!JSON.stringify(widgetSafe.body).includes(CONTEXT.summary), 'the context is never a message of the chat');
  });

  it('refuses a context over its documented sizes, naming the field', async () => {
    const chat = await botChat();
    const res = await transfer(chat.chat_id, { handover: { summary: 'x'.repeat(2001) } });
    assert.equal(res.status, 400);
    assert.equal(res.body.status_code, 2000);
    assert.match(res.body.description, /handover\.summary/);
    const fields = Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`k${i}`, 'v']));
    const many = await transfer(chat.chat_id, { handover: { fields } });
    assert.equal(many.body.status_code, 2000);
    assert.match(many.body.description, /handover\.fields/);
  });

  it('carries a context kept ahead with PATCH into the reply budget or fallback style handover (a person taking over)', async () => {
    const chat = await botChat();
    const kept = await patchChat(t, chat.chat_id, { handover: { intent: 'cancel order', fields: { order_id: '77' } } });
    assert.equal(kept.status, 200, JSON.stringify(kept.body));
    const botPerson = await newSignedInAgent(ctx.db, admin, { accountId: t.account.id, teamIds: [t.botTeam.id], tag: `b-${t.agent.id}` });
    assert.equal((await botPerson.client.put('/availability', { availability: 'available' })).status, 200);
    const taken = await botPerson.client.post(`/chats/${chat.chat_id}/pick`);
    assert.equal(taken.status, 200, JSON.stringify(taken.body));
    assert.deepEqual(
      [taken.body.response.handover.source, taken.body.response.handover.intent, taken.body.response.handover.fields],
      ['taken_over', 'cancel order', { order_id: '77' }],
    );
  });

  it('hands back with a note: chat.assigned carries what people said and the note, never internal notes', async () => {
    const chat = await botChat();
    await transfer(chat.chat_id, { handover: CONTEXT });
    assert.equal((await person.post(`/chats/${chat.chat_id}/pick`)).status, 200);
    assert.equal((await person.post(`/chats/${chat.chat_id}/reply`, { text: 'I can refund 200 EUR.' })).status, 201);
    assert.equal(
      (await botApi('POST', `/chats/${chat.chat_id}/messages`, { token: t.token, body: { type: 'inbound', text: 'ok, fine' } })).status,
      201,
    );
    assert.equal((await person.post(`/chats/${chat.chat_id}/notes`, { text: 'internal: customer is a VIP' })).status, 201);
    receiver.requests.length = 0;
    const back = await person.post(`/chats/${chat.chat_id}/hand-back`, { note: 'Refunded 200 EUR; close when they are happy' });
    assert.equal(back.status, 200, JSON.stringify(back.body));

    const bodies = await deliveredBodies(ctx.db, receiver, chat.chat_id);
    const assigned = bodies.find((b) => b.event_type === 'chat.assigned');
    assert.ok(assigned, `no chat.assigned among ${JSON.stringify(bodies.map((b) => b.event_type))}`);
    const handback = assigned.payload.handback;
    assert.equal(handback.by, personLogin);
    assert.equal(handback.note, 'Refunded 200 EUR; close when they are happy');
    assert.deepEqual(
      handback.messages.map((m: { text: string }) => m.text),
      ['I can refund 200 EUR.', 'ok, fine'],
    );
    assert.ok(!JSON.stringify(assigned).includes('VIP'), 'internal notes never reach the bot');
    const card = (await admin.get(`/chats/${chat.chat_id}`)).body.response.handover;
    assert.equal(card.handed_back.by, personLogin);
    assert.equal(card.handed_back.note, 'Refunded 200 EUR; close when they are happy');
  });

  it('holds the loop limit: past max_handovers_per_chat the chat stays with people (2120 for people, the bot and auto-assign)', async () => {
    await ctx.db.update(virtualAgents).set({ maxHandoversPerChat: 2 }).where(eq(virtualAgents.userId, t.bot.user.id));
    const chat = await botChat();
    for (let round = 1; round <= 2; round++) {
      assert.equal((await transfer(chat.chat_id)).status, 202);
      assert.equal((await person.post(`/chats/${chat.chat_id}/pick`)).status, 200);
      const back = await person.post(`/chats/${chat.chat_id}/hand-back`, {});
      if (round < 2) assert.equal(back.status, 200, JSON.stringify(back.body));
      else {
        assert.equal(back.status, 409, JSON.stringify(back.body));
        assert.equal(back.body.status_code, 2120);
        assert.match(back.body.description, /handed this chat to people 2 times/);
      }
    }
    const card = (await person.get(`/chats/${chat.chat_id}`)).body.response.handover;
    assert.deepEqual([card.handovers, card.max_handovers, card.can_hand_back], [2, 2, false]);
    // The bot taking it back itself, once a person re-queues it, is refused the same way.
    assert.equal((await person.post(`/chats/${chat.chat_id}/transfer`, { team_id: t.botTeam.id })).status, 200);
    const self = await patchChat(t, chat.chat_id, { assignee: t.bot.user.loginId });
    assert.equal(self.body.status_code, 2120, JSON.stringify(self.body));
  });

  it('approves with an edited detail: the bot keeps the chat and gets approval.decided with who, values and comment', async () => {
    const chat = await botChat();
    const asked = await ask(chat.chat_id);
    assert.equal(asked.status, 201, JSON.stringify(asked.body));
    assert.equal(asked.body.status_code, 4330);
    const id = asked.body.response.approval_id;
    const pending = (await person.get('/chats')).body.response.approvals;
    assert.deepEqual(
      pending.map((a: { approval_id: string }) => a.approval_id),
      [id],
    );

    const notEditable = await person.post(`/approvals/${id}/decision`, { decision: 'approve', details: { order_id: '1' } });
    assert.equal(notEditable.body.status_code, 2123, JSON.stringify(notEditable.body));
    const decided = await person.post(`/approvals/${id}/decision`, {
      decision: 'approve',
      comment: 'box was fine',
      details: { amount: '200 EUR' },
    });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    assert.equal(decided.body.response.status, 'approved');
    const again = await person.post(`/approvals/${id}/decision`, { decision: 'reject' });
    assert.equal(again.body.status_code, 2122);

    const bodies = await deliveredBodies(ctx.db, receiver, chat.chat_id);
    const event = bodies.find((b) => b.event_type === 'approval.decided');
    assert.ok(event, 'approval.decided was delivered though the VA did not subscribe to it');
    assert.deepEqual(
      [event.payload.decision, event.payload.comment, event.payload.details, event.payload.decided_by],
      ['approved', 'box was fine', { order_id: '8841', amount: '200 EUR' }, personLogin],
    );
    const read = await botApi('GET', `/chats/${chat.chat_id}/approvals/${id}`, { token: t.token });
    assert.equal(read.body.status_code, 4331);
    assert.equal(read.body.response.decision.by, personLogin);
    const still = await botApi('GET', `/chats/${chat.chat_id}`, { token: t.token });
    assert.equal(still.body.response.assignee, t.bot.user.loginId, 'the bot keeps the chat');
  });

  it('rejects, and expires an undecided request with approval.expired', async () => {
    const chat = await botChat();
    const a = (await ask(chat.chat_id)).body.response.approval_id;
    const rejected = await person.post(`/approvals/${a}/decision`, { decision: 'reject', comment: 'not covered' });
    assert.equal(rejected.body.response.status, 'rejected');

    const b = (await ask(chat.chat_id, { expires_in_seconds: 10 })).body.response.approval_id;
    assert.deepEqual(await expireApprovals(ctx.db, { now: new Date(Date.now() + 11_000) }), [b]);
    assert.deepEqual(await expireApprovals(ctx.db, { now: new Date(Date.now() + 12_000) }), [], 'expired once');
    const late = await person.post(`/approvals/${b}/decision`, { decision: 'approve' });
    assert.equal(late.body.status_code, 2122);
    const bodies = await deliveredBodies(ctx.db, receiver, chat.chat_id);
    assert.deepEqual(
      bodies.filter((x) => x.event_type.startsWith('approval.')).map((x) => [x.event_type, x.payload.approval_id]),
      [
        ['approval.decided', a],
        ['approval.expired', b],
      ],
    );
    const [row] = await ctx.db.select().from(approvals).where(eq(approvals.id, a));
    assert.equal(row.decidedBy, personLogin);
    assert.ok(row.decidedAt instanceof Date);
  });

  it('refuses other VAs, other teams and other tenants', async () => {
    const chat = await botChat();
    // Only the VA holding the chat asks.
    const humans = await newChat(t, { team_id: t.humanTeam.id });
    assert.equal((await ask(humans.chat_id)).body.status_code, 2043);
    // Another tenant's VA sees no such chat, and cannot read the request.
    const other = await createTenant(ctx.db);
    assert.equal((await ask(chat.chat_id, {}, other.token)).body.status_code, 2031);
    const id = (await ask(chat.chat_id)).body.response.approval_id;
    assert.equal((await botApi('GET', `/chats/${chat.chat_id}/approvals/${id}`, { token: other.token })).body.status_code, 2121);
    // A team of another account is 2010.
    assert.equal((await ask(chat.chat_id, { team_id: other.humanTeam.id })).body.status_code, 2010);
    // A person of another team cannot list or decide it.
    const outsider = await newSignedInAgent(ctx.db, admin, { accountId: t.account.id, teamIds: [t.botTeam.id], tag: `o-${t.agent.id}` });
    assert.deepEqual((await outsider.client.get('/chats')).body.response.approvals, []);
    assert.equal((await outsider.client.post(`/approvals/${id}/decision`, { decision: 'approve' })).body.status_code, 2121);
    // A skill the person lacks hides it too.
    const skilled = (await ask(chat.chat_id, { skill_name: 'billing' })).body.response.approval_id;
    assert.equal((await person.post(`/approvals/${skilled}/decision`, { decision: 'approve' })).body.status_code, 2121);
    // Hand-back of a chat in another team is 2085.
    assert.equal((await person.post(`/chats/${chat.chat_id}/hand-back`, {})).body.status_code, 2085);
  });
});
