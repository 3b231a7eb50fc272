import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { assets, chats, customers, events, messages, teams } from '@/db/schema';
import { env } from '@/env';
import { signCredential } from '@/lib/widget/credential';
import { type ApiClient, botApi, widgetApi } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { newVisitor, signedInAdminOf } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';

const ctx = setupTestDatabase();
let address = 0;
/** A client address of its own per test, so the per-address budgets of one test do not touch another's. */
const nextAddress = () => `203.0.113.${++address}`;

describe('chat widget API (customers)', () => {
  let t: Tenant;
  let appId: number;

  before(async () => {
    t = await createTenant(ctx.db);
    appId = t.assets.livechat.id;
    // New chats go to the bot team, whose auto-assign hands them to the VA.
    await ctx.db.update(teams).set({ autoAssign: true }).where(eq(teams.id, t.botTeam.id));
    await ctx.db.execute(`update accounts set default_team_id = ${t.botTeam.id} where id = ${t.account.id}`);
  });

  it('starts a chat that enters routing like any other: the VA holds it and gets chat.assigned with the first message', async () => {
    const ip = nextAddress();
    const app = await widgetApi('GET', `/apps/${appId}`, { address: ip });
    assert.equal(app.status, 200);
    assert.deepEqual(app.body.response, { app_id: appId, name: 'livechat asset', enabled: true });

    const v = await newVisitor(appId, ip);
    assert.match(v.livechatId, /^lc-/);
    const none = await widgetApi('GET', '/chats/current', { token: v.token, address: ip });
    assert.deepEqual(none.body.response, { chat: null });

    const started = await widgetApi('POST', '/chats', { token: v.token, address: ip, body: { name: 'Ada', text: 'Hello there' } });
    assert.equal(started.status, 201, JSON.stringify(started.body));
    assert.equal(started.body.status_code, 4302);
    const chat = started.body.response;
    assert.deepEqual({ status: chat.status, handled_by: chat.handled_by }, { status: 'open', handled_by: 'bot' });

    // What the bot API shows: a livechat customer whose destination_id is the browser's livechat id.
    const seen = await botApi('GET', `/chats/${chat.chat_id}`, { token: t.token });
    assert.equal(seen.status, 200);
    assert.equal(seen.body.response.channel, 'livechat');
    assert.equal(seen.body.response.customer.destination_id, v.livechatId);
    assert.equal(seen.body.response.customer.name, 'Ada');
    assert.equal(seen.body.response.assignee, t.bot.user.loginId);
    const [assigned] = await ctx.db
      .select()
      .from(events)
      .where(and(eq(events.chatId, chat.chat_id), eq(events.eventType, 'chat.assigned')));
    assert.ok(assigned, 'the VA gets chat.assigned');

    // The bot answers with quick replies; an announcement is written beside it.
    const qr = {
      request_identifier: 'req-1',
      options: [
        { title: 'Billing', payload: 'topic:billing' },
        { title: 'Other', payload: 'topic:other' },
      ],
    };
    const out = await botApi('POST', `/chats/${chat.chat_id}/messages`, {
      token: t.token,
      body: { type: 'outbound', livechat_sub_type: 'quick_replies', text: 'What is it about?', quick_replies: qr },
    });
    assert.equal(out.status, 201, JSON.stringify(out.body));
    await botApi('POST', `/chats/${chat.chat_id}/messages`, {
      token: t.token,
      body: { type: 'announcement', text: 'internal: VIP customer' },
    });

    const page = await widgetApi('GET', `/chats/${chat.chat_id}/messages`, { token: v.token, address: ip });
    assert.equal(page.status, 200);
    const list = page.body.response.messages;
    assert.deepEqual(
      list.map((m: { from: string; text?: string }) => [m.from, m.text]),
      [
        ['customer', 'Hello there'],
        ['business', 'What is it about?'],
      ],
      'announcements never reach the customer',
    );
    assert.deepEqual(list[1].quick_replies, { request_identifier: 'req-1', options: [{ title: 'Billing' }, { title: 'Other' }] });
    assert.equal(JSON.stringify(page.body).includes('topic:billing'), false, 'payloads stay internal');
    assert.equal(JSON.stringify(page.body).includes(t.bot.user.loginId), false, 'authors stay internal');

    // Only what the chat offered can be chosen: another offer, or a title it did not hold, is 2065 and stored nowhere.
    for (const [qr, field] of [
      [{ request_identifier: 'req-never', options: [{ title: 'Billing' }] }, 'quick_reply_response.request_identifier'],
      [{ request_identifier: 'req-1', options: [{ title: 'Refund me everything' }] }, 'quick_reply_response.options.0.title'],
      [{ request_identifier: 'req-1', options: [{ title: 'billing' }] }, 'quick_reply_response.options.0.title'],
    ] as const) {
      const refused = await widgetApi('POST', `/chats/${chat.chat_id}/messages`, {
        token: v.token,
        address: ip,
        body: { quick_reply_response: qr },
      });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body.status_code, 2065);
      assert.equal(refused.body.response.errors[0].field, field);
    }
    // The click sends the contract's quick_reply_response; the VA sees the payload chosen.
    const click = await widgetApi('POST', `/chats/${chat.chat_id}/messages`, {
      token: v.token,
      address: ip,
      body: { quick_reply_response: { request_identifier: 'req-1', options: [{ title: 'Billing' }] } },
    });
    assert.equal(click.status, 201, JSON.stringify(click.body));
    const transcript = await botApi('GET', `/chats/${chat.chat_id}/messages`, { token: t.token });
    const answer = transcript.body.response.messages.at(-1);
    assert.equal(answer.type, 'inbound');
    assert.equal(answer.livechat_sub_type, 'quick_reply_response');
    assert.deepEqual(answer.quick_reply_response, {
      request_identifier: 'req-1',
      options: [{ title: 'Billing', payload: 'topic:billing' }],
    });
    const received = await ctx.db
      .select()
      .from(events)
      .where(and(eq(events.chatId, chat.chat_id), eq(events.eventType, 'message.received')));
    assert.equal(received.length, 1);

    // Resume from a cursor: only what came after it.
    const after = await widgetApi('GET', `/chats/${chat.chat_id}/messages?after=${list[1].id}`, { token: v.token, address: ip });
    assert.equal(after.body.response.messages.length, 1);
    assert.equal(after.body.response.messages[0].from, 'customer');

    // A reload finds the same chat.
    const current = await widgetApi('GET', '/chats/current', { token: v.token, address: ip });
    assert.equal(current.body.response.chat.chat_id, chat.chat_id);

    // A person takes over: the customer is told a person, by the name people show customers (the
    // one they chose, else the first word of their name), never their login.
    const handover = await botApi('PATCH', `/chats/${chat.chat_id}`, {
      token: t.token,
      headers: { team_id: String(t.botTeam.id) },
      body: { assignee: t.agent.loginId },
    });
    assert.equal(handover.status, 200, JSON.stringify(handover.body));
    const state = await widgetApi('GET', `/chats/${chat.chat_id}`, { token: v.token, address: ip });
    assert.deepEqual(state.body.response, {
      chat_id: chat.chat_id,
      status: 'open',
      handled_by: 'person',
      responder: { kind: 'person', name: t.agent.name.split(' ')[0] },
      queue_position: null,
      approval_pending: false,
    });
    assert.ok(!JSON.stringify(state.body).includes(t.agent.loginId));
  });

  it('keeps each customer to their own chats: another customer, another app or a forged credential reads nothing', async () => {
    const ip = nextAddress();
    const first = await newVisitor(appId, ip);
    const chat = (await widgetApi('POST', '/chats', { token: first.token, address: ip, body: { text: 'my secret order 123' } })).body
      .response;
    const second = await newVisitor(appId, ip);
    for (const path of [`/chats/${chat.chat_id}`, `/chats/${chat.chat_id}/messages`]) {
      const res = await widgetApi('GET', path, { token: second.token, address: ip });
      assert.equal(res.status, 404, path);
      assert.equal(res.body.status_code, 2031);
      assert.equal(JSON.stringify(res.body).includes('secret'), false);
    }
    const write = await widgetApi('POST', `/chats/${chat.chat_id}/messages`, { token: second.token, address: ip, body: { text: 'hi' } });
    assert.equal(write.body.status_code, 2031);
    assert.equal((await widgetApi('GET', '/chats/current', { token: second.token, address: ip })).body.response.chat, null);

    // Another account's livechat app: its credential does not reach this chat either.
    const other = await createTenant(ctx.db);
    const stranger = await newVisitor(other.assets.livechat.id, ip);
    assert.equal((await widgetApi('GET', `/chats/${chat.chat_id}`, { token: stranger.token, address: ip })).body.status_code, 2031);

    // A credential re-signed for the first customer without the app's key is refused.
    const [, , sig] = second.token.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ a: appId, v: first.livechatId, e: 4102444800 })).toString('base64url');
    for (const token of [`wv1.${forgedPayload}.${sig}`, 'wv1.x.y', 'garbage', `${first.token}x`]) {
      const res = await widgetApi('GET', `/chats/${chat.chat_id}`, { token, address: ip });
      assert.equal(res.status, 401, token);
      assert.equal(res.body.status_code, 2070);
    }
    const missing = await widgetApi('GET', '/chats/current', { address: ip });
    assert.equal(missing.body.status_code, 2070);
  });

  it("refuses an expired credential with 2070 on every route, the stream included, while the same customer's current one works", async () => {
    const ip = nextAddress();
    const v = await newVisitor(appId, ip);
    const chat = (await widgetApi('POST', '/chats', { token: v.token, address: ip, body: { text: 'before it expired' } })).body.response;
    // Signed with the app's real key, so only the expiry is wrong: one second ago.
    const [{ widgetKey }] = await ctx.db.select({ widgetKey: assets.widgetKey }).from(assets).where(eq(assets.id, appId));
    const sign = (expiresAt: Date) => signCredential(widgetKey, { assetId: appId, livechatId: v.livechatId, expiresAt });
    const expired = sign(new Date(Date.now() - 1_000));
    for (const [method, path, body] of [
      ['GET', '/chats/current', undefined],
      ['GET', `/chats/${chat.chat_id}`, undefined],
      ['GET', `/chats/${chat.chat_id}/messages`, undefined],
      ['POST', `/chats/${chat.chat_id}/messages`, { text: 'still me?' }],
      ['POST', `/chats/${chat.chat_id}/typing`, { typing: true }],
      ['GET', `/chats/${chat.chat_id}/stream`, undefined],
      ['POST', '/chats', { text: 'a new one' }],
    ] as const) {
      const res = await widgetApi(method, path, { token: expired, body, address: ip });
      assert.equal(res.status, 401, `${method} ${path}`);
      assert.equal(res.body.status_code, 2070, `${method} ${path}`);
      assert.match(res.body.description, /expired/, `${method} ${path}`);
    }
    // The same customer with an expiry still ahead reaches the chat: the expiry alone refused it.
    const current = await widgetApi('GET', '/chats/current', { token: sign(new Date(Date.now() + 60_000)), address: ip });
    assert.equal(current.status, 200);
    assert.equal(current.body.response.chat.chat_id, chat.chat_id);
  });

  it('never accepts the admin session cookie', async () => {
    const ip = nextAddress();
    const { client } = await signedInAdminOf(ctx.db, t.account.id);
    const visitor = await newVisitor(appId, ip);
    const chat = (await widgetApi('POST', '/chats', { token: visitor.token, address: ip, body: { text: 'hi' } })).body.response;
    const cookie = (client as ApiClient).cookieHeader();
    for (const [method, path, body] of [
      ['GET', '/chats/current', undefined],
      ['GET', `/chats/${chat.chat_id}`, undefined],
      ['GET', `/chats/${chat.chat_id}/messages`, undefined],
      ['POST', `/chats/${chat.chat_id}/messages`, { text: 'as admin' }],
      ['POST', '/chats', { text: 'as admin' }],
    ] as const) {
      const res = await widgetApi(method, path, { headers: { cookie }, body, address: ip });
      assert.equal(res.status, 401, `${method} ${path}`);
      assert.equal(res.body.status_code, 2070);
    }
  });

  it('stores script in names and texts as text, and refuses oversize, empty and mixed input with clear messages', async () => {
    const ip = nextAddress();
    const v = await newVisitor(appId, ip);
    const script = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const started = await widgetApi('POST', '/chats', { token: v.token, address: ip, body: { name: script, text: script } });
    assert.equal(started.status, 201);
    const chatId = started.body.response.chat_id;
    const page = await widgetApi('GET', `/chats/${chatId}/messages`, { token: v.token, address: ip });
    assert.equal(page.body.response.messages[0].text, script, 'kept exactly, as text');
    const [customer] = await ctx.db.select().from(customers).where(eq(customers.destinationId, v.livechatId));
    assert.equal(customer.name, script);

    const cases: [unknown, string][] = [
      [{ text: 'x'.repeat(2001) }, 'text'],
      [{ text: '   ' }, 'text'],
      [{}, 'text'],
      [{ text: 'a', quick_reply_response: { request_identifier: 'r', options: [{ title: 'A' }] } }, 'quick_reply_response'],
      [{ text: 'a', author: 'admin' }, '(body)'],
    ];
    const before = await ctx.db.select().from(messages).where(eq(messages.chatId, chatId));
    for (const [body, field] of cases) {
      const res = await widgetApi('POST', `/chats/${chatId}/messages`, { token: v.token, address: ip, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.status_code, 2000);
      assert.ok(
        res.body.response.errors.some((e: { field: string }) => e.field === field || e.field.startsWith(field)),
        JSON.stringify(res.body),
      );
    }
    const longName = await widgetApi('POST', '/chats', {
      token: (await newVisitor(appId, ip)).token,
      address: ip,
      body: { name: 'n'.repeat(101) },
    });
    assert.equal(longName.body.status_code, 2000);
    const huge = await widgetApi('POST', `/chats/${chatId}/messages`, {
      token: v.token,
      address: ip,
      raw: JSON.stringify({ text: 'x'.repeat(env().MAX_BODY_BYTES) }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(huge.status, 413);
    assert.equal(huge.body.status_code, 2008);
    const after = await ctx.db.select().from(messages).where(eq(messages.chatId, chatId));
    assert.equal(after.length, before.length, 'nothing written');
  });

  it('says so when the app is disabled or unknown; a chat closed takes no more messages', async () => {
    const ip = nextAddress();
    const admin = await signedInAdminOf(ctx.db, t.account.id);
    const v = await newVisitor(appId, ip);
    const chat = (await widgetApi('POST', '/chats', { token: v.token, address: ip, body: { text: 'hi' } })).body.response;
    assert.equal((await admin.client.patch(`/assets/${appId}`, { enabled: false })).status, 200);
    try {
      const app = await widgetApi('GET', `/apps/${appId}`, { address: ip });
      assert.equal(app.body.response.enabled, false);
      const visitor = await widgetApi('POST', `/apps/${appId}/visitors`, { address: ip });
      assert.equal(visitor.status, 409);
      assert.equal(visitor.body.status_code, 2035);
      const other = await newVisitor(appId, ip).catch(() => null);
      assert.equal(other, null);
      // An existing chat carries on; a new one is refused.
      assert.equal(
        (await widgetApi('POST', `/chats/${chat.chat_id}/messages`, { token: v.token, address: ip, body: { text: 'still there?' } }))
          .status,
        201,
      );
      await botApi('PATCH', `/chats/${chat.chat_id}`, {
        token: t.token,
        headers: { team_id: String(t.botTeam.id) },
        body: { status: 'closed' },
      });
      const closed = await widgetApi('GET', `/chats/${chat.chat_id}`, { token: v.token, address: ip });
      assert.equal(closed.body.response.status, 'closed');
      const late = await widgetApi('POST', `/chats/${chat.chat_id}/messages`, { token: v.token, address: ip, body: { text: 'hello?' } });
      assert.equal(late.status, 409);
      assert.equal(late.body.status_code, 2040);
      const again = await widgetApi('POST', '/chats', { token: v.token, address: ip, body: { text: 'new one' } });
      assert.equal(again.status, 409);
      assert.equal(again.body.status_code, 2035);
    } finally {
      await admin.client.patch(`/assets/${appId}`, { enabled: true });
    }
    const fresh = await widgetApi('POST', '/chats', { token: v.token, address: ip, body: { text: 'new one' } });
    assert.equal(fresh.status, 201);
    assert.notEqual(fresh.body.response.chat_id, chat.chat_id, 'a closed chat is followed by a new one');

    for (const id of ['999999', String(t.assets.sms.id)]) {
      const res = await widgetApi('GET', `/apps/${id}`, { address: ip });
      assert.equal(res.status, 404);
      assert.equal(res.body.status_code, 2071);
    }
    assert.equal((await widgetApi('GET', '/apps/0x1', { address: ip })).body.status_code, 2014);
  });

  it('limits floods per customer and per address, with Retry-After', async () => {
    const ip = nextAddress();
    const v = await newVisitor(appId, ip);
    const chatId = (await widgetApi('POST', '/chats', { token: v.token, address: ip, body: { text: 'm0' } })).body.response.chat_id;
    const limit = env().WIDGET_MESSAGES_PER_MINUTE;
    let refused: Awaited<ReturnType<typeof widgetApi>> | null = null;
    for (let i = 1; i <= limit + 1 && !refused; i++) {
      const res = await widgetApi('POST', `/chats/${chatId}/messages`, { token: v.token, address: ip, body: { text: `m${i}` } });
      if (res.status !== 201) refused = res;
    }
    assert.ok(refused, 'refused before the flood ends');
    assert.equal(refused.status, 429);
    assert.equal(refused.body.status_code, 2012);
    assert.match(refused.body.description, /messages per minute from one customer/);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    const stored = await ctx.db.select().from(messages).where(eq(messages.chatId, chatId));
    assert.equal(stored.length, limit, 'the chat start and the messages within the budget');
    // Another customer behind the same address still writes.
    const w = await newVisitor(appId, ip);
    assert.equal((await widgetApi('POST', '/chats', { token: w.token, address: ip, body: { text: 'hi' } })).status, 201);

    // New credentials per address per hour.
    const ip2 = nextAddress();
    const perHour = env().WIDGET_VISITORS_PER_HOUR_PER_ADDRESS;
    let last = 0;
    for (let i = 0; i <= perHour; i++) last = (await widgetApi('POST', `/apps/${appId}/visitors`, { address: ip2 })).status;
    assert.equal(last, 429);

    // Requests per address per minute, whatever the customer.
    const ip3 = nextAddress();
    const perMinute = env().WIDGET_REQUESTS_PER_MINUTE_PER_ADDRESS;
    let status = 0;
    for (let i = 0; i <= perMinute && status !== 429; i++) status = (await widgetApi('GET', `/apps/${appId}`, { address: ip3 })).status;
    assert.equal(status, 429);
    const [chat] = await ctx.db.select({ id: chats.id }).from(chats).where(eq(chats.id, chatId));
    assert.ok(chat);
  });
});
