import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { streamAppends } from '@/lib/chats/append-batch';
import { appendChunk } from '@/lib/chats/append-chunk';
import { ApiError } from '@/platform/errors';
import { botApi } from '../support/api-client';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

// Chunks of many streams at once go in shared statements (lib/chats/append-batch.ts): each must
// land as it would alone (in order, once, refused for its own reason), whatever else rode with it.
describe('chunks of many streams at once', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  beforeEach(async () => {
    t = await createTenant(ctx.db);
  });

  const openStream = async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId, channel: 'livechat' });
    const opened = await botApi('POST', `/chats/${chat.chat_id}/messages`, { token: t.token, body: { type: 'outbound', stream: true } });
    assert.equal(opened.status, 201, JSON.stringify(opened.body));
    return { chatId: chat.chat_id as string, transid: opened.body.response.transid as string };
  };
  const append = (s: { chatId: string; transid: string }, seq: number, text: string, actorUserId: number | null = t.bot.user.id) =>
    appendChunk(ctx.db, { accountId: t.account.id, chatId: s.chatId, transid: s.transid, actorUserId, seq, text });
  const codeOf = (p: Promise<unknown>) =>
    p.then(
      () => 'appended',
      (err) => (err instanceof ApiError ? String(err.code) : `not an API error: ${err}`),
    );

  it('lands every stream whole and in order, and refuses a wrong chunk alone', async () => {
    const streams = await Promise.all(Array.from({ length: 24 }, openStream));
    const before = { ...streamAppends.counts };
    // Each stream's five chunks in order (each waits for the one before), all streams at once; the
    // texts carry emoji (surrogate pairs), quotes and backslashes through the shared statement, and
    // one stream sends a lone surrogate, which goes alone.
    const textOf = (i: number, seq: number) => (i === 7 && seq === 3 ? ' \uD800!' : ` ${i}.${seq} "q" \\ 😀`);
    const wrong: Promise<string>[] = [];
    await Promise.all(
      streams.map(async (s, i) => {
        for (let seq = 1; seq <= 5; seq++) {
          // Beside some chunks, a gap, a retry with another text, and a chunk by a user not holding the chat.
          if (i % 6 === 1 && seq === 2) wrong.push(codeOf(append(s, 9, ' gap')));
          if (i % 6 === 2 && seq === 3) wrong.push(codeOf(append(s, 1, ' another')));
          if (i % 6 === 3 && seq === 4) wrong.push(codeOf(append(s, seq, textOf(i, seq), t.bot.user.id + 100_000)));
          const { appended } = await append(s, seq, textOf(i, seq));
          assert.equal(appended, true, `stream ${i} chunk ${seq}`);
        }
      }),
    );
    const codes = await Promise.all(wrong);
    assert.deepEqual(codes.sort(), [...Array(4).fill('2043'), ...Array(4).fill('2045'), ...Array(4).fill('2046')].sort());
    // The shared statement was used (else this test proves nothing about it).
    const after = streamAppends.counts;
    assert.ok(after.statements > before.statements, 'no chunks went in a shared statement');
    assert.ok(after.items - before.items >= 2 * (after.statements - before.statements));

    for (const [i, s] of streams.entries()) {
      const page = await botApi('GET', `/chats/${s.chatId}/messages`, { token: t.token });
      const m = page.body.response.messages.find((x: { transid: string }) => x.transid === s.transid);
      const expected = [1, 2, 3, 4, 5].map((seq) => textOf(i, seq)).join('');
      if (i === 7) assert.equal(m.text.length, expected.length, 'the lone surrogate stream keeps its length');
      else assert.equal(m.text, expected, `stream ${i}`);
      assert.equal(m.stream_seq, 5);
      // A retried chunk is still recognised by where it ends.
      if (i !== 7) assert.equal((await append(s, 3, textOf(i, 3))).appended, false);
    }
  });
});
