import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { desc, eq } from 'drizzle-orm';
import { chats, messages, users } from '@/db/schema';
import { deliveredBodies, tenantWithReceiverEach } from '../delivery/helpers';
import type { Receiver } from '../delivery/receiver';
import { type ApiClient, botApi } from '../support/api-client';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { newSignedInAgent, signedInAdminOf } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';

describe('agent workspace: queue, picks and actions', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let receiver: Receiver;
  let admin: ApiClient;
  let one: ApiClient;
  let oneLogin: string;

  tenantWithReceiverEach(ctx, (fresh) => ({ t, receiver } = fresh), {
    subscriptions: ['chat.assigned', 'message.received', 'chat.closed', 'chat.unassigned'],
  });
  beforeEach(async () => {
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
    const made = await newSignedInAgent(ctx.db, admin, { accountId: t.account.id, teamIds: [t.humanTeam.id], tag: `one-${t.agent.id}` });
    one = made.client;
    oneLogin = made.user.loginId;
  });

  const botTransfer = (chatId: string, teamid: number) =>
    botApi('PATCH', `/internal/chats/${chatId}`, { token: t.token, body: { transfer: { teamid } } });

  it('lists the queue oldest first with why each chat waits, and Mine', async () => {
    const first = await newChat(t, { team_id: t.humanTeam.id });
    const held = await newChat(t, { assignee: t.bot.user.loginId });
    assert.equal((await botTransfer(held.chat_id, t.humanTeam.id)).status, 202);
    await newChat(t); // the bots' team: not one of this person's teams
    const lists = await one.get('/chats');
    assert.equal(lists.status, 200, JSON.stringify(lists.body));
    const queue = lists.body.response.queue;
    assert.deepEqual(
      queue.map((q: { chat_id: string; reason: string }) => [q.chat_id, q.reason]),
      [
        [first.chat_id, 'new'],
        [held.chat_id, 'transfer'],
      ],
    );
    assert.equal(queue[0].team_name, 'Humans');
    assert.ok(queue[0].waited_seconds >= 0);
    assert.deepEqual(lists.body.response.mine, []);

    assert.equal((await one.post(`/chats/${first.chat_id}/pick`)).status, 200);
    const after = (await one.get('/chats')).body.response;
    assert.deepEqual(
      after.queue.map((q: { chat_id: string }) => q.chat_id),
      [held.chat_id],
    );
    assert.deepEqual(
      after.mine.map((m: { chat_id: string; awaiting_reply: boolean }) => [m.chat_id, m.awaiting_reply]),
      [[first.chat_id, false]],
    );
  });

  it('shows and lets act only on the teams’ chats: another team and another account are 2085', async () => {
    const botsChat = await newChat(t);
    for (const res of [
      await one.get(`/chats/${botsChat.chat_id}`),
      await one.post(`/chats/${botsChat.chat_id}/pick`),
      await one.post(`/chats/${botsChat.chat_id}/notes`, { text: 'x' }),
    ]) {
      assert.equal(res.status, 404, JSON.stringify(res.body));
      assert.equal(res.body.status_code, 2085);
    }
    const other = await createTenant(ctx.db);
    const foreign = await newChat(other, { team_id: other.humanTeam.id });
    for (const res of [await one.get(`/chats/${foreign.chat_id}`), await one.post(`/chats/${foreign.chat_id}/pick`)]) {
      assert.equal(res.body.status_code, 2085);
    }
    const [row] = await ctx.db.select({ assigneeId: chats.assigneeId }).from(chats).where(eq(chats.id, foreign.chat_id));
    assert.equal(row.assigneeId, null);
  });

  it('gives a chat picked by 20 people at once to exactly one; the others are told 2083 at once', async () => {
    const people = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        newSignedInAgent(ctx.db, admin, { accountId: t.account.id, teamIds: [t.humanTeam.id], tag: `race${i}-${t.agent.id}` }),
      ),
    );
    const chat = await newChat(t, { team_id: t.humanTeam.id });
    const answers = await Promise.all(people.map((p) => p.client.post(`/chats/${chat.chat_id}/pick`)));
    const winners = answers.filter((a) => a.status === 200);
    const losers = answers.filter((a) => a.status !== 200);
    assert.equal(winners.length, 1, JSON.stringify(answers.map((a) => a.body.status_code)));
    assert.equal(losers.length, 19);
    for (const l of losers) {
      assert.equal(l.status, 409);
      assert.equal(l.body.status_code, 2083);
    }
    const winner = people[answers.indexOf(winners[0])];
    const [row] = await ctx.db.select({ assigneeId: chats.assigneeId, status: chats.status }).from(chats).where(eq(chats.id, chat.chat_id));
    assert.deepEqual(row, { assigneeId: winner.user.id, status: 'picked' });
    assert.equal(winners[0].body.response.chat.assignee, winner.user.loginId);
  });

  it('holds the capacity for picks as auto-assign does (2084), also for picks at once', async () => {
    const small = await newSignedInAgent(ctx.db, admin, {
      accountId: t.account.id,
      teamIds: [t.humanTeam.id],
      tag: `cap-${t.agent.id}`,
      capacity: 2,
    });
    const three = await Promise.all([1, 2, 3].map(() => newChat(t, { team_id: t.humanTeam.id })));
    const answers = await Promise.all(three.map((c) => small.client.post(`/chats/${c.chat_id}/pick`)));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 200, 409]);
    assert.equal(answers.find((a) => a.status === 409)?.body.status_code, 2084);
    const held = await ctx.db.select().from(chats).where(eq(chats.assigneeId, small.user.id));
    assert.equal(held.length, 2);
  });

  it("takes a chat from the VA (chat.unassigned), answers, notes, tags, hands back (chat.assigned), and the VA's writes follow who holds it", async () => {
    // A person of the bots' team too may take over from the VA there.
    const both = await newSignedInAgent(ctx.db, admin, {
      accountId: t.account.id,
      teamIds: [t.botTeam.id, t.humanTeam.id],
      tag: `both-${t.agent.id}`,
    });
    one = both.client;
    oneLogin = both.user.loginId;
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    const cid = chat.chat_id;
    await botApi('POST', `/chats/${cid}/messages`, { token: t.token, body: { type: 'inbound', text: 'agent please' } });
    await botApi('POST', `/chats/${cid}/messages`, { token: t.token, body: { type: 'outbound', text: 'One moment.' } });
    // The bot has its events before the person steps in (waiting ones would be superseded).
    assert.deepEqual(
      (await deliveredBodies(ctx.db, receiver, cid)).map((b) => b.event_type),
      ['chat.assigned', 'message.received'],
    );

    // Open in the workspace before the pick: the bot's typing arrives live.
    const live = (await one.stream(`/stream?chat=${cid}`)).sse;
    assert.ok(live, 'the workspace stream opened');
    try {
      await live.events(1);
      const typing = await botApi('PUT', `/chats/${cid}/typing`, { token: t.token, body: { on: true } });
      assert.equal(typing.status, 200, JSON.stringify(typing.body));
      const typed = await live.until((f) => f.event === 'details' && f.json?.chat?.typing?.on === true, {
        what: 'the details with the bot typing',
      });
      assert.equal(typed.json.chat.chat_id, cid);
      assert.ok((await one.get(`/chats/${cid}`)).body.response.chat.typing?.on);
    } finally {
      await live.close();
    }

    const taken = await one.post(`/chats/${cid}/pick`);
    assert.equal(taken.status, 200, JSON.stringify(taken.body));
    assert.equal(taken.body.response.chat.assignee, oneLogin);
    const botLate = await botApi('POST', `/chats/${cid}/messages`, { token: t.token, body: { type: 'outbound', text: 'still me' } });
    assert.equal(botLate.body.status_code, 2043);

    const reply = await one.post(`/chats/${cid}/reply`, { text: 'Hello, I am a person.' });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    assert.equal(reply.body.response.author, oneLogin);
    const quick = await one.post(`/chats/${cid}/reply`, { text: 'Pick', quick_replies: ['Yes', 'No'] });
    assert.equal(quick.body.status_code, 2020, 'quick replies are for livechat');
    assert.equal((await one.post(`/chats/${cid}/notes`, { text: 'wants a refund' })).status, 201);
    const tagged = await one.patch(`/chats/${cid}/tags`, { add_tags: ['refund'] });
    assert.equal(tagged.status, 200, JSON.stringify(tagged.body));
    assert.deepEqual(tagged.body.response.chat.tag, ['refund']);

    const view = (await one.get(`/chats/${cid}`)).body.response;
    assert.deepEqual(
      view.transcript.map((m: { type: string; text: string }) => [m.type, m.text]),
      [
        ['inbound', 'agent please'],
        ['outbound', 'One moment.'],
        ['announcement', `Picked by ${oneLogin}.`],
        ['outbound', 'Hello, I am a person.'],
        ['announcement', 'wants a refund'],
      ],
    );

    const back = await one.post(`/chats/${cid}/transfer`, { assignee: t.bot.user.loginId });
    assert.equal(back.status, 200, JSON.stringify(back.body));
    const botAgain = await botApi('POST', `/chats/${cid}/messages`, { token: t.token, body: { type: 'outbound', text: 'I am back.' } });
    assert.equal(botAgain.status, 201, JSON.stringify(botAgain.body));
    assert.equal((await one.post(`/chats/${cid}/reply`, { text: 'me again' })).body.status_code, 2086);

    const bodies = await deliveredBodies(ctx.db, receiver, cid);
    assert.deepEqual(
      bodies.map((b) => b.event_type),
      ['chat.assigned', 'message.received', 'chat.unassigned', 'chat.assigned'],
    );
    assert.equal(bodies[2].payload.reason, 'reassigned');
    assert.equal(bodies[2].payload.assignee, oneLogin);
    // Back with the VA that held it before: the last message as always, and the transcript so far,
    // oldest first, without the announcements (the pick notice and the note are not for the bot).
    const handBack = bodies[3];
    assert.deepEqual(
      handBack.payload.messages.map((m: { message: { text: string } }) => m.message.text),
      ['Hello, I am a person.'],
    );
    assert.deepEqual(
      handBack.payload.transcript.map((m: { message: { type: string; text: string } }) => [m.message.type, m.message.text]),
      [
        ['inbound', 'agent please'],
        ['outbound', 'One moment.'],
        ['outbound', 'Hello, I am a person.'],
      ],
    );
    // The first chat.assigned, to a VA that never held the chat, has no transcript.
    assert.equal(bodies[0].payload.transcript, undefined);
    const transcript = await botApi('GET', `/chats/${cid}/messages`, { token: t.token });
    assert.ok(
      transcript.body.response.messages.some((m: { text?: string }) => m.text === 'Hello, I am a person.'),
      'the VA reads the transcript so far',
    );
  });

  it('transfers to a team (queued there, reason transfer) and closes; both need the chat held', async () => {
    const a = await newChat(t, { team_id: t.humanTeam.id });
    assert.equal((await one.post(`/chats/${a.chat_id}/close`, {})).body.status_code, 2086);
    await one.post(`/chats/${a.chat_id}/pick`);
    const moved = await one.post(`/chats/${a.chat_id}/transfer`, { team_id: t.botTeam.id, skill_name: 'billing' });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const [row] = await ctx.db.select().from(chats).where(eq(chats.id, a.chat_id));
    assert.deepEqual([row.teamId, row.skill, row.assigneeId, row.queueReason], [t.botTeam.id, 'billing', null, 'transfer']);
    const gone = await one.post(`/chats/${a.chat_id}/transfer`, { team_id: t.humanTeam.id });
    assert.equal(gone.body.status_code, 2085, 'no longer in my teams');

    const b = await newChat(t, { team_id: t.humanTeam.id });
    await one.post(`/chats/${b.chat_id}/pick`);
    assert.equal((await one.post(`/chats/${b.chat_id}/transfer`, {})).body.status_code, 2000);
    assert.equal((await one.post(`/chats/${b.chat_id}/transfer`, { team_id: 999999 })).body.status_code, 2010);
    const closed = await one.post(`/chats/${b.chat_id}/close`, { outcome: 'resolved' });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    const [c] = await ctx.db.select().from(chats).where(eq(chats.id, b.chat_id));
    assert.deepEqual([c.status, c.outcome], ['closed', 'resolved']);
    assert.equal((await one.post(`/chats/${b.chat_id}/pick`)).body.status_code, 2040);
  });

  it('availability decides where auto-assign sends chats', async () => {
    await ctx.db.update(users).set({ availability: 'unavailable' }).where(eq(users.id, t.agent.id));
    await admin.patch(`/teams/${t.humanTeam.id}`, { auto_assign: true });
    const waiting = await newChat(t, { team_id: t.humanTeam.id });
    assert.equal((await one.get('/chats')).body.response.queue.length, 1, 'nobody available: it waits');
    const now = await one.put('/availability', { availability: 'available' });
    assert.equal(now.status, 200, JSON.stringify(now.body));
    assert.equal(now.body.response.availability, 'available');
    const mine = (await one.get('/chats')).body.response.mine;
    assert.deepEqual(
      mine.map((m: { chat_id: string }) => m.chat_id),
      [waiting.chat_id],
      'becoming available took the waiting chat',
    );
    await one.put('/availability', { availability: 'unavailable' });
    const next = await newChat(t, { team_id: t.humanTeam.id });
    const [row] = await ctx.db.select({ assigneeId: chats.assigneeId }).from(chats).where(eq(chats.id, next.chat_id));
    assert.equal(row.assigneeId, null, 'away: auto-assign sends nothing');
  });

  it("streams the queue and the open chat's changes live (Server-Sent Events on the realtime topics)", async () => {
    const existing = await newChat(t, { team_id: t.humanTeam.id });
    await one.post(`/chats/${existing.chat_id}/pick`);
    const res = await one.stream(`/stream?chat=${existing.chat_id}`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    const sse = res.sse;
    assert.ok(sse);
    try {
      const [whole, first] = await sse.events(2);
      assert.equal(first.event, 'lists');
      assert.deepEqual([whole.event, whole.json.chat.chat_id], ['chat', existing.chat_id], 'the open chat, whole, once');
      const arriving = await newChat(t, { team_id: t.humanTeam.id });
      await sse.until((f) => f.event === 'lists' && f.data.includes(arriving.chat_id), { what: 'the new chat in a lists event' });
      await botApi('POST', `/chats/${existing.chat_id}/messages`, { token: t.token, body: { type: 'inbound', text: 'hi' } });
      const said = await sse.until((f) => f.event === 'message' && f.json?.text === 'hi', { what: 'the message itself' });
      assert.equal(said.json.type, 'inbound');
    } finally {
      await sse.close();
    }
    // A resume cursor no stream sent (past the chat's newest message) is refused, not followed in silence.
    const [newest] = await ctx.db
      .select({ id: messages.id })
      .from(messages)
      .where(eq(messages.chatId, existing.chat_id))
      .orderBy(desc(messages.id))
      .limit(1);
    const resumed = await one.stream(`/stream?chat=${existing.chat_id}`, { lastEventId: String(newest.id) });
    assert.equal(resumed.status, 200, 'the newest message itself is a cursor the stream sent');
    await resumed.sse?.close();
    const past = await one.stream(`/stream?chat=${existing.chat_id}`, { lastEventId: String(newest.id + 1) });
    assert.equal(past.status, 409);
    assert.equal(past.refusal.status_code, 2087);
    const otherTeam = await newChat(t);
    const refused = await one.stream(`/stream?chat=${otherTeam.chat_id}`);
    assert.equal(refused.status, 404);
    assert.equal(refused.refusal.status_code, 2085);
  });
});
