import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { events, messages } from '@/db/schema';
import { dutiesInProcess } from '@/lib/duties/duties';
import { startDuties, stopDuties } from '@/lib/duties/start-duties';
import { CUSTOMER_TYPING_TTL_MS } from '@/lib/turns/turn-rules';
import { updateVirtualAgent } from '@/lib/virtual-agents/update-virtual-agent';
import { createBotChat, deliverDue, eventsOfChat, ownReceivers, until } from '../delivery/helpers';
import { botApi, widgetApi } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { newVisitor, signedInAdminOf } from '../support/people';
import type { Tenant } from '../support/tenant';

const ctx = setupTestDatabase();

const settings = (t: Tenant, patch: Parameters<typeof updateVirtualAgent>[1]['patch']) =>
  updateVirtualAgent(ctx.db, { accountId: t.account.id, id: t.bot.user.id, patch });
const inbound = async (t: Tenant, chat: string, text: string) => {
  const r = await botApi('POST', `/chats/${chat}/messages`, { token: t.token, body: { type: 'inbound', text } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.response;
};
const received = async (chat: string) => (await eventsOfChat(ctx.db, chat)).filter((e) => e.eventType === 'message.received');
const texts = (e: { body: Record<string, unknown> }) =>
  ((e.body.payload as { messages: { text: string }[] }).messages ?? []).map((m) => m.text);

/** A livechat chat a widget customer started with the bot (the test's VA takes livechat chats of its team). */
async function widgetChat(t: Tenant) {
  const visitor = await newVisitor(t.assets.livechat.id);
  const started = await widgetApi('POST', '/chats', { token: visitor.token, body: { name: 'Kim' } });
  assert.equal(started.status, 201, JSON.stringify(started.body));
  const chat = started.body.response.chat_id as string;
  const r = await botApi('PATCH', `/chats/${chat}`, {
    token: t.token,
    headers: { team_id: String(started.body.response.team_id ?? t.botTeam.id) },
    body: { assignee: t.bot.user.loginId },
  });
  return { chat, visitor, assigned: r.status };
}

describe('turns: a burst is one message.received, and a stale reply is stopped', () => {
  const receivers = ownReceivers(ctx);
  // The duties every instance runs whatever its engine: the turn closer.
  before(() => startDuties(ctx.db, { duties: dutiesInProcess('off') }));
  after(() => stopDuties());

  it('with the window off (the default) every message is sent at once, as its own turn', async () => {
    const { t } = await receivers.tenant();
    const chat = await createBotChat(t);
    const m = await inbound(t, chat, 'hello');
    const [e] = await received(chat);
    assert.equal(e.heldUntil, null);
    assert.equal(e.turnId, (e.body.payload as { turn_id: string }).turn_id);
    assert.equal(m.turn_id, e.turnId, 'the stored message names its turn');
    assert.deepEqual(texts(e), ['hello']);
  });

  it('gathers a burst into one held event, released when the window closes, fragments in order, delivered once', async () => {
    const { t, receiver } = await receivers.tenant();
    await settings(t, { turn_window_ms: 1500 });
    const chat = await createBotChat(t);
    for (const text of ['hi', 'my order', 'it never came']) await inbound(t, chat, text);
    const [held] = await received(chat);
    assert.equal((await received(chat)).length, 1, 'one event for the burst');
    assert.deepEqual(texts(held), ['hi', 'my order', 'it never came']);
    assert.ok(held.heldUntil, 'held while the window is open');
    await deliverDue(ctx.db);
    assert.ok(
      !receiver.requests.some((r) => r.body?.chat_id === chat && r.body.event_type === 'message.received'),
      'nothing of the turn is sent while the window is open',
    );
    const released = await until('the turn to be released', async () => {
      const [e] = await received(chat);
      return e.heldUntil === null ? e : null;
    });
    assert.equal(released.turnClosedBy, 'window');
    assert.ok((released.heldMs ?? 0) > 0);
    await until('the turn to be delivered', async () => {
      await deliverDue(ctx.db);
      return receiver.requests.some((r) => r.body?.chat_id === chat && r.body.event_type === 'message.received');
    });
    const posted = receiver.requests.filter((r) => r.body?.chat_id === chat && r.body.event_type === 'message.received');
    assert.equal(posted.length, 1);
    assert.deepEqual(
      posted[0].body.payload.messages.map((m: { text: string }) => m.text),
      ['hi', 'my order', 'it never came'],
    );
    assert.equal(posted[0].body.payload.turn_id, released.turnId);
    const turnIds = new Set(
      (await ctx.db.select({ turnId: messages.turnId }).from(messages).where(eq(messages.chatId, chat))).map((m) => m.turnId),
    );
    assert.deepEqual([...turnIds].filter(Boolean), [released.turnId], 'every fragment is of the one turn');
    const admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
    const detail = await admin.get(`/chats/${chat}`);
    assert.equal(detail.status, 200, JSON.stringify(detail.body));
    const logged = detail.body.response.events.find((e: { event_type: string }) => e.event_type === 'message.received');
    assert.equal(logged.turn.turn_id, released.turnId);
    assert.equal(logged.turn.closed_by, 'window');
    assert.ok(logged.turn.held_ms > 0, 'the delivery log says how long the event was held');
  });

  it('keeps a held turn out of the pull order until it closes, then gives it once', async () => {
    const { t } = await receivers.tenant();
    await settings(t, { turn_window_ms: 1000, delivery_mode: 'pull' });
    const chat = await createBotChat(t);
    const read = async () => (await botApi('GET', '/events?limit=100', { token: t.token })).body.response.events as { body: string }[];
    const turnsIn = (items: { body: string }[]) =>
      items.map((i) => JSON.parse(i.body)).filter((b) => b.event_type === 'message.received' && b.chat_id === chat);
    await inbound(t, chat, 'one');
    await inbound(t, chat, 'two');
    assert.equal(turnsIn(await read()).length, 0, 'a held turn is not read');
    const got = await until('the pulled turn', async () => {
      const items = await read();
      return turnsIn(items).length ? items : null;
    });
    const turns = turnsIn(got);
    assert.equal(turns.length, 1);
    assert.deepEqual(
      turns[0].payload.messages.map((m: { text: string }) => m.text),
      ['one', 'two'],
    );
  });

  it('a widget customer who is not typing: the turn closes after the short grace; typing holds it, stopping closes it', async () => {
    const { t } = await receivers.tenant();
    await settings(t, { turn_window_ms: 5000 });
    const { chat, visitor, assigned } = await widgetChat(t);
    assert.equal(assigned, 200, 'the bot holds the widget chat');
    const send = (text: string, typing?: boolean) =>
      widgetApi('POST', `/chats/${chat}/messages`, { token: visitor.token, body: { text, ...(typing === undefined ? {} : { typing }) } });
    assert.equal((await send('just one')).status, 201);
    const first = await until('the lone message to close', async () => {
      const [e] = await received(chat);
      return e?.heldUntil === null ? e : null;
    });
    assert.equal(first.turnClosedBy, 'typing');

    assert.equal((await send('hi', true)).status, 201);
    const typingOn = await widgetApi('POST', `/chats/${chat}/typing`, { token: visitor.token, body: { typing: true } });
    assert.equal(typingOn.status, 200, JSON.stringify(typingOn.body));
    assert.equal((await send('where is my parcel', true)).status, 201);
    const open = (await received(chat)).at(-1);
    assert.ok(open?.heldUntil, 'held while the customer types');
    assert.deepEqual(texts(open), ['hi', 'where is my parcel']);
    await widgetApi('POST', `/chats/${chat}/typing`, { token: visitor.token, body: { typing: false } });
    const closed = await until('the burst to close when typing stops', async () => {
      const e = (await received(chat)).at(-1);
      return e?.heldUntil === null ? e : null;
    });
    assert.equal(closed.turnClosedBy, 'typing');
    const bad = await widgetApi('POST', `/chats/${chat}/typing`, { token: visitor.token, body: { typing: 'yes' } });
    assert.equal(bad.status, 400);

    // With supersede, the reply streaming when the customer writes again is withdrawn from their view.
    await settings(t, { on_new_turn: 'supersede' });
    const partial = await botApi('POST', `/chats/${chat}/messages`, {
      token: t.token,
      body: { type: 'outbound', stream: true, text: 'Partial answer' },
    });
    assert.equal(partial.status, 201, JSON.stringify(partial.body));
    assert.equal((await send('one more thing')).status, 201);
    const page = await widgetApi('GET', `/chats/${chat}/messages`, { token: visitor.token });
    const shown = page.body.response.messages as { text?: string; withdrawn?: boolean }[];
    assert.equal(shown.filter((m) => m.withdrawn).length, 1, 'the superseded reply is shown withdrawn');
    assert.ok(!shown.some((m) => m.text === 'Partial answer'), 'its partial text does not reach the customer');
  });

  it('a customer still typing holds the turn past a short window, as long as their typing signal lives', async () => {
    const { t } = await receivers.tenant();
    await settings(t, { turn_window_ms: 300 });
    const { chat, visitor } = await widgetChat(t);
    const before = Date.now();
    const sent = await widgetApi('POST', `/chats/${chat}/messages`, { token: visitor.token, body: { text: 'hi', typing: true } });
    assert.equal(sent.status, 201);
    const [held] = await received(chat);
    assert.ok(held?.heldUntil, 'held while the customer types');
    // The widget refreshes typing every 3 s: a 300 ms window alone would close under a customer still typing.
    assert.ok(new Date(held.heldUntil).getTime() >= before + CUSTOMER_TYPING_TTL_MS, `held until ${held.heldUntil}`);
    await widgetApi('POST', `/chats/${chat}/typing`, { token: visitor.token, body: { typing: false } });
    const closed = await until('the turn to close when typing stops', async () => {
      const e = (await received(chat)).at(-1);
      return e?.heldUntil === null ? e : null;
    });
    assert.equal(closed.turnClosedBy, 'typing');
  });

  it('supersede: a new turn withdraws the stream in progress, refuses its chunks (2101) and replies to the old turn (2100)', async () => {
    const { t } = await receivers.tenant();
    await settings(t, { on_new_turn: 'supersede' });
    const chat = await createBotChat(t);
    await inbound(t, chat, 'first question');
    const [a] = await received(chat);
    const stream = await botApi('POST', `/chats/${chat}/messages`, {
      token: t.token,
      body: { type: 'outbound', stream: true, text: 'Let me', in_reply_to_turn: a.turnId },
    });
    assert.equal(stream.status, 201, JSON.stringify(stream.body));
    const transid = stream.body.response.transid;
    await inbound(t, chat, 'actually, another thing');
    const b = (await received(chat)).at(-1);
    assert.ok(b);
    assert.notEqual(b.turnId, a.turnId);
    assert.equal(
      (b.body.payload as { supersedes_turn?: string }).supersedes_turn,
      a.turnId,
      'the next event says which turn it supersedes',
    );
    const chunk = await botApi('POST', `/chats/${chat}/messages/${transid}/chunks`, { token: t.token, body: { seq: 1, text: ' check' } });
    assert.equal(chunk.status, 409);
    assert.equal(chunk.body.status_code, 2101);
    const late = await botApi('POST', `/chats/${chat}/messages`, {
      token: t.token,
      body: { type: 'outbound', text: 'Answer to the first', in_reply_to_turn: a.turnId },
    });
    assert.equal(late.status, 409);
    assert.equal(late.body.status_code, 2100);
    const fresh = await botApi('POST', `/chats/${chat}/messages`, {
      token: t.token,
      body: { type: 'outbound', text: 'Answer to the latest', in_reply_to_turn: b.turnId },
    });
    assert.equal(fresh.status, 201);
    assert.equal(fresh.body.response.stale, false);
    const [row] = await ctx.db.select({ state: messages.streamState }).from(messages).where(eq(messages.transid, transid));
    assert.equal(row.state, 'superseded');
  });

  it('continue: a reply to an earlier turn is accepted and marked stale; the stream goes on', async () => {
    const { t } = await receivers.tenant();
    const chat = await createBotChat(t);
    await inbound(t, chat, 'one');
    const [a] = await received(chat);
    await inbound(t, chat, 'two');
    const late = await botApi('POST', `/chats/${chat}/messages`, {
      token: t.token,
      body: { type: 'outbound', text: 'About one', in_reply_to_turn: a.turnId },
    });
    assert.equal(late.status, 201, JSON.stringify(late.body));
    assert.equal(late.body.response.stale, true);
    assert.equal(late.body.response.in_reply_to_turn, a.turnId);
    const wrong = await botApi('POST', `/chats/${chat}/messages`, {
      token: t.token,
      body: { type: 'inbound', text: 'x', in_reply_to_turn: a.turnId },
    });
    assert.equal(wrong.status, 400);
  });

  it('a person taking over supersedes the held turn and the stream in progress', async () => {
    const { t } = await receivers.tenant();
    await settings(t, { turn_window_ms: 10_000 });
    const chat = await createBotChat(t);
    const stream = await botApi('POST', `/chats/${chat}/messages`, {
      token: t.token,
      body: { type: 'outbound', stream: true, text: 'Work' },
    });
    assert.equal(stream.status, 201);
    await inbound(t, chat, 'are you there');
    const r = await botApi('PATCH', `/chats/${chat}`, {
      token: t.token,
      headers: { team_id: String(t.botTeam.id) },
      body: { assignee: t.agent.loginId },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const turn = (await received(chat)).at(-1);
    assert.equal(turn?.status, 'superseded');
    assert.equal(turn?.heldUntil, null);
    const [row] = await ctx.db
      .select({ state: messages.streamState })
      .from(messages)
      .where(eq(messages.transid, stream.body.response.transid));
    assert.equal(row.state, 'superseded');
    // The bot's next chunk is refused: the chat is no longer its own (2043, as after any handover).
    const chunk = await botApi('POST', `/chats/${chat}/messages/${stream.body.response.transid}/chunks`, {
      token: t.token,
      body: { seq: 1, text: ' more' },
    });
    assert.equal(chunk.body.status_code, 2043, JSON.stringify(chunk.body));
    const all = await ctx.db.select().from(events).where(eq(events.chatId, chat));
    assert.ok(
      all.every((e) => e.streamXid < 9_000_000_000_000_000),
      'nothing is left out of the pull order',
    );
    // While the person holds it, a customer's message starts no turn and writes no event.
    const later = await inbound(t, chat, 'hello, person');
    assert.equal(later.turn_id, undefined, JSON.stringify(later));
    const [stored] = await ctx.db.select({ turnId: messages.turnId }).from(messages).where(eq(messages.transid, later.transid));
    assert.equal(stored.turnId, null);
    assert.equal(
      (await ctx.db.select().from(events).where(eq(events.chatId, chat))).length,
      all.length,
      'no event for the person-held chat',
    );
  });

  it('admin API: the settings are read back, and a bad window or a cap below it is refused naming the field', async () => {
    const { t } = await receivers.tenant();
    const admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
    const ok = await admin.patch(`/virtual-agents/${t.bot.user.id}`, {
      turn_window_ms: 1200,
      turn_window_max_ms: 6000,
      on_new_turn: 'supersede',
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.response.turn_window_ms, 1200);
    assert.equal(ok.body.response.turn_window_max_ms, 6000);
    assert.equal(ok.body.response.on_new_turn, 'supersede');
    for (const [body, field] of [
      [{ turn_window_ms: 200 }, 'turn_window_ms'],
      [{ turn_window_ms: 20_000 }, 'turn_window_ms'],
      [{ turn_window_ms: 3000, turn_window_max_ms: 1000 }, 'turn_window_max_ms'],
      [{ on_new_turn: 'interrupt' }, 'on_new_turn'],
    ] as const) {
      const bad = await admin.patch(`/virtual-agents/${t.bot.user.id}`, body);
      assert.equal(bad.status, 400, JSON.stringify(body));
      assert.match(bad.body.description, new RegExp(field));
    }
  });
});
