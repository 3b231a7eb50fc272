import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { events, messages } from '@/db/schema';
import { botApi } from '../support/api-client';
import { newChat, patchChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

const qr = {
  request_identifier: '5f1c2d9e-8d41-4c55-9a53-1b2f0d9a7c11',
  options: [
    { title: 'Yes', payload: 'Y' },
    { title: 'No', payload: 'N' },
  ],
};
const qrAnswer = { request_identifier: qr.request_identifier, options: [{ title: 'Yes' }] };

/** [channel, message, expected HTTP status, field named by the error (if refused)] */
const CASES: [string, Record<string, unknown>, number, string?][] = [
  ['sms', { type: 'outbound', text: 'hi' }, 201],
  ['sms', { type: 'outbound', text: 'see this', attachment: { type: 'image', url: 'https://cdn.example.test/a.png' } }, 201],
  ['sms', { type: 'outbound', attachment: { type: 'file', url: 'https://cdn.example.test/a.pdf' } }, 201],
  ['sms', { type: 'inbound', text: 'hello' }, 201],
  ['sms', { type: 'announcement', text: 'customer is a VIP' }, 201],
  ['sms', { type: 'outbound' }, 400, 'text'],
  ['sms', { type: 'outbound', quick_replies: qr }, 400, 'quick_replies'],
  ['sms', { type: 'outbound', template_name: 'welcome' }, 400, 'template_name'],
  ['sms', { type: 'announcement', text: 'x', attachment: { type: 'image', url: 'https://cdn.example.test/a.png' } }, 400, 'attachment'],
  ['livechat', { type: 'outbound', livechat_sub_type: 'quick_replies', text: 'Pick one', quick_replies: qr }, 201],
  ['livechat', { type: 'inbound', livechat_sub_type: 'quick_reply_response', quick_reply_response: qrAnswer }, 201],
  ['livechat', { type: 'inbound', livechat_sub_type: 'quick_replies', quick_reply_response: qrAnswer }, 201],
  ['livechat', { type: 'inbound', quick_replies: qr }, 400, 'quick_replies'],
  ['livechat', { type: 'outbound', quick_reply_response: qrAnswer }, 400, 'quick_reply_response'],
  ['livechat', { type: 'outbound', livechat_sub_type: 'quick_replies', text: 'Pick' }, 400, 'quick_replies'],
  ['abc', { type: 'inbound', abc_sub_type: 'listpicker', list_picker_response: ['Blue shirt'] }, 201],
  ['abc', { type: 'inbound', abc_sub_type: 'listpicker_response', listpicker_response: ['Blue shirt'] }, 201],
  ['abc', { type: 'inbound', abc_sub_type: 'timepicker', time_picker_response: '2026-12-01T10:00:00Z' }, 201],
  ['abc', { type: 'inbound', abc_sub_type: 'timepicker_response', timepicker_response: '2026-12-01T10:00:00Z' }, 201],
  ['abc', { type: 'outbound', template_name: 'order_update' }, 201],
  ['abc', { type: 'outbound', list_picker_response: ['x'] }, 400, 'list_picker_response'],
  ['abc', { type: 'inbound', abc_sub_type: 'timepicker', text: 'when?' }, 400, 'time_picker_response'],
  ['sms', { type: 'inbound', list_picker_response: ['x'] }, 400, 'list_picker_response'],
  ['messenger', { type: 'outbound', messenger_sub_type: 'hsm', template_name: 'shipping_1' }, 201],
  ['messenger', { type: 'outbound', messenger_sub_type: 'text', text: 'hi' }, 201],
  ['messenger', { type: 'outbound', messenger_sub_type: 'hsm', text: 'no template' }, 400, 'template_name'],
  ['sms', { type: 'outbound', messenger_sub_type: 'hsm', template_name: 't' }, 400, 'messenger_sub_type'],
  ['messenger', { type: 'inbound', template_name: 't' }, 400, 'template_name'],
  ['email', { type: 'outbound', text: 'Dear Ann' }, 201],
];

describe('messages', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  const chats: Record<string, string> = {};
  before(async () => {
    t = await createTenant(ctx.db);
    for (const ch of ['sms', 'livechat', 'abc', 'messenger', 'email']) {
      chats[ch] = (await newChat(t, { channel: ch, assignee: t.bot.user.loginId })).chat_id;
    }
  });

  for (const [channel, message, status, field] of CASES) {
    const what = `${status === 201 ? 'accepts' : 'refuses'} on ${channel}: ${JSON.stringify(message)}`;
    it(what, async () => {
      const res = await botApi('POST', `/chats/${chats[channel]}/messages`, { token: t.token, body: message });
      assert.equal(res.status, status, JSON.stringify(res.body));
      if (status === 201) {
        assert.equal(res.body.status_code, 4306);
        assert.match(res.body.response.transid, /^[0-9a-f-]{36}$/);
        assert.equal(res.body.response.type, message.type);
      } else {
        assert.equal(res.body.status_code, 2020);
        assert.ok(
          res.body.response.errors.some((e: { field: string }) => e.field === field),
          `expected an error on ${field}, got ${JSON.stringify(res.body.response.errors)}`,
        );
      }
    });
  }

  it('stores the spec field names for the sample aliases', async () => {
    const res = await botApi('POST', `/chats/${chats.abc}/messages`, {
      token: t.token,
      body: { type: 'inbound', abc_sub_type: 'listpicker_response', listpicker_response: ['Red'] },
    });
    assert.deepEqual(res.body.response.list_picker_response, ['Red']);
    assert.equal(res.body.response.abc_sub_type, 'listpicker');
    assert.equal(res.body.response.listpicker_response, undefined);
  });

  it('emits message.received for an inbound message on a VA chat, with the interactive answer', async () => {
    const chat = await newChat(t, { channel: 'livechat', assignee: t.bot.user.loginId, thread_id: 'th-1', browserfingerprint: 'fp-1' });
    const res = await botApi('POST', `/chats/${chat.chat_id}/messages`, {
      token: t.token,
      body: { type: 'inbound', livechat_sub_type: 'quick_reply_response', quick_reply_response: qrAnswer },
    });
    assert.equal(res.status, 201);
    const rows = await ctx.db.select().from(events).where(eq(events.chatId, chat.chat_id));
    const received = rows.find((r) => r.eventType === 'message.received');
    assert.ok(received);
    const body = received.body as any;
    assert.equal(body.thread_id, 'th-1');
    assert.equal(body.browserfingerprint, 'fp-1');
    assert.equal(body.channel, 'livechat');
    assert.deepEqual(body.payload.messages[0].interactive_response, { title: 'Yes', postback: 'Yes' });
    assert.equal(body.payload.messages[0].type, 'interactive');
    // The entry's transid traces the event; the message keeps its own in `message`.
    assert.equal(body.payload.messages[0].transid, received.transactionId);
    assert.deepEqual(body.payload.messages[0].message, res.body.response);
  });

  it('emits nothing for outbound messages and announcements', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    await botApi('POST', `/chats/${chat.chat_id}/messages`, { token: t.token, body: { type: 'outbound', text: 'hi' } });
    await botApi('POST', `/chats/${chat.chat_id}/messages`, { token: t.token, body: { type: 'announcement', text: 'note' } });
    const rows = await ctx.db.select().from(events).where(eq(events.chatId, chat.chat_id));
    assert.deepEqual(
      rows.map((r) => r.eventType),
      ['chat.assigned'],
    );
  });

  it('replays the first answer for a repeated Idempotency-Key and refuses the key with another body', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    const send = (text: string) =>
      botApi('POST', `/chats/${chat.chat_id}/messages`, {
        token: t.token,
        headers: { 'idempotency-key': 'msg-1' },
        body: { type: 'outbound', text },
      });
    const first = await send('once');
    const again = await send('once');
    assert.equal(first.status, 201);
    assert.equal(again.status, 201);
    assert.deepEqual(again.body, first.body);
    const stored = await ctx.db.select().from(messages).where(eq(messages.chatId, chat.chat_id));
    assert.equal(stored.length, 1);
    const other = await send('twice');
    assert.equal(other.status, 409);
    assert.equal(other.body.status_code, 2013);
  });

  it('keeps the key of a refused request free for a corrected retry', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    const post = (body: unknown) =>
      botApi('POST', `/chats/${chat.chat_id}/messages`, { token: t.token, headers: { 'idempotency-key': 'k2' }, body });
    const bad = await post({ type: 'outbound' });
    assert.equal(bad.body.status_code, 2020);
    const good = await post({ type: 'outbound', text: 'ok' });
    assert.equal(good.status, 201);
    assert.equal(good.body.response.text, 'ok');
  });

  it('refuses messages other than announcements on a closed chat (2040)', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    await patchChat(t, chat.chat_id, { status: 'closed' });
    const out = await botApi('POST', `/chats/${chat.chat_id}/messages`, { token: t.token, body: { type: 'outbound', text: 'hello?' } });
    assert.equal(out.status, 409);
    assert.equal(out.body.status_code, 2040);
    const note = await botApi('POST', `/chats/${chat.chat_id}/messages`, {
      token: t.token,
      body: { type: 'announcement', text: 'closed by bot' },
    });
    assert.equal(note.status, 201);
  });

  it('pages through a transcript oldest first', async () => {
    const chat = await newChat(t);
    for (let i = 0; i < 5; i++) {
      await botApi('POST', `/chats/${chat.chat_id}/messages`, { token: t.token, body: { type: 'inbound', text: `m${i}` } });
    }
    const texts: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `?page_size=2&cursor=${cursor}` : '?page_size=2';
      const res = await botApi('GET', `/chats/${chat.chat_id}/messages${q}`, { token: t.token });
      assert.equal(res.body.status_code, 4305);
      texts.push(...res.body.response.messages.map((m: { text: string }) => m.text));
      cursor = res.body.response.next_cursor;
    } while (cursor);
    assert.deepEqual(texts, ['m0', 'm1', 'm2', 'm3', 'm4']);
  });
});
