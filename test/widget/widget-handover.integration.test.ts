import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { accounts, chats, teams, virtualAgents } from '@/db/schema';
import { deliveredBodies, tenantWithReceiverEach } from '../delivery/helpers';
import type { Receiver } from '../delivery/receiver';
import { type ApiClient, botApi, widgetApi } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { newSignedInAgent, newVisitor, openWidgetStream, signedInAdminOf } from '../support/people';
import type { Tenant } from '../support/tenant';

describe('widget: "Talk to a person", the queue position, who answers and the approval status line', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let receiver: Receiver;
  let admin: ApiClient;
  let person: ApiClient;

  tenantWithReceiverEach(ctx, (fresh) => ({ t, receiver } = fresh), {
    subscriptions: ['chat.assigned', 'message.received', 'chat.unassigned'],
  });
  beforeEach(async () => {
    await ctx.db.update(teams).set({ autoAssign: true }).where(eq(teams.id, t.botTeam.id));
    await ctx.db.update(teams).set({ autoAssign: false }).where(eq(teams.id, t.humanTeam.id));
    await ctx.db.update(accounts).set({ defaultTeamId: t.botTeam.id }).where(eq(accounts.id, t.account.id));
    await ctx.db.update(virtualAgents).set({ fallbackTeamId: t.humanTeam.id }).where(eq(virtualAgents.userId, t.bot.user.id));
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
    person = (await newSignedInAgent(ctx.db, admin, { accountId: t.account.id, teamIds: [t.humanTeam.id], tag: `w-${t.agent.id}` })).client;
  });

  const customerChat = async (text: string) => {
    const v = await newVisitor(t.assets.livechat.id);
    const started = await widgetApi('POST', '/chats', { token: v.token, body: { text } });
    assert.equal(started.status, 201, JSON.stringify(started.body));
    return { token: v.token, chatId: started.body.response.chat_id as string };
  };
  const askPerson = (c: { token: string; chatId: string }) =>
    widgetApi('POST', `/chats/${c.chatId}/person-request`, { token: c.token, body: {} });

  it('fallback mode: the chat goes to the fallback queue, the stream shows the place in it live, then the person by the name they chose', async () => {
    const a = await customerChat('first in line');
    const b = await customerChat('second in line');
    const botView = (await widgetApi('GET', `/chats/${b.chatId}`, { token: b.token })).body.response;
    assert.deepEqual([botView.handled_by, botView.responder?.kind, botView.queue_position], ['bot', 'bot', null]);

    const s = await openWidgetStream(b.chatId, b.token, { after: 0 });
    await s.until((e) => e.event === 'chat');
    for (const c of [a, b]) {
      const asked = await askPerson(c);
      assert.equal(asked.status, 200, JSON.stringify(asked.body));
      assert.equal(asked.body.response.handled_by, 'waiting');
    }
    const queued = await s.until((e) => e.event === 'chat' && e.json.queue_position === 2);
    assert.deepEqual([queued.json.handled_by, queued.json.responder], ['waiting', null]);

    // Another chat leaves the queue: the place moves up on the stream, with nobody asking.
    assert.equal((await person.post(`/chats/${a.chatId}/pick`)).status, 200);
    await s.until((e) => e.event === 'chat' && e.json.queue_position === 1);

    assert.equal((await person.put('/display-name', { display_name: 'Robin' })).status, 200);
    assert.equal((await person.post(`/chats/${b.chatId}/pick`)).status, 200);
    const joined = await s.until((e) => e.event === 'chat' && e.json.handled_by === 'person');
    assert.deepEqual([joined.json.responder, joined.json.queue_position], [{ kind: 'person', name: 'Robin' }, null]);
    await s.close();

    const card = (await admin.get(`/chats/${b.chatId}`)).body.response.handover;
    assert.equal(card.source, 'person_request');
    const lost = (await deliveredBodies(ctx.db, receiver, b.chatId)).find((e) => e.event_type === 'chat.unassigned');
    assert.equal(lost?.payload.handover?.source, 'person_request');
    // Asking again changes nothing once a person has the chat.
    assert.equal((await askPerson(b)).body.response.handled_by, 'person');
  });

  it('bot mode: the chat stays with the bot, which gets handover.requested whatever it subscribed to', async () => {
    assert.equal((await admin.patch(`/virtual-agents/${t.bot.user.id}`, { person_request: 'bot' })).status, 200);
    const c = await customerChat('a person please');
    const asked = await askPerson(c);
    assert.equal(asked.status, 200, JSON.stringify(asked.body));
    assert.equal(asked.body.response.handled_by, 'bot');
    const requested = (await deliveredBodies(ctx.db, receiver, c.chatId)).filter((e) => e.event_type === 'handover.requested');
    assert.equal(requested.length, 1);
    assert.equal(requested[0].payload.source, 'person_request');
    const chat = await botApi('GET', `/chats/${c.chatId}`, { token: t.token });
    assert.equal(chat.body.response.assignee, t.bot.user.loginId);
  });

  it('says while an approval is pending, live, and stops once a person decides', async () => {
    const c = await customerChat('refund please');
    const s = await openWidgetStream(c.chatId, c.token, { after: 0 });
    const first = await s.until((e) => e.event === 'chat');
    assert.equal(first.json.approval_pending, false);
    const asked = await botApi('POST', `/chats/${c.chatId}/approvals`, {
      token: t.token,
      body: { action: 'refund', summary: 'Refund 20 EUR', details: [], expires_in_seconds: 600, team_id: t.humanTeam.id },
    });
    assert.equal(asked.status, 201, JSON.stringify(asked.body));
    await s.until((e) => e.event === 'chat' && e.json.approval_pending === true);
    const decided = await person.post(`/approvals/${asked.body.response.approval_id}/decision`, { decision: 'reject', comment: 'no' });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    await s.until((e) => e.event === 'chat' && e.json.approval_pending === false);
    await s.close();
  });

  it("refuses another customer's chat and a closed one, and counts the request with the customer's messages", async () => {
    const c = await customerChat('hello');
    const stranger = await newVisitor(t.assets.livechat.id);
    const other = await widgetApi('POST', `/chats/${c.chatId}/person-request`, { token: stranger.token, body: {} });
    assert.equal(other.body.status_code, 2031, JSON.stringify(other.body));
    const before = Number(
      (await widgetApi('POST', `/chats/${c.chatId}/messages`, { token: c.token, body: { text: 'hi' } })).headers.get(
        'rate-limit-remaining',
      ),
    );
    const after = Number((await askPerson(c)).headers.get('rate-limit-remaining'));
    assert.equal(after, before - 1, 'the person request is counted like a message');
    // Closed (by whoever: the widget only reads the status).
    await ctx.db.update(chats).set({ status: 'closed', closedAt: new Date(), assigneeId: null }).where(eq(chats.id, c.chatId));
    assert.equal((await askPerson(c)).body.status_code, 2040);
  });
});
