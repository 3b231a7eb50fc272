import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { messages } from '@/db/schema';
import { lockChat } from '@/lib/chats/lock-chat';
import { noteChatChange, withOutbox } from '@/lib/events/with-outbox';
import { botApi } from '../support/api-client';
import { chatChangesHeard, newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

describe('one publisher for chat changes (withOutbox)', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  const { heard, listen } = chatChangesHeard();
  beforeEach(async () => {
    t = await createTenant(ctx.db);
  });

  it('publishes a noted change with its data after the commit, and nothing when the transaction fails', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId, channel: 'livechat' });
    listen(chat.chat_id);
    await assert.rejects(
      withOutbox(ctx.db, async (tx) => {
        await lockChat(tx, { accountId: t.account.id, chatId: chat.chat_id });
        noteChatChange(tx, chat.chat_id, t.account.id, { kind: 'streams-cut' });
        throw new Error('rolled back');
      }),
      /rolled back/,
    );
    assert.deepEqual(heard, [], 'a rolled-back change is published');
    await withOutbox(ctx.db, async (tx) => {
      await lockChat(tx, { accountId: t.account.id, chatId: chat.chat_id });
      noteChatChange(tx, chat.chat_id, t.account.id, { kind: 'streams-cut' });
    });
    assert.deepEqual(heard, [{ kind: 'streams-cut' }]);
  });

  it('carries the data of each streamed-reply change: the chunk, typing, the close', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId, channel: 'livechat' });
    listen(chat.chat_id);
    const typing = await botApi('PUT', `/chats/${chat.chat_id}/typing`, { token: t.token, body: { on: true, status_text: 'Looking' } });
    assert.equal(typing.status, 200, JSON.stringify(typing.body));
    const opened = await botApi('POST', `/chats/${chat.chat_id}/messages`, {
      token: t.token,
      body: { type: 'outbound', text: 'Your ', stream: true },
    });
    assert.equal(opened.status, 201, JSON.stringify(opened.body));
    const transid = opened.body.response.transid;
    const [row] = await ctx.db.select({ id: messages.id }).from(messages).where(eq(messages.transid, transid));
    const chunk = await botApi('POST', `/chats/${chat.chat_id}/messages/${transid}/chunks`, {
      token: t.token,
      body: { seq: 1, text: 'order' },
    });
    assert.equal(chunk.status, 200, JSON.stringify(chunk.body));
    const closed = await botApi('PATCH', `/chats/${chat.chat_id}/messages/${transid}`, {
      token: t.token,
      body: { stream_state: 'closed' },
    });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    const kinds = heard.map((c) => c?.kind);
    const typingChange = heard.find((c) => c?.kind === 'typing');
    assert.deepEqual(
      typingChange && { ...typingChange, expiresAt: null },
      { kind: 'typing', on: true, statusText: 'Looking', expiresAt: null },
      `changes heard: ${JSON.stringify(kinds)}`,
    );
    assert.deepEqual(
      heard.find((c) => c?.kind === 'chunk'),
      { kind: 'chunk', messageId: row.id, seq: 1, text: 'order' },
      `changes heard: ${JSON.stringify(kinds)}`,
    );
    const opening = heard.find((c) => c?.kind === 'stream-opened');
    assert.deepEqual(
      opening && { ...opening, message: { ...opening.message, sentAt: null } },
      {
        kind: 'stream-opened',
        message: { id: row.id, type: 'outbound', body: { text: 'Your ' }, sentAt: null },
        prevId: 0,
        typingOff: true,
      },
      `changes heard: ${JSON.stringify(kinds)}`,
    );
    const close = heard.at(-1);
    assert.deepEqual(
      close?.kind === 'stream-closed' ? { ...close, message: { ...close.message, sentAt: null } } : close,
      {
        kind: 'stream-closed',
        messageId: row.id,
        message: { id: row.id, type: 'outbound', body: { text: 'Your order' }, sentAt: null },
        lastId: row.id,
      },
      `changes heard: ${JSON.stringify(kinds)}`,
    );
  });

  it('does not compile a change noted, or a chat locked, outside a withOutbox transaction', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    // Type checks (npm run typecheck), kept from running: the handle only withOutbox makes is required.
    const outside = () =>
      ctx.db.transaction(async (tx) => {
        // @ts-expect-error a plain transaction is not a withOutbox handle
        noteChatChange(tx, chat.chat_id, t.account.id);
        // @ts-expect-error lockChat notes the change, so it asks for the handle too
        await lockChat(tx, { accountId: t.account.id, chatId: chat.chat_id });
      });
    assert.equal(typeof outside, 'function');
  });
});
