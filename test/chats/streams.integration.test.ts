import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { messages } from '@/db/schema';
import { authorize } from '@/lib/bot-auth/authorize';
import { closeIdleStreams } from '@/lib/chats/cut-streams';
import { createVirtualAgent } from '@/lib/virtual-agents/create-virtual-agent';
import { type ApiClient, botApi } from '../support/api-client';
import { newChat, patchChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { signedInAdminOf } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';

describe('streamed replies', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let admin: ApiClient;
  beforeEach(async () => {
    t = await createTenant(ctx.db);
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
  });

  const open = (chatId: string, text?: string, token = t.token) =>
    botApi('POST', `/chats/${chatId}/messages`, { token, body: { type: 'outbound', stream: true, ...(text ? { text } : {}) } });
  const chunk = (chatId: string, transid: string, seq: number, text: string, token = t.token) =>
    botApi('POST', `/chats/${chatId}/messages/${transid}/chunks`, { token, body: { seq, text } });
  const close = (chatId: string, transid: string, body: Record<string, unknown> = {}, token = t.token) =>
    botApi('PATCH', `/chats/${chatId}/messages/${transid}`, { token, body: { stream_state: 'closed', ...body } });
  const transcript = async (chatId: string) =>
    (await botApi('GET', `/chats/${chatId}/messages`, { token: t.token })).body.response.messages as Record<string, unknown>[];
  const held = (channel = 'livechat') => newChat(t, { assignee: t.bot.user.loginId, channel });

  it('opens, grows chunk by chunk (retried and out-of-order chunks handled), shows the partial text, and closes', async () => {
    const chat = await held();
    const opened = await open(chat.chat_id, 'I found');
    assert.equal(opened.status, 201, JSON.stringify(opened.body));
    const m = opened.body.response;
    assert.deepEqual([m.type, m.text, m.stream_state, m.stream_seq], ['outbound', 'I found', 'open', 0]);

    const first = await chunk(chat.chat_id, m.transid, 1, ' both charges.');
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(
      [first.body.status_code, first.body.response.text, first.body.response.stream_seq],
      [4312, 'I found both charges.', 1],
    );

    // A gap is refused and says which seq comes next; nothing is written.
    const gap = await chunk(chat.chat_id, m.transid, 3, ' later');
    assert.deepEqual([gap.status, gap.body.status_code], [409, 2046]);
    assert.match(gap.body.description, /the next chunk is seq 2/);

    const second = await chunk(chat.chat_id, m.transid, 2, ' The second one');
    assert.equal(second.body.response.text, 'I found both charges. The second one');
    // A retry of an accepted chunk with the same text changes nothing; with another text it is 2045.
    const retried = await chunk(chat.chat_id, m.transid, 1, ' both charges.');
    assert.deepEqual(
      [retried.status, retried.body.response.text, retried.body.response.stream_seq],
      [200, 'I found both charges. The second one', 2],
    );
    const conflict = await chunk(chat.chat_id, m.transid, 1, ' one charge.');
    assert.deepEqual([conflict.status, conflict.body.status_code], [409, 2045]);

    // While open, the transcript, the chat and the admin page show the partial text with its state.
    const partial = (await transcript(chat.chat_id)).find((x) => x.transid === m.transid);
    assert.deepEqual([partial?.text, partial?.stream_state], ['I found both charges. The second one', 'open']);
    const adminView = (await admin.get(`/chats/${chat.chat_id}`)).body.response;
    assert.equal(adminView.messages.find((x: { transid: string }) => x.transid === m.transid).stream_state, 'open');

    await chunk(chat.chat_id, m.transid, 3, ' is refunded.');
    const closed = await close(chat.chat_id, m.transid);
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    assert.deepEqual(
      [closed.body.status_code, closed.body.response.text, closed.body.response.stream_state, closed.body.response.stream_seq],
      [4313, 'I found both charges. The second one is refunded.', 'closed', 3],
    );
    // Closing again is a retry; a chunk after the close is refused.
    assert.equal((await close(chat.chat_id, m.transid)).status, 200);
    const late = await chunk(chat.chat_id, m.transid, 4, ' more');
    assert.deepEqual([late.status, late.body.status_code], [409, 2047]);
    const retryAfterClose = await chunk(chat.chat_id, m.transid, 3, ' is refunded.');
    assert.deepEqual([retryAfterClose.status, retryAfterClose.body.status_code], [409, 2047]);
    const final = (await transcript(chat.chat_id)).filter((x) => x.type === 'outbound');
    assert.equal(final.length, 1, 'one message, not one per chunk');
    assert.equal(final[0].text, 'I found both charges. The second one is refunded.');
    // No row per chunk: the message row carries the stream, and forgets the chunk ends once closed.
    const [row] = await ctx.db.select().from(messages).where(eq(messages.transid, m.transid));
    assert.deepEqual([row.streamState, row.streamSeq, row.streamEnds], ['closed', 3, null]);
  });

  it('closes with a replacing text, and applies the length limit to the whole text', async () => {
    const chat = await held('sms');
    const m = (await open(chat.chat_id)).body.response;
    assert.equal(m.text, '');
    assert.equal((await chunk(chat.chat_id, m.transid, 1, 'a'.repeat(4000))).status, 200);
    const tooLong = await chunk(chat.chat_id, m.transid, 2, 'b'.repeat(97));
    assert.deepEqual([tooLong.status, tooLong.body.status_code], [400, 2048]);
    assert.equal((await chunk(chat.chat_id, m.transid, 2, 'b'.repeat(96))).body.response.text.length, 4096);
    const moderated = await close(chat.chat_id, m.transid, { text: 'A shorter, moderated answer.' });
    assert.deepEqual([moderated.body.response.text, moderated.body.response.stream_state], ['A shorter, moderated answer.', 'closed']);
    const otherText = await close(chat.chat_id, m.transid, { text: 'Something else' });
    assert.deepEqual([otherText.status, otherText.body.status_code], [409, 2047]);
  });

  it('closes an idle stream with what it holds, marked cut short, and refuses its later chunks', async () => {
    const chat = await held();
    const idle = (await open(chat.chat_id, 'Let me check')).body.response;
    const busy = (await open(chat.chat_id, 'Another')).body.response;
    await chunk(chat.chat_id, idle.transid, 1, ' your order');
    // The idle one's last chunk is 40 s old; the busy one just got one.
    await ctx.db.update(messages).set({ streamTouchedAt: sql`now() - interval '40 seconds'` }).where(eq(messages.transid, idle.transid));
    await chunk(chat.chat_id, busy.transid, 1, ' answer');
    const cut = await closeIdleStreams(ctx.db, { idleSeconds: 30 });
    assert.deepEqual(cut, [idle.transid]);
    assert.deepEqual(await closeIdleStreams(ctx.db, { idleSeconds: 30 }), [], 'a second sweep finds nothing');
    const shown = (await transcript(chat.chat_id)).find((x) => x.transid === idle.transid);
    assert.deepEqual([shown?.text, shown?.stream_state], ['Let me check your order', 'cut_short']);
    const late = await chunk(chat.chat_id, idle.transid, 2, ' now');
    assert.deepEqual([late.status, late.body.status_code], [409, 2047]);
    assert.match(late.body.description, /cut short/);
    assert.deepEqual([(await close(chat.chat_id, idle.transid)).body.status_code], [2047]);
    assert.equal((await chunk(chat.chat_id, busy.transid, 2, ' goes on')).status, 200);
  });

  it('is cut short by a handover and by a close, and refuses later chunks', async () => {
    const chat = await held();
    const m = (await open(chat.chat_id, 'Half an')).body.response;
    const moved = await botApi('PATCH', `/internal/chats/${chat.chat_id}`, {
      token: t.token,
      body: { transfer: { teamid: t.humanTeam.id } },
    });
    assert.equal(moved.status, 202, JSON.stringify(moved.body));
    const after = (await transcript(chat.chat_id)).find((x) => x.transid === m.transid);
    assert.deepEqual([after?.text, after?.stream_state], ['Half an', 'cut_short']);
    const late = await chunk(chat.chat_id, m.transid, 1, ' answer');
    assert.deepEqual([late.status, late.body.status_code], [403, 2043], 'the chat is no longer the VA’s');

    const other = await held();
    const s = (await open(other.chat_id, 'Bye')).body.response;
    assert.equal((await patchChat(t, other.chat_id, { status: 'closed' })).status, 200);
    const gone = (await transcript(other.chat_id)).find((x) => x.transid === s.transid);
    assert.equal(gone?.stream_state, 'cut_short');
  });

  it('refuses other VAs, other accounts, unknown messages, non-streams and streams that are not outbound text', async () => {
    const chat = await held();
    const m = (await open(chat.chat_id, 'Hi')).body.response;
    const second = await createVirtualAgent(ctx.db, {
      accountId: t.account.id,
      name: 'Second bot',
      description: 'another',
      webhookUrl: 'http://127.0.0.1:9/hook',
      teamId: t.botTeam.id,
    });
    const secondToken = (await authorize(ctx.db, { apiKey: second.apiKey })).accessToken;
    const other = await createTenant(ctx.db);
    const byOther = await chunk(chat.chat_id, m.transid, 1, ' there', secondToken);
    assert.deepEqual([byOther.status, byOther.body.status_code], [403, 2043]);
    assert.deepEqual([(await close(chat.chat_id, m.transid, {}, secondToken)).body.status_code], [2043]);
    const otherAccount = await chunk(chat.chat_id, m.transid, 1, ' there', other.token);
    assert.deepEqual([otherAccount.status, otherAccount.body.status_code], [404, 2031]);
    const unknown = await chunk(chat.chat_id, 'no-such-transid', 1, ' there');
    assert.deepEqual([unknown.status, unknown.body.status_code], [404, 2044]);
    const plain = (await botApi('POST', `/chats/${chat.chat_id}/messages`, { token: t.token, body: { type: 'outbound', text: 'Plain' } }))
      .body.response;
    assert.equal(plain.stream_state, undefined);
    const notStream = await chunk(chat.chat_id, plain.transid, 1, ' more');
    assert.deepEqual([notStream.status, notStream.body.status_code], [409, 2047]);
    for (const body of [
      { type: 'inbound', text: 'x', stream: true },
      { type: 'outbound', stream: true, attachment: { type: 'image', url: 'https://example.com/a.png' } },
    ]) {
      const refused = await botApi('POST', `/chats/${chat.chat_id}/messages`, { token: t.token, body });
      assert.deepEqual([refused.status, refused.body.status_code], [400, 2020], JSON.stringify(refused.body));
    }
    for (const body of [{ seq: 0, text: 'x' }, { seq: 1, text: '' }, { seq: 1 }, { seq: 1, text: 'x', extra: 1 }]) {
      const bad = await botApi('POST', `/chats/${chat.chat_id}/messages/${m.transid}/chunks`, { token: t.token, body });
      assert.deepEqual([bad.status, bad.body.status_code], [400, 2000], JSON.stringify(body));
    }
    const badClose = await botApi('PATCH', `/chats/${chat.chat_id}/messages/${m.transid}`, {
      token: t.token,
      body: { stream_state: 'open' },
    });
    assert.deepEqual([badClose.status, badClose.body.status_code], [400, 2000]);
    const still = (await transcript(chat.chat_id)).find((x) => x.transid === m.transid);
    assert.deepEqual([still?.text, still?.stream_state, still?.stream_seq], ['Hi', 'open', 0], 'nothing was written');
  });
});
