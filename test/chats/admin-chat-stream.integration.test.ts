import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { withChunk, withMessage } from '@/components/live/transcript';
import { ApiClient, botApi } from '../support/api-client';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { signedInAdminOf } from '../support/people';
import type { SseEvent, SseReader } from '../support/sse';
import { createTenant, type Tenant } from '../support/tenant';

const ctx = setupTestDatabase();

/** The console's live chat view (GET /api/admin/chats/{id}/stream) through its real route handler. */
function openAdminStream(chatId: string, as: ApiClient = new ApiClient('admin')) {
  return as.stream(`/chats/${encodeURIComponent(chatId)}/stream`);
}

/**
 * The page's copy of the chat, kept as the page keeps it from the stream's changes (the whole chat
 * first, then `message`, `chunk` and `details`), read until it satisfies `done`. Only the first
 * frame may carry the whole chat: every later one is a change.
 */
function follow(s: SseReader) {
  let chat: any;
  const kinds: string[] = [];
  return {
    kinds,
    async until(done: (chat: any) => boolean): Promise<any> {
      for (;;) {
        const [e]: SseEvent[] = await s.next(1);
        kinds.push(e.event);
        if (e.event === 'chat') {
          assert.equal(chat, undefined, 'the whole chat comes once, first');
          chat = e.json;
        } else if (e.event === 'message') chat = { ...chat, messages: withMessage(chat.messages, e.json) };
        else if (e.event === 'chunk') chat = { ...chat, messages: withChunk(chat.messages, e.json) };
        else if (e.event === 'details') chat = { ...chat, ...e.json };
        else assert.fail(`unexpected event ${e.event}`);
        if (done(chat)) return chat;
      }
    },
  };
}

describe('admin chat page live stream (SSE)', () => {
  let t: Tenant;
  let admin: ApiClient;
  before(async () => {
    t = await createTenant(ctx.db);
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
  });

  it('sends the whole chat, then its changes: typing, a streamed reply chunk by chunk and closing, new messages', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId, channel: 'livechat' });
    const live = await openAdminStream(chat.chat_id, admin);
    assert.equal(live.status, 200);
    assert.match(live.headers.get('content-type') ?? '', /^text\/event-stream/);
    const s = live.sse as SseReader;
    const page = follow(s);
    const first = await page.until(() => true);
    assert.deepEqual([page.kinds[0], first.chat_id, first.typing], ['chat', chat.chat_id, null]);
    const until = (done: (chat: any) => boolean) => page.until(done);

    await botApi('PUT', `/chats/${chat.chat_id}/typing`, { token: t.token, body: { on: true, status_text: 'Thinking' } });
    const typing = await until((c) => c.typing !== null);
    assert.equal(typing.typing.status_text, 'Thinking');

    const opened = await botApi('POST', `/chats/${chat.chat_id}/messages`, { token: t.token, body: { type: 'outbound', stream: true } });
    const transid = opened.body.response.transid;
    // The page holds the opened reply before its chunks are written: reads are at least 100 ms
    // apart, and a read after the chunks would send the reply whole (correct, but not what this checks).
    await until((c) => c.messages.some((m: any) => m.transid === transid));
    for (const [i, piece] of ['The ', 'answer ', 'is 42.'].entries()) {
      const res = await botApi('POST', `/chats/${chat.chat_id}/messages/${transid}/chunks`, {
        token: t.token,
        body: { seq: i + 1, text: piece },
      });
      assert.equal(res.status, 200);
    }
    // One read may send the opened reply (its text already whole) and then the details that clear
    // typing: wait for both (a bounded wait, so typing never cleared fails the test here).
    const growing = await until(
      (c) => c.typing === null && c.messages.some((m: any) => m.transid === transid && m.text === 'The answer is 42.'),
    );
    const streamed = growing.messages.find((m: any) => m.transid === transid);
    assert.equal(streamed.stream_state, 'open');

    await botApi('PATCH', `/chats/${chat.chat_id}/messages/${transid}`, { token: t.token, body: { stream_state: 'closed' } });
    const closed = await until((c) => c.messages.find((m: any) => m.transid === transid)?.stream_state === 'closed');
    assert.equal(closed.messages.find((m: any) => m.transid === transid).text, 'The answer is 42.');

    await botApi('POST', `/chats/${chat.chat_id}/messages`, { token: t.token, body: { type: 'outbound', text: 'Anything else?' } });
    await until((c) => c.messages.some((m: any) => m.text === 'Anything else?'));
    assert.ok(page.kinds.includes('chunk'), 'the reply grew by chunks, not by whole chats');
    await s.close();
  });

  it('refuses without a session, and a chat of another account', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId, channel: 'livechat' });
    const none = await openAdminStream(chat.chat_id);
    assert.equal(none.status, 401);
    assert.equal(none.refusal.status_code, 3001);

    const stranger = await createTenant(ctx.db);
    const other = (await signedInAdminOf(ctx.db, stranger.account.id)).client;
    const foreign = await openAdminStream(chat.chat_id, other);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.refusal.status_code, 3006);

    const said = await botApi('POST', `/chats/${chat.chat_id}/messages`, { token: t.token, body: { type: 'outbound', text: 'Hello' } });
    assert.equal(said.status, 201);
    const resumed = await admin.stream(`/chats/${chat.chat_id}/stream`, { lastEventId: '1' });
    assert.equal(resumed.status, 200, 'a cursor at or before the newest message resumes');
    await resumed.sse?.close();
    const past = await admin.stream(`/chats/${chat.chat_id}/stream`, { lastEventId: '999999999999' });
    assert.equal(past.status, 409, 'a cursor past the newest message was never sent');
    assert.equal(past.refusal.status_code, 2087);

    const bad = await openAdminStream('x'.repeat(101), admin);
    assert.equal(bad.status, 400);
    assert.equal(bad.refusal.status_code, 2014);
  });
});
