import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { deliveryAttempts, events } from '@/db/schema';
import { type ApiClient, botApi } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { signedInAdmin, signedInAdminOf } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';

describe('admin chats and events', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let admin: ApiClient;
  let outsider: ApiClient;
  let chatId: string;

  const createChat = async (body: Record<string, unknown>) => {
    const res = await botApi('POST', '/chats', { token: t.token, body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.response;
  };

  before(async () => {
    t = await createTenant(ctx.db);
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
    outsider = (await signedInAdmin(ctx.db)).client;
    const chat = await createChat({
      channel: 'sms',
      asset_id: t.assets.sms.id,
      customer: { destination_id: '+15557770001', name: 'Zoe Quill' },
      assignee: t.bot.user.loginId,
      alias_id: 'CRM-4242',
      messages: Array.from({ length: 25 }, (_, i) => ({ type: 'inbound', text: `line ${i + 1}` })),
    });
    chatId = chat.chat_id;
    await botApi('POST', `/chats/${chatId}/messages`, { token: t.token, body: { type: 'inbound', text: 'one more' } });
  });

  it('shows the whole transcript and every event with its delivery attempts', async () => {
    const [first] = await ctx.db.select().from(events).where(eq(events.chatId, chatId)).orderBy(events.seq).limit(1);
    await ctx.db.insert(deliveryAttempts).values({
      eventId: first.id,
      attemptNumber: 1,
      startedAt: new Date(),
      durationMs: 12,
      httpStatus: 503,
      error: 'HTTP 503',
      responseExcerpt: 'busy',
    });
    const res = await admin.get(`/chats/${chatId}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const chat = res.body.response;
    assert.equal(chat.chat_id, chatId);
    assert.equal(chat.messages.length, 26, 'beyond the 20 of a bot chat read');
    assert.equal(chat.messages[0].text, 'line 1');
    assert.equal(chat.messages.at(-1).text, 'one more');

    assert.deepEqual(
      chat.events.map((e: { event_type: string; seq: number }) => [e.event_type, e.seq]),
      [
        ['chat.assigned', 1],
        ['message.received', 2],
      ],
    );
    const assigned = chat.events[0];
    assert.equal(assigned.virtual_agent_login_id, t.bot.user.loginId);
    assert.equal(assigned.status, 'pending');
    assert.equal(assigned.body.chat_id, chatId);
    assert.equal(assigned.body.transaction_id, assigned.transaction_id);
    assert.deepEqual(assigned.attempts, [
      {
        attempt_number: 1,
        started_at: assigned.attempts[0].started_at,
        duration_ms: 12,
        http_status: 503,
        error: 'HTTP 503',
        response_excerpt: 'busy',
      },
    ]);
    assert.deepEqual(chat.events[1].attempts, []);
  });

  it('appends a customer message (emitting message.received) and an announcement', async () => {
    const inbound = await admin.post(`/chats/${chatId}/messages`, { type: 'inbound', text: 'typed by the admin as the customer' });
    assert.equal(inbound.status, 201, JSON.stringify(inbound.body));
    assert.equal(inbound.body.status_code, 4401);
    assert.equal(inbound.body.response.author, null);
    const note = await admin.post(`/chats/${chatId}/messages`, { type: 'announcement', text: 'escalated to tier 2' });
    assert.equal(note.status, 201, JSON.stringify(note.body));
    assert.match(note.body.response.author, /^admin:/);

    const chat = (await admin.get(`/chats/${chatId}`)).body.response;
    assert.equal(chat.messages.at(-1).text, 'escalated to tier 2');
    const last = chat.events.at(-1);
    assert.equal(last.event_type, 'message.received');
    assert.equal(last.body.payload.messages[0].message.transid, inbound.body.response.transid);
    assert.equal(last.body.payload.messages[0].transid, last.transaction_id);
    assert.equal(chat.events.length, 3, 'the announcement emits nothing');

    const outbound = await admin.post(`/chats/${chatId}/messages`, { type: 'outbound', text: 'hi' });
    assert.equal(outbound.body.status_code, 2000, 'admins append as the customer or as an announcement only');
    const wrongShape = await admin.post(`/chats/${chatId}/messages`, {
      type: 'inbound',
      quick_reply_response: { request_identifier: 'r', options: [{ title: 'x' }] },
    });
    assert.equal(wrongShape.body.status_code, 2020);
  });

  it('lists chats newest first with filters, search and pagination', async () => {
    const other = await createChat({
      channel: 'email',
      asset_id: t.assets.email.id,
      customer: { destination_id: 'sam@example.test', name: 'Sam' },
      team_id: t.humanTeam.id,
      tags: ['vip'],
    });
    const all = await admin.get('/chats');
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assert.deepEqual(
      all.body.response.chats.map((c: { chat_id: string }) => c.chat_id),
      [other.chat_id, chatId],
    );
    const ids = async (query: string) =>
      (await admin.get(`/chats?${query}`)).body.response.chats.map((c: { chat_id: string }) => c.chat_id);
    assert.deepEqual(await ids('q=zoe'), [chatId], 'customer name, any case');
    assert.deepEqual(await ids('q=7770001'), [chatId], 'part of the destination id');
    assert.deepEqual(await ids('q=crm-42'), [chatId], 'alias id');
    assert.deepEqual(await ids(`q=${chatId.slice(0, 8)}`), [chatId], 'start of the chat id');
    assert.deepEqual(await ids('q=%25'), [], 'LIKE wildcards are literal');
    assert.deepEqual(await ids('q=_'), [], 'LIKE wildcards are literal');
    assert.deepEqual(await ids('tag=vip'), [other.chat_id]);
    assert.deepEqual(await ids('channel=sms'), [chatId]);
    assert.deepEqual(await ids(`team_id=${t.humanTeam.id}`), [other.chat_id]);
    assert.deepEqual(await ids(`assignee=${t.bot.user.loginId}`), [chatId]);
    assert.deepEqual(await ids('status=queued'), [other.chat_id]);

    const page1 = await admin.get('/chats?page_size=1');
    assert.equal(page1.body.response.chats.length, 1);
    assert.ok(page1.body.response.next_cursor);
    const page2 = await admin.get(`/chats?page_size=1&cursor=${page1.body.response.next_cursor}`);
    assert.deepEqual(
      page2.body.response.chats.map((c: { chat_id: string }) => c.chat_id),
      [chatId],
    );
    assert.equal(page2.body.response.next_cursor, null);
    assert.equal((await admin.get('/chats?cursor=junk')).body.status_code, 2001);
    assert.equal((await admin.get('/chats?colour=red')).body.status_code, 2001);
  });

  it('redelivers a failed event, and refuses a pending or unknown one', async () => {
    const chat = (await admin.get(`/chats/${chatId}`)).body.response;
    const event = chat.events[0];
    const pending = await admin.post(`/events/${event.id}/redeliver`);
    assert.equal(pending.status, 409);
    assert.equal(pending.body.status_code, 3008);

    await ctx.db.update(events).set({ status: 'failed', failedAt: new Date() }).where(eq(events.id, event.id));
    const res = await admin.post(`/events/${event.id}/redeliver`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const after = (await admin.get(`/chats/${chatId}`)).body.response.events[0];
    assert.equal(after.status, 'pending');
    assert.equal(after.transaction_id, event.transaction_id);

    assert.equal((await admin.post('/events/99999999/redeliver')).body.status_code, 3006);
    // As the document says: a query parameter it does not name is refused, not ignored.
    const unknown = await admin.post(`/events/${event.id}/redeliver?forced=true`);
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.status_code, 2001);
  });

  it("keeps another account's administrator out of the chat and its events (3006)", async () => {
    const chat = (await admin.get(`/chats/${chatId}`)).body.response;
    const get = await outsider.get(`/chats/${chatId}`);
    assert.equal(get.status, 404);
    assert.equal(get.body.status_code, 3006);
    const post = await outsider.post(`/chats/${chatId}/messages`, { type: 'announcement', text: 'sneaky' });
    assert.equal(post.body.status_code, 3006);
    assert.equal((await outsider.post(`/events/${chat.events[0].id}/redeliver`)).body.status_code, 3006);
    assert.deepEqual((await outsider.get('/chats')).body.response.chats, []);
    const after = (await admin.get(`/chats/${chatId}`)).body.response;
    assert.ok(!after.messages.some((m: { text?: string }) => m.text === 'sneaky'));
  });
});
