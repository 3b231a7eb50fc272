import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { events } from '@/db/schema';
import { botApi } from '../support/api-client';
import { newChat, patchChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

describe('chats', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  before(async () => {
    t = await createTenant(ctx.db);
  });

  it('creates a chat with 201/4302 and the spec fields', async () => {
    const res = await botApi('POST', '/chats', {
      token: t.token,
      body: {
        channel: 'email',
        asset_id: t.assets.email.id,
        customer: { destination_id: 'ann@example.test', name: 'Ann' },
        team_id: t.botTeam.id,
        skill: 'billing',
        alias_id: 'crm-1',
        subject: 'Invoice',
        tags: ['vip'],
        other_details: { plan: 'gold' },
        messages: [{ type: 'inbound', text: 'Where is my invoice?' }],
      },
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.status_code, 4302);
    const chat = res.body.response;
    assert.equal(chat.team_id, t.botTeam.id);
    assert.equal(chat.team_name, 'Bots');
    assert.equal(chat.skill, 'billing');
    assert.equal(chat.status, 'queued');
    assert.equal(chat.channel, 'email');
    assert.equal(chat.subject, 'Invoice');
    assert.deepEqual(chat.asset, { id: t.assets.email.id, name: 'email asset', address: null });
    assert.equal(chat.customer.destination_id, 'ann@example.test');
    assert.deepEqual(chat.tag, ['vip']);
    assert.deepEqual(chat.other_details, { plan: 'gold' });
    assert.equal(chat.messages.length, 1);
    assert.equal(chat.messages[0].text, 'Where is my invoice?');
    assert.equal(chat.assignee, null);
  });

  it('assigns at creation to a VA, picks the chat and writes one chat.assigned event', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId, messages: [{ type: 'inbound', text: 'hello' }] });
    assert.equal(chat.assignee, t.bot.user.loginId);
    assert.equal(chat.status, 'picked');
    const rows = await ctx.db.select().from(events).where(eq(events.chatId, chat.chat_id));
    assert.equal(rows.length, 1);
    const body = rows[0].body as any;
    assert.equal(body.event_type, 'chat.assigned');
    assert.equal(body.chat_id, chat.chat_id);
    assert.equal(body.channel, 'sms');
    assert.equal(body.asset, String(t.assets.sms.id));
    assert.equal(body.subject, '');
    assert.equal(body.transaction_id, rows[0].transactionId);
    assert.equal(body.payload.skill, null);
    assert.equal(body.payload.messages[0].text, 'hello');
    assert.equal(body.payload.messages[0].type, 'text');
    assert.equal(body.payload.messages[0].transid, body.transaction_id);
    assert.equal(body.payload.messages[0].message.transid, chat.messages[0].transid);
  });

  it('routes a chat created without team or assignee to the oldest team', async () => {
    const res = await botApi('POST', '/chats', {
      token: t.token,
      body: { channel: 'api', asset_id: t.assets.api.id, customer: { destination_id: 'user-1' } },
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.response.team_id, t.botTeam.id);
  });

  it('refuses references outside the account or on the wrong channel', async () => {
    const base = { channel: 'sms', asset_id: t.assets.sms.id, customer: { destination_id: '+1' } };
    const wrongAsset = await botApi('POST', '/chats', { token: t.token, body: { ...base, asset_id: t.assets.email.id } });
    assert.equal(wrongAsset.body.status_code, 2032);
    const noTeam = await botApi('POST', '/chats', { token: t.token, body: { ...base, team_id: 999999 } });
    assert.equal(noTeam.status, 404);
    assert.equal(noTeam.body.status_code, 2010);
    const noUser = await botApi('POST', '/chats', { token: t.token, body: { ...base, assignee: 'nobody' } });
    assert.equal(noUser.body.status_code, 2033);
    const noSkill = await botApi('POST', '/chats', { token: t.token, body: { ...base, team_id: t.botTeam.id, skill: 'astrology' } });
    assert.equal(noSkill.body.status_code, 2034);
    const subject = await botApi('POST', '/chats', { token: t.token, body: { ...base, subject: 'x' } });
    assert.equal(subject.body.status_code, 2000);
    assert.equal(subject.body.response.errors[0].field, 'subject');
  });

  it('reads a chat with 4304 and answers 2031 for an unknown one', async () => {
    const chat = await newChat(t);
    const res = await botApi('GET', `/chats/${chat.chat_id}`, { token: t.token });
    assert.equal(res.status, 200);
    assert.equal(res.body.status_code, 4304);
    assert.equal(res.body.response.chat_id, chat.chat_id);
    const missing = await botApi('GET', '/chats/00000000-0000-0000-0000-000000000000', { token: t.token });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.status_code, 2031);
  });

  it('updates tags (replacing them), alias, other details; 4304', async () => {
    const chat = await newChat(t, { tags: ['old'], other_details: { a: '1', b: '2' }, assignee: t.bot.user.loginId });
    const res = await patchChat(t, chat.chat_id, { tags: ['new', 'vip', 'new'], alias_id: 'ext-9', other_details: { b: null, c: 3 } });
    assert.equal(res.status, 200);
    assert.equal(res.body.status_code, 4304);
    assert.deepEqual(res.body.response.tag, ['new', 'vip']);
    assert.equal(res.body.response.alias_id, 'ext-9');
    assert.deepEqual(res.body.response.other_details, { a: '1', c: 3 });
    assert.ok(res.body.response.updated_at > chat.updated_at);
  });

  it('other_details holds at most 50 keys: 2000 naming the field on create and on a PATCH that merges past it; nothing written', async () => {
    const pairs = (n: number, prefix = 'k') => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, i]));
    const body = (other_details: Record<string, unknown>) => ({
      channel: 'sms',
      asset_id: t.assets.sms.id,
      customer: { destination_id: '+15550009999', name: 'Ann' },
      team_id: t.botTeam.id,
      other_details,
    });
    const tooMany = await botApi('POST', '/chats', { token: t.token, body: body(pairs(5_000)) });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.status_code, 2000);
    assert.deepEqual(tooMany.body.response.errors, [{ field: 'other_details', message: 'at most 50 keys' }]);
    const fifty = await botApi('POST', '/chats', { token: t.token, body: body(pairs(50)) });
    assert.equal(fifty.status, 201, JSON.stringify(fifty.body));

    const chat = await newChat(t, { other_details: pairs(30), assignee: t.bot.user.loginId });
    const past = await patchChat(t, chat.chat_id, { other_details: pairs(30, 'n') });
    assert.equal(past.status, 400);
    assert.equal(past.body.status_code, 2000);
    assert.equal(past.body.response.errors[0].field, 'other_details');
    assert.match(past.body.response.errors[0].message, /^at most 50 keys once merged with the chat's 30$/);
    const read = await botApi('GET', `/chats/${chat.chat_id}`, { token: t.token });
    assert.deepEqual(read.body.response.other_details, pairs(30));
    // Replacing keys (a null removes one) keeps within the limit and is accepted.
    const within = await patchChat(t, chat.chat_id, { other_details: { ...pairs(20, 'n'), k0: null } });
    assert.equal(within.status, 200, JSON.stringify(within.body));
    assert.equal(Object.keys(within.body.response.other_details).length, 49);
  });

  it('checks the team_id header: missing 2002, unknown 2010, not the chat team 2031', async () => {
    const chat = await newChat(t);
    const missing = await botApi('PATCH', `/chats/${chat.chat_id}`, { token: t.token, body: { tags: [] } });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.status_code, 2002);
    assert.equal(missing.body.response.errors[0].field, 'header.team_id');
    const unknown = await patchChat(t, chat.chat_id, { tags: [] }, 987654);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.status_code, 2010);
    const elsewhere = await patchChat(t, chat.chat_id, { tags: [] }, t.humanTeam.id);
    assert.equal(elsewhere.status, 404);
    assert.equal(elsewhere.body.status_code, 2031);
  });

  it('closes with an outcome and emits chat.closed to the assigned VA', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    const res = await patchChat(t, chat.chat_id, { status: 'closed', outcome: 'resolved' });
    assert.equal(res.body.response.status, 'closed');
    assert.equal(res.body.response.outcome, 'resolved');
    const rows = await ctx.db
      .select()
      .from(events)
      .where(and(eq(events.chatId, chat.chat_id), eq(events.eventType, 'chat.closed')));
    assert.equal(rows.length, 1);
    assert.equal((rows[0].body as any).payload.chat_outcome, 'resolved');
    assert.ok(rows[0].seq > 1, 'chat.closed comes after chat.assigned');
  });

  it('assigns to an agent (moving the chat to their team) and unassigns with null', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    const assigned = await patchChat(t, chat.chat_id, { assignee: t.agent.loginId });
    assert.equal(assigned.body.response.assignee, t.agent.loginId);
    assert.equal(assigned.body.response.status, 'picked');
    assert.equal(assigned.body.response.team_id, t.humanTeam.id);
    const other = await newChat(t, { assignee: t.bot.user.loginId });
    const released = await patchChat(t, other.chat_id, { assignee: null });
    assert.equal(released.body.response.assignee, null);
    assert.equal(released.body.response.status, 'queued');
  });

  it('refuses an empty update and outcome without closing', async () => {
    const chat = await newChat(t);
    const empty = await patchChat(t, chat.chat_id, {});
    assert.equal(empty.body.status_code, 2000);
    const outcome = await patchChat(t, chat.chat_id, { outcome: 'x' });
    assert.equal(outcome.body.status_code, 2000);
    assert.equal(outcome.body.response.errors[0].field, 'outcome');
  });

  it('names every wrong field of a body: types, enums and unknown keys', async () => {
    const chat = await newChat(t);
    const res = await patchChat(t, chat.chat_id, { tags: 'vip', status: 'done', colour: 'red' });
    assert.equal(res.status, 400);
    assert.equal(res.body.status_code, 2000);
    const fields = res.body.response.errors.map((e: { field: string }) => e.field).sort();
    assert.deepEqual(fields, ['(body)', 'status', 'tags']);
    assert.match(res.body.description, /colour/);
  });

  it('lists chats newest first, filtered, with a cursor that walks every page once', async () => {
    const tag = `batch-${Date.now()}`;
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await newChat(t, { tags: [tag] })).chat_id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const q = new URLSearchParams({ tag, page_size: '3', ...(cursor ? { cursor } : {}) });
      const res = await botApi('GET', `/chats?${q}`, { token: t.token });
      assert.equal(res.body.status_code, 4303);
      seen.push(...res.body.response.chats.map((c: { chat_id: string }) => c.chat_id));
      cursor = res.body.response.next_cursor ?? undefined;
    } while (cursor);
    assert.deepEqual(seen, [...made].reverse());
    const mine = await newChat(t, { assignee: t.bot.user.loginId });
    const picked = await botApi('GET', `/chats?status=picked&assignee=${t.bot.user.loginId}&page_size=100`, { token: t.token });
    const pickedIds = picked.body.response.chats.map((c: { chat_id: string }) => c.chat_id);
    assert.ok(pickedIds.includes(mine.chat_id), 'the chat assigned to the bot is listed');
    assert.ok(!made.some((id) => pickedIds.includes(id)), 'queued chats are not');
    assert.ok(picked.body.response.chats.every((c: any) => c.status === 'picked' && c.assignee === t.bot.user.loginId));
    const bad = await botApi('GET', '/chats?status=lost&page_size=0', { token: t.token });
    assert.equal(bad.body.status_code, 2001);
    const badCursor = await botApi('GET', '/chats?cursor=zzz', { token: t.token });
    assert.equal(badCursor.body.status_code, 2001);
  });

  it('answers 2099/405 with Allow for a wrong method and 2011/404 for an unknown path', async () => {
    const chat = await newChat(t);
    const wrong = await botApi('DELETE', `/chats/${chat.chat_id}`, { token: t.token });
    assert.equal(wrong.status, 405);
    assert.equal(wrong.body.status_code, 2099);
    assert.equal(wrong.headers.get('allow'), 'GET, PATCH');
    const put = await botApi('PUT', '/chats', { token: t.token, body: {} });
    assert.equal(put.body.status_code, 2099);
    const unknown = await botApi('GET', '/nothing-here', { token: t.token });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.status_code, 2011);
  });

  it('answers malformed JSON with 2006, non-JSON with 2009 and oversize bodies with 2008; nothing written', async () => {
    const chat = await newChat(t, { tags: ['keep'], assignee: t.bot.user.loginId });
    const malformed = await botApi('PATCH', `/chats/${chat.chat_id}`, {
      token: t.token,
      headers: { team_id: String(t.botTeam.id), 'content-type': 'application/json' },
      raw: '{"tags": [',
    });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.status_code, 2006);
    const form = await botApi('PATCH', `/chats/${chat.chat_id}`, {
      token: t.token,
      headers: { team_id: String(t.botTeam.id), 'content-type': 'application/x-www-form-urlencoded' },
      raw: 'tags=x',
    });
    assert.equal(form.status, 415);
    assert.equal(form.body.status_code, 2009);
    const huge = await patchChat(t, chat.chat_id, { tags: ['x'], other_details: { blob: 'y'.repeat(300_000) } });
    assert.equal(huge.status, 413);
    assert.equal(huge.body.status_code, 2008);
    const after = await botApi('GET', `/chats/${chat.chat_id}`, { token: t.token });
    assert.deepEqual(after.body.response.tag, ['keep']);
  });
});

describe('request bodies without Content-Length', () => {
  const ctx = setupTestDatabase();
  it('refuses a chunked body past the size limit with 2008 before parsing it', async () => {
    const t = await createTenant(ctx.db);
    const { NextRequest } = await import('next/server');
    const { botApiHandler } = await import('@/app/api/v1/_routers');
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const req = new NextRequest('http://localhost/api/v1/chats', {
      method: 'POST',
      headers: { access_token: t.token, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as never);
    const res = await botApiHandler(req);
    assert.equal(res.status, 413);
    assert.equal((await res.json()).status_code, 2008);
  });
  it('treats an empty streamed body as no body: a bodiless DELETE gets 2099, not 2009', async () => {
    const t = await createTenant(ctx.db);
    const { NextRequest } = await import('next/server');
    const { botApiHandler } = await import('@/app/api/v1/_routers');
    const empty = () => new ReadableStream<Uint8Array>({ start: (c) => c.close() });
    const del = await botApiHandler(
      new NextRequest('http://localhost/api/v1/teams', {
        method: 'DELETE',
        headers: { access_token: t.token },
        body: empty(),
        duplex: 'half',
      } as never),
    );
    assert.equal(del.status, 405);
    assert.equal((await del.json()).status_code, 2099);
    const post = await botApiHandler(
      new NextRequest('http://localhost/api/v1/chats', {
        method: 'POST',
        headers: { access_token: t.token },
        body: empty(),
        duplex: 'half',
      } as never),
    );
    assert.equal(post.status, 400);
    assert.equal((await post.json()).status_code, 2000);
  });
});
