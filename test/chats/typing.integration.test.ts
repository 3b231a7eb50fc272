import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { chats } from '@/db/schema';
import { botApi } from '../support/api-client';
import { newChat, patchChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { signedInAdminOf } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';

describe('typing indicator with a working status', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  beforeEach(async () => {
    t = await createTenant(ctx.db);
  });

  const typing = (chatId: string, body: unknown, token = t.token) => botApi('PUT', `/chats/${chatId}/typing`, { token, body });
  const chatOf = async (chatId: string) => (await botApi('GET', `/chats/${chatId}`, { token: t.token })).body.response;
  /** Moves the indicator's end into the past, as if its time had run out. */
  const expire = (chatId: string) =>
    ctx.db.update(chats).set({ typingUntil: sql`now() - interval '1 second'` }).where(eq(chats.id, chatId));

  it('turns on with a status line, shows on the chat (bot and admin), refreshes, and expires by itself', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId, channel: 'livechat' });
    assert.equal(chat.typing, null);
    const on = await typing(chat.chat_id, { on: true, ttl_seconds: 20, status_text: 'Looking up your order…' });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    assert.equal(on.body.status_code, 4311);
    const r = on.body.response;
    assert.deepEqual([r.on, r.status_text, r.shown_to_customer], [true, 'Looking up your order…', true]);
    const ttl = Date.parse(r.expires_at) - Date.now();
    assert.ok(ttl > 15_000 && ttl <= 20_000, `expires in ${ttl} ms`);
    assert.deepEqual((await chatOf(chat.chat_id)).typing, { on: true, expires_at: r.expires_at, status_text: 'Looking up your order…' });
    const admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
    const seen = await admin.get(`/chats/${chat.chat_id}`);
    assert.equal(seen.status, 200, JSON.stringify(seen.body));
    assert.deepEqual(seen.body.response.typing, { on: true, expires_at: r.expires_at, status_text: 'Looking up your order…' });

    // Refreshed: the default ttl (10 s) and no status line this time.
    const again = (await typing(chat.chat_id, { on: true })).body.response;
    assert.equal(again.status_text, null);
    const left = Date.parse(again.expires_at) - Date.now();
    assert.ok(left > 5_000 && left <= 10_000, `expires in ${left} ms`);
    assert.equal((await chatOf(chat.chat_id)).typing.expires_at, again.expires_at);

    await expire(chat.chat_id);
    assert.equal((await chatOf(chat.chat_id)).typing, null);
  });

  it('says shown_to_customer false on channels that cannot show it, and turns off on request', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId, channel: 'sms' });
    const on = (await typing(chat.chat_id, { on: true, ttl_seconds: 5 })).body.response;
    assert.deepEqual([on.on, on.shown_to_customer], [true, false]);
    const off = await typing(chat.chat_id, { on: false });
    assert.equal(off.status, 200);
    assert.deepEqual(off.body.response, { on: false, expires_at: null, status_text: null, shown_to_customer: false });
    assert.equal((await chatOf(chat.chat_id)).typing, null);
  });

  it("is cleared by the VA's next outbound message", async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    await typing(chat.chat_id, { on: true, ttl_seconds: 60 });
    const inbound = await botApi('POST', `/chats/${chat.chat_id}/messages`, {
      token: t.token,
      body: { type: 'announcement', text: 'note' },
    });
    assert.equal(inbound.status, 201);
    assert.equal((await chatOf(chat.chat_id)).typing?.on, true, 'an announcement does not clear it');
    const reply = await botApi('POST', `/chats/${chat.chat_id}/messages`, {
      token: t.token,
      body: { type: 'outbound', text: 'Here it is' },
    });
    assert.equal(reply.status, 201);
    assert.equal((await chatOf(chat.chat_id)).typing, null);
  });

  it('is cleared by a transfer and by a close', async () => {
    const moved = await newChat(t, { assignee: t.bot.user.loginId });
    await typing(moved.chat_id, { on: true, ttl_seconds: 60, status_text: 'Thinking' });
    const tr = await botApi('PATCH', `/internal/chats/${moved.chat_id}`, {
      token: t.token,
      body: { transfer: { teamid: t.humanTeam.id } },
    });
    assert.equal(tr.status, 202, JSON.stringify(tr.body));
    const after = await chatOf(moved.chat_id);
    assert.deepEqual([after.typing, after.assignee], [null, null]);

    const closed = await newChat(t, { assignee: t.bot.user.loginId });
    await typing(closed.chat_id, { on: true, ttl_seconds: 60 });
    assert.equal((await patchChat(t, closed.chat_id, { status: 'closed' })).status, 200);
    assert.equal((await chatOf(closed.chat_id)).typing, null);
    const late = await typing(closed.chat_id, { on: true });
    assert.deepEqual([late.status, late.body.status_code], [409, 2040]);
  });

  it('refuses other VAs of the account (2043), other accounts (2031) and bad input (2000)', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    const queued = await newChat(t);
    const other = await createTenant(ctx.db);
    const { createVirtualAgent } = await import('@/lib/virtual-agents/create-virtual-agent');
    const { authorize } = await import('@/lib/bot-auth/authorize');
    const second = await createVirtualAgent(ctx.db, {
      accountId: t.account.id,
      name: 'Second bot',
      description: 'another',
      webhookUrl: 'http://127.0.0.1:9/hook',
      teamId: t.botTeam.id,
    });
    const secondToken = (await authorize(ctx.db, { apiKey: second.apiKey })).accessToken;
    const byOther = await typing(chat.chat_id, { on: true }, secondToken);
    assert.deepEqual([byOther.status, byOther.body.status_code], [403, 2043]);
    const onQueued = await typing(queued.chat_id, { on: true });
    assert.deepEqual([onQueued.status, onQueued.body.status_code], [403, 2043]);
    const otherAccount = await typing(chat.chat_id, { on: true }, other.token);
    assert.deepEqual([otherAccount.status, otherAccount.body.status_code], [404, 2031]);
    for (const body of [
      { on: true, ttl_seconds: 61 },
      { on: true, ttl_seconds: 0 },
      { on: true, status_text: 'x'.repeat(121) },
      { on: false, ttl_seconds: 5 },
      {},
    ]) {
      const bad = await typing(chat.chat_id, body);
      assert.deepEqual([bad.status, bad.body.status_code], [400, 2000], JSON.stringify(body));
    }
    assert.equal((await chatOf(chat.chat_id)).typing, null, 'nothing was written');
  });
});
