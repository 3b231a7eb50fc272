import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { widgetApiHandler } from '@/app/api/widget/_routers';
import { teams } from '@/db/schema';
import { rowsOf } from '@/platform/util/rows-of';
import { botApi, widgetApi } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { newVisitor, openWidgetStream } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';

const ctx = setupTestDatabase();

describe('chat widget live stream (SSE)', () => {
  let t: Tenant;
  before(async () => {
    t = await createTenant(ctx.db);
    await ctx.db.update(teams).set({ autoAssign: true }).where(eq(teams.id, t.botTeam.id));
    await ctx.db.execute(`update accounts set default_team_id = ${t.botTeam.id} where id = ${t.account.id}`);
  });

  it('sends the state and each message once, live, and resumes after the last id with nothing lost or repeated', async () => {
    const v = await newVisitor(t.assets.livechat.id);
    const chatId = (await widgetApi('POST', '/chats', { token: v.token, body: { text: 'first' } })).body.response.chat_id;
    const say = async (text: string) => {
      const res = await botApi('POST', `/chats/${chatId}/messages`, { token: t.token, body: { type: 'outbound', text } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    };

    const s1 = await openWidgetStream(chatId, v.token, { after: 0 });
    assert.equal(s1.res.status, 200);
    assert.match(s1.res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const [state, first] = await s1.next(2);
    assert.deepEqual([state.event, state.json.handled_by, state.json.status], ['chat', 'bot', 'open']);
    assert.deepEqual([first.event, first.json.from, first.json.text, first.id], ['message', 'customer', 'first', String(first.json.id)]);

    // Live: written after the stream opened, it arrives without asking; an announcement never does.
    await botApi('POST', `/chats/${chatId}/messages`, { token: t.token, body: { type: 'announcement', text: 'internal note' } });
    await say('live one');
    const [live] = await s1.next(1);
    assert.equal(live.json.text, 'live one');
    await s1.close();

    // Disconnected: two more are written. The reconnect resumes after the last id it saw.
    await say('while away 1');
    await say('while away 2');
    const s2 = await openWidgetStream(chatId, v.token, { lastEventId: live.id });
    const [again, m1, m2] = await s2.next(3);
    assert.equal(again.event, 'chat');
    assert.deepEqual(
      [m1, m2].map((m) => m.json.text),
      ['while away 1', 'while away 2'],
    );
    // The state changes live too: a person takes over, then the chat is closed.
    await botApi('PATCH', `/chats/${chatId}`, {
      token: t.token,
      headers: { team_id: String(t.botTeam.id) },
      body: { assignee: t.agent.loginId },
    });
    const [person] = await s2.next(1);
    assert.deepEqual([person.event, person.json.handled_by], ['chat', 'person']);
    await s2.close();
  });

  it('sends a keep-alive comment on a quiet stream, with no event', async () => {
    const v = await newVisitor(t.assets.livechat.id);
    const chatId = (await widgetApi('POST', '/chats', { token: v.token, body: { text: 'quiet' } })).body.response.chat_id;
    const s = await openWidgetStream(chatId, v.token, { after: 0 });
    await s.next(2);
    const before = s.frames.length;
    // Bounded well past the interval (25 s): it came by the stream's own timer, nothing else was written.
    for (const deadline = Date.now() + 60_000; !s.frames.slice(before).some((f) => f.comment === 'keep-alive'); ) {
      assert.ok(Date.now() < deadline, 'no keep-alive comment within 60 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.deepEqual(
      s.frames.slice(before).filter((f) => f.data !== undefined),
      [],
      'only comments on a quiet chat',
    );
    await s.close();
  });

  it('refuses another customer, a bad cursor and a missing credential in the envelope', async () => {
    const v = await newVisitor(t.assets.livechat.id);
    const chatId = (await widgetApi('POST', '/chats', { token: v.token, body: { text: 'mine' } })).body.response.chat_id;
    const other = await newVisitor(t.assets.livechat.id);
    const call = (headers: Record<string, string>, query = '') =>
      widgetApiHandler(new NextRequest(`http://localhost/api/widget/chats/${chatId}/stream${query}`, { headers }));
    const stranger = await call({ authorization: `Bearer ${other.token}` });
    assert.equal(stranger.status, 404);
    assert.equal((await stranger.json()).status_code, 2031);
    const none = await call({});
    assert.equal(none.status, 401);
    assert.equal((await none.json()).status_code, 2070);
    const bad = await call({ authorization: `Bearer ${v.token}` }, '?after=abc');
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).status_code, 2001);
    const past = await call({ authorization: `Bearer ${v.token}`, 'last-event-id': '999999999999' });
    assert.equal(past.status, 409, 'a cursor past the newest message was never sent');
    assert.equal((await past.json()).status_code, 2087);
    const pastQuery = await call({ authorization: `Bearer ${v.token}` }, '?after=999999999999');
    assert.equal((await pastQuery.json()).status_code, 2087);
    // The bounds: the newest message's id resumes; one past it is refused, with the newest named.
    const [{ id: newest }] = rowsOf<{ id: number }>(
      await ctx.db.execute(`select max(id)::int as id from messages where chat_id = '${chatId}'`),
    );
    const atNewest = await openWidgetStream(chatId, v.token, { after: newest });
    assert.equal(atNewest.res.status, 200);
    await atNewest.close();
    const onePast = await call({ authorization: `Bearer ${v.token}` }, `?after=${newest + 1}`);
    assert.equal(onePast.status, 409);
    const refusal = await onePast.json();
    assert.equal(refusal.status_code, 2087);
    assert.match(refusal.description, new RegExp(`\\(${newest}\\)`));
    // Not their chat comes first, whatever the cursor.
    const strangerPast = await call({ authorization: `Bearer ${other.token}` }, `?after=${newest + 1}`);
    assert.equal((await strangerPast.json()).status_code, 2031);
  });
});
