import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { messages, teams } from '@/db/schema';
import { closeIdleStreams } from '@/lib/chats/cut-streams';
import { duties } from '@/lib/duties/duties';
import { startDuties, stopDuties } from '@/lib/duties/start-duties';
import { widgetStreamReads } from '@/lib/widget/stream-widget-chat';
import { ApiClient, botApi, widgetApi } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { newVisitor, openWidgetStream } from '../support/people';
import type { SseEvent } from '../support/sse';
import { createTenant, type Tenant } from '../support/tenant';

const ctx = setupTestDatabase();

/**
 * What a livechat customer sees of an LLM bot's reply, through the real widget stream route and
 * the real bot API: typing with its status line, a streamed reply chunk by chunk, then whole.
 */
describe('chat widget live stream: typing and streamed replies', () => {
  let t: Tenant;
  before(async () => {
    t = await createTenant(ctx.db);
    await ctx.db.update(teams).set({ autoAssign: true }).where(eq(teams.id, t.botTeam.id));
    await ctx.db.execute(`update accounts set default_team_id = ${t.botTeam.id} where id = ${t.account.id}`);
  });

  /** A customer's chat, held by the tenant's VA (auto-assigned), and its live stream after the first message. */
  async function customerChat(first = 'hello') {
    const v = await newVisitor(t.assets.livechat.id);
    const started = await widgetApi('POST', '/chats', { token: v.token, body: { text: first } });
    assert.equal(started.status, 201, JSON.stringify(started.body));
    const chatId = started.body.response.chat_id as string;
    const s = await openWidgetStream(chatId, v.token, { after: 0 });
    const [state, hello] = await s.next(2);
    assert.deepEqual([state.event, state.json.handled_by, hello.json.text], ['chat', 'bot', first]);
    return { v, chatId, s };
  }
  const say = async (chatId: string, text: string) => {
    const res = await botApi('POST', `/chats/${chatId}/messages`, { token: t.token, body: { type: 'outbound', text } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.response;
  };
  const typing = async (chatId: string, body: unknown, token = t.token) => botApi('PUT', `/chats/${chatId}/typing`, { token, body });
  const openReply = async (chatId: string, text?: string) => {
    const res = await botApi('POST', `/chats/${chatId}/messages`, {
      token: t.token,
      body: { type: 'outbound', stream: true, ...(text ? { text } : {}) },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.response.transid as string;
  };
  const chunk = (chatId: string, transid: string, seq: number, text: string, token = t.token) =>
    botApi('POST', `/chats/${chatId}/messages/${transid}/chunks`, { token, body: { seq, text } });

  it('shows typing with its status line, its refresh and its end, and clears it with the next message', async () => {
    const { chatId, s } = await customerChat();
    assert.equal((await typing(chatId, { on: true, ttl_seconds: 20, status_text: 'Looking up your order…' })).status, 200);
    const [on] = await s.next(1);
    assert.equal(on.event, 'typing');
    assert.deepEqual([on.json.on, on.json.status_text], [true, 'Looking up your order…']);
    assert.ok(on.json.seconds_left > 0 && on.json.seconds_left <= 20, JSON.stringify(on.data));
    assert.ok(Date.parse(on.json.expires_at) > Date.now());

    // Off by the VA's call.
    await typing(chatId, { on: false });
    const [off] = await s.next(1);
    assert.deepEqual([off.event, off.json.on, off.json.status_text], ['typing', false, null]);

    // On again, then the reply: the message comes, then typing goes off, nothing else.
    await typing(chatId, { on: true });
    const [again] = await s.next(1);
    assert.deepEqual([again.event, again.json.on, again.json.status_text], ['typing', true, null]);
    await say(chatId, 'Your order left today.');
    const [reply, cleared] = await s.next(2);
    assert.deepEqual([reply.event, reply.json.text], ['message', 'Your order left today.']);
    assert.deepEqual([cleared.event, cleared.json.on], ['typing', false]);
    await say(chatId, 'marker');
    const [marker] = await s.next(1);
    assert.deepEqual([marker.event, marker.json.text], ['message', 'marker']);
    await s.close();
  });

  it('sends the messages added in this process from their wakes, in order and once, without reading', async () => {
    const { v, chatId, s } = await customerChat();
    const readsBefore = widgetStreamReads();
    const texts: string[] = [];
    for (let i = 1; i <= 30; i++) {
      if (i === 10) {
        // A note for agents in between: the customer never sees it, and the next message still follows on.
        const note = await botApi('POST', `/chats/${chatId}/messages`, {
          token: t.token,
          body: { type: 'announcement', text: 'internal' },
        });
        assert.equal(note.status, 201, JSON.stringify(note.body));
      }
      if (i === 20) {
        const mine = await widgetApi('POST', `/chats/${chatId}/messages`, { token: v.token, body: { text: 'from me' } });
        assert.equal(mine.status, 201);
        texts.push('from me');
      }
      await say(chatId, `m${i}`);
      texts.push(`m${i}`);
    }
    const got = await s.next(texts.length);
    assert.deepEqual(
      got.map((e) => [e.event, e.json.text]),
      texts.map((text) => ['message', text]),
    );
    for (const e of got) assert.equal(e.id, String(e.json.id));
    assert.ok(got.every((e, i) => i === 0 || e.json.id > got[i - 1].json.id));
    // Each went out from its wake (a stray wake may read once); without the hint this is 31 reads.
    assert.ok(widgetStreamReads() - readsBefore <= 1, `${widgetStreamReads() - readsBefore} reads for ${texts.length} messages`);
    // A reconnect after the last one has nothing to resend.
    await s.close();
    const again = await openWidgetStream(chatId, v.token, { after: got[got.length - 1].json.id });
    const [state] = await again.next(1);
    assert.equal(state.event, 'chat');
    await say(chatId, 'after the reconnect');
    const [next] = await again.next(1);
    assert.deepEqual([next.event, next.json.text], ['message', 'after the reconnect']);
    await again.close();
  });

  it("sends a bot's whole turn made in this process (typing, the reply's opening, its chunks, its close) from the wakes, without reading", async () => {
    const { v, chatId, s } = await customerChat('is my parcel late?');
    const readsBefore = widgetStreamReads();
    assert.equal((await typing(chatId, { on: true, status_text: 'Checking…' })).status, 200);
    const [on] = await s.next(1);
    assert.deepEqual([on.event, on.json.on, on.json.status_text], ['typing', true, 'Checking…']);
    const transid = await openReply(chatId, 'It');
    const [opening, off] = await s.next(2);
    assert.deepEqual([opening.event, opening.json.seq, opening.json.text], ['chunk', 0, 'It']);
    assert.deepEqual([off.event, off.json.on], ['typing', false], 'the opening turns typing off, as a message does');
    const messageId = opening.json.message_id as number;
    for (const [i, piece] of [' left', ' today', '.'].entries()) assert.equal((await chunk(chatId, transid, i + 1, piece)).status, 200);
    const chunks = await s.next(3);
    assert.deepEqual(
      chunks.map((c) => [c.event, c.json.seq, c.json.text]),
      [
        ['chunk', 1, ' left'],
        ['chunk', 2, ' today'],
        ['chunk', 3, '.'],
      ],
    );
    const closed = await botApi('PATCH', `/chats/${chatId}/messages/${transid}`, { token: t.token, body: { stream_state: 'closed' } });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    const [whole] = await s.next(1);
    assert.deepEqual([whole.event, whole.id, whole.json.text], ['message', String(messageId), 'It left today.']);
    // The customer answers: it follows the closed reply from its wake too.
    assert.equal((await widgetApi('POST', `/chats/${chatId}/messages`, { token: v.token, body: { text: 'thanks!' } })).status, 201);
    const [mine] = await s.next(1);
    assert.deepEqual([mine.event, mine.json.text], ['message', 'thanks!']);
    // Without the changes' details this is a read per wake: six.
    assert.ok(widgetStreamReads() - readsBefore <= 1, `${widgetStreamReads() - readsBefore} reads for a turn`);
    // A reconnect after the last one has nothing to resend.
    await s.close();
    const again = await openWidgetStream(chatId, v.token, { after: mine.json.id });
    const [state] = await again.next(1);
    assert.equal(state.event, 'chat');
    await say(chatId, 'after the reconnect');
    const [next] = await again.next(1);
    assert.deepEqual([next.event, next.json.text], ['message', 'after the reconnect']);
    await again.close();
  });

  it('sends every chunk once and in order, holds what follows the open reply, then sends the reply whole', async () => {
    const { v, chatId, s } = await customerChat('what happened to my order?');
    const transid = await openReply(chatId, 'Let me');
    const [opening] = await s.next(1);
    assert.deepEqual([opening.event, opening.json.seq, opening.json.text], ['chunk', 0, 'Let me']);
    const messageId = opening.json.message_id as number;

    const pieces = Array.from({ length: 40 }, (_, i) => ` w${i + 1}`);
    const readsBefore = widgetStreamReads();
    // Sent back to back (no read in between): the wakes coalesce, the chunks must not.
    for (const [i, piece] of pieces.entries()) {
      const res = await chunk(chatId, transid, i + 1, piece);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      if (i === 9) {
        // A retried chunk changes nothing; a gap is refused: neither reaches the customer.
        assert.equal((await chunk(chatId, transid, 10, piece)).status, 200);
        assert.equal((await chunk(chatId, transid, 13, ' gap')).body.status_code, 2046);
      }
    }
    const chunks = await s.next(pieces.length);
    assert.deepEqual(
      chunks.map((c) => [c.event, c.json.message_id, c.json.seq, c.json.text, c.id]),
      pieces.map((p, i) => ['chunk', messageId, i + 1, p, undefined]),
    );
    // Each chunk went out from its wake, without a read of the database (a stray wake may read once).
    assert.ok(widgetStreamReads() - readsBefore <= 1, `${widgetStreamReads() - readsBefore} reads for ${pieces.length} chunks`);

    // The customer writes while the reply is open: their message waits behind it in the stream.
    const mine = await widgetApi('POST', `/chats/${chatId}/messages`, { token: v.token, body: { text: 'thanks' } });
    assert.equal(mine.status, 201);
    assert.ok(mine.body.response.id > messageId);
    // The page read meanwhile ends before the open reply too.
    const page = await widgetApi('GET', `/chats/${chatId}/messages?after=0`, { token: v.token });
    assert.deepEqual(
      page.body.response.messages.map((m: { text: string }) => m.text),
      ['what happened to my order?'],
    );

    const closed = await botApi('PATCH', `/chats/${chatId}/messages/${transid}`, { token: t.token, body: { stream_state: 'closed' } });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    const [whole, after] = await s.next(2);
    assert.deepEqual(
      [whole.event, whole.id, whole.json.id, whole.json.text],
      ['message', String(messageId), messageId, `Let me${pieces.join('')}`],
    );
    assert.deepEqual([after.event, after.json.text, after.json.from], ['message', 'thanks', 'customer']);
    await say(chatId, 'marker');
    const [marker] = await s.next(1);
    assert.deepEqual([marker.event, marker.json.text], ['message', 'marker']);
    await s.close();
  });

  it('resends an open reply from its start after a reconnect, withdraws a reply superseded by a person taking over, and ends a reply cut by idling', async () => {
    const { v, chatId, s } = await customerChat();
    const transid = await openReply(chatId);
    assert.equal((await chunk(chatId, transid, 1, 'One')).status, 200);
    assert.equal((await chunk(chatId, transid, 2, ' two')).status, 200);
    const [c1, c2] = await s.next(2);
    assert.deepEqual([c1.json.seq, c2.json.seq], [1, 2]);
    await s.close();

    // Reconnect after the last message id: the open reply's chunks come again from seq 1, then live.
    const s2 = await openWidgetStream(chatId, v.token, { lastEventId: String(c1.json.message_id - 1) });
    const [state, r1, r2] = await s2.next(3);
    assert.equal(state.event, 'chat');
    assert.deepEqual(
      [r1, r2].map((c) => [c.event, c.json.seq, c.json.text]),
      [
        ['chunk', 1, 'One'],
        ['chunk', 2, ' two'],
      ],
    );
    assert.equal((await chunk(chatId, transid, 3, ' three')).status, 200);
    const [r3] = await s2.next(1);
    assert.deepEqual([r3.event, r3.json.seq, r3.json.text], ['chunk', 3, ' three']);

    // A person takes over: the bot's reply is superseded (withdrawn, its partial text not shown as an
    // answer), then the customer sees who answers.
    const taken = await botApi('PATCH', `/chats/${chatId}`, {
      token: t.token,
      headers: { team_id: String(t.botTeam.id) },
      body: { assignee: t.agent.loginId },
    });
    assert.equal(taken.status, 200, JSON.stringify(taken.body));
    const events: SseEvent[] = await s2.next(2);
    assert.deepEqual(
      events.map((e) => [e.event, e.json.withdrawn ?? e.json.text ?? e.json.handled_by]),
      [
        ['message', true],
        ['chat', 'person'],
      ],
    );
    // Later chunks are refused: the chat is no longer the VA's.
    assert.equal((await chunk(chatId, transid, 4, ' four')).body.status_code, 2043);
    await s2.close();

    // An idle reply is closed by the sweep, which wakes the stream too.
    const other = await customerChat();
    const idle = await openReply(other.chatId, 'Half');
    const [half] = await other.s.next(1);
    assert.equal(half.json.text, 'Half');
    const cut = await closeIdleStreams(ctx.db, { idleSeconds: 30, now: new Date(Date.now() + 60_000) });
    assert.ok(cut.includes(idle));
    const [ended] = await other.s.next(1);
    assert.deepEqual([ended.event, ended.json.text], ['message', 'Half']);
    await other.s.close();
  });

  it('an idle reply is cut by the duty loop on its own timer (no call by hand), and the customer gets it whole', async () => {
    // Only the sweep, on the embedded loop as a server runs it; started before the reply exists,
    // so what cuts it is a later tick of its timer, not the loop's first run.
    startDuties(ctx.db, { duties: duties.filter((d) => d.id === 'cut-idle-streams') });
    try {
      const { chatId, s } = await customerChat();
      const transid = await openReply(chatId, 'Checking');
      const [opening] = await s.next(1);
      assert.deepEqual([opening.event, opening.json.text], ['chunk', 'Checking']);
      // Its last chunk came longer ago than STREAM_IDLE_SECONDS (30 s).
      await ctx.db.update(messages).set({ streamTouchedAt: sql`now() - interval '40 seconds'` }).where(eq(messages.transid, transid));
      const [ended] = await s.next(1);
      assert.deepEqual([ended.event, ended.json.text], ['message', 'Checking']);
      const [row] = await ctx.db.select({ state: messages.streamState }).from(messages).where(eq(messages.transid, transid));
      assert.equal(row.state, 'cut_short');
      const late = await chunk(chatId, transid, 1, ' more');
      assert.equal(late.body.status_code, 2047);
      await s.close();
    } finally {
      await stopDuties();
    }
  });

  it('refuses the chunks and typing of another VA or account, and the stream to another customer or app', async () => {
    const { v, chatId, s } = await customerChat();
    const transid = await openReply(chatId);
    const stranger = await createTenant(ctx.db);
    const foreignChunk = await chunk(chatId, transid, 1, 'not mine', stranger.token);
    assert.deepEqual([foreignChunk.status, foreignChunk.body.status_code], [404, 2031]);
    const foreignTyping = await typing(chatId, { on: true }, stranger.token);
    assert.deepEqual([foreignTyping.status, foreignTyping.body.status_code], [404, 2031]);

    // Another customer of the same app, and a customer of another account's app, see nothing.
    for (const visitor of [await newVisitor(t.assets.livechat.id), await newVisitor(stranger.assets.livechat.id)]) {
      const refused = await new ApiClient('widget', { token: visitor.token }).stream(`/chats/${chatId}/stream`);
      assert.equal(refused.status, 404);
      assert.equal(refused.refusal.status_code, 2031);
    }
    // Nothing foreign reached the customer: the next event is the VA's own chunk.
    assert.equal((await chunk(chatId, transid, 1, 'mine')).status, 200);
    const [own] = await s.next(1);
    assert.deepEqual([own.event, own.json.seq, own.json.text], ['chunk', 1, 'mine']);
    assert.ok(v.token);
    await s.close();
  });
});
