import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
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

/** Reads `chat` events until one satisfies `done` (the stream folds bursts, so it may skip states between). */
async function until(s: SseReader, done: (chat: any) => boolean): Promise<any> {
  for (;;) {
    const [e]: SseEvent[] = await s.next(1);
    assert.equal(e.event, 'chat');
    if (done(e.json)) return e.json;
  }
}

describe('admin chat page live stream (SSE)', () => {
  let t: Tenant;
  let admin: ApiClient;
  before(async () => {
    t = await createTenant(ctx.db);
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
  });

  it('sends the whole chat, then its typing, a streamed reply growing and closing, and new messages live', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId, channel: 'livechat' });
    const live = await openAdminStream(chat.chat_id, admin);
    assert.equal(live.status, 200);
    assert.match(live.headers.get('content-type') ?? '', /^text\/event-stream/);
    const s = live.sse as SseReader;
    const [first] = await s.next(1);
    assert.deepEqual([first.event, first.json.chat_id, first.json.typing], ['chat', chat.chat_id, null]);

    await botApi('PUT', `/chats/${chat.chat_id}/typing`, { token: t.token, body: { on: true, status_text: 'Thinking' } });
    const typing = await until(s, (c) => c.typing !== null);
    assert.equal(typing.typing.status_text, 'Thinking');

    const opened = await botApi('POST', `/chats/${chat.chat_id}/messages`, { token: t.token, body: { type: 'outbound', stream: true } });
    const transid = opened.body.response.transid;
    for (const [i, piece] of ['The ', 'answer ', 'is 42.'].entries()) {
      const res = await botApi('POST', `/chats/${chat.chat_id}/messages/${transid}/chunks`, {
        token: t.token,
        body: { seq: i + 1, text: piece },
      });
      assert.equal(res.status, 200);
    }
    const growing = await until(s, (c) => c.messages.some((m: any) => m.transid === transid && m.text === 'The answer is 42.'));
    const streamed = growing.messages.find((m: any) => m.transid === transid);
    assert.equal(streamed.stream_state, 'open');
    assert.equal(growing.typing, null, 'the outbound message cleared typing');

    await botApi('PATCH', `/chats/${chat.chat_id}/messages/${transid}`, { token: t.token, body: { stream_state: 'closed' } });
    const closed = await until(s, (c) => c.messages.find((m: any) => m.transid === transid)?.stream_state === 'closed');
    assert.equal(closed.messages.find((m: any) => m.transid === transid).text, 'The answer is 42.');

    await botApi('POST', `/chats/${chat.chat_id}/messages`, { token: t.token, body: { type: 'outbound', text: 'Anything else?' } });
    await until(s, (c) => c.messages.some((m: any) => m.text === 'Anything else?'));
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

    const bad = await openAdminStream('x'.repeat(101), admin);
    assert.equal(bad.status, 400);
    assert.equal(bad.refusal.status_code, 2014);
  });
});
