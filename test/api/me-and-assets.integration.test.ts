import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { events } from '@/db/schema';
import { createAsset } from '@/lib/assets/create-asset';
import { type ApiClient, botApi } from '../support/api-client';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { signedInAdminOf } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';

describe('what a bot can ask: who it is, the assets, the team of its chats', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let admin: ApiClient;
  before(async () => {
    t = await createTenant(ctx.db, { subscriptions: ['chat.assigned', 'message.received', 'chat.unassigned'] });
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
  });

  it('GET /me answers the calling VA: login ID, name, team and subscriptions', async () => {
    const res = await botApi('GET', '/me', { token: t.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status_code, 4307);
    assert.deepEqual(res.body.response, {
      login_id: t.bot.user.loginId,
      name: t.bot.user.name,
      description: 'Answers first',
      team_id: t.botTeam.id,
      team_name: t.botTeam.name,
      subscriptions: ['chat.assigned', 'message.received', 'chat.unassigned'],
      fallback_team_id: null,
    });
    assert.equal((await botApi('GET', '/me', { token: 'nope' })).body.status_code, 2003);
  });

  it("GET /assets pages through the account's assets by id, optionally of one channel", async () => {
    const other = await createTenant(ctx.db);
    const extra = await createAsset(ctx.db, { accountId: t.account.id, channel: 'sms', name: 'Second line', address: '+15551234567' });
    const seen: { id: number; channel: string; address: string | null }[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `?page_size=3&cursor=${cursor}` : '?page_size=3';
      const res = await botApi('GET', `/assets${q}`, { token: t.token });
      assert.equal(res.body.status_code, 4308, JSON.stringify(res.body));
      assert.ok(res.body.response.assets.length <= 3);
      seen.push(...res.body.response.assets);
      cursor = res.body.response.next_cursor;
    } while (cursor);
    assert.equal(seen.length, 9, 'eight channels of the tenant and the second sms line');
    assert.deepEqual(
      seen.map((a) => a.id),
      [...seen.map((a) => a.id)].sort((x, y) => x - y),
    );
    assert.ok(!seen.some((a) => a.id === other.assets.sms.id), "another account's assets never show");
    const sms = (await botApi('GET', '/assets?channel=sms', { token: t.token })).body.response.assets;
    assert.deepEqual(
      sms.map((a: { id: number }) => a.id),
      [t.assets.sms.id, extra.id],
    );
    assert.equal(sms[1].address, '+15551234567');
    const bad = await botApi('GET', '/assets?cursor=notours', { token: t.token });
    assert.equal(bad.body.status_code, 2001);
  });

  it('an administrator renames an asset and sets or removes its address; events then carry the new address', async () => {
    const res = await admin.patch(`/assets/${t.assets.livechat.id}`, { name: 'Website chat', address: 'app-42' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.response.name, res.body.response.address], ['Website chat', 'app-42']);
    const chat = await newChat(t, { channel: 'livechat', assignee: t.bot.user.loginId });
    const [event] = await ctx.db.select().from(events).where(eq(events.chatId, chat.chat_id));
    assert.equal(event.body.asset_address, 'app-42');
    assert.equal((await admin.patch(`/assets/${t.assets.livechat.id}`, { address: null })).body.response.address, null);
    assert.equal((await admin.patch(`/assets/${t.assets.livechat.id}`, {})).body.status_code, 2000);
    assert.equal((await admin.patch('/assets/999999', { name: 'x' })).body.status_code, 3006);
    assert.equal((await admin.patch(`/assets/${t.assets.livechat.id}`, { channel: 'sms' })).body.status_code, 2000);
  });

  it('a disabled asset refuses new chats with 2035 while its chats carry on; enabled again, it takes new ones', async () => {
    const asset = await createAsset(ctx.db, { accountId: t.account.id, channel: 'sms', name: 'Old number', address: '+15557654321' });
    const create = () =>
      botApi('POST', '/chats', {
        token: t.token,
        body: { channel: 'sms', asset_id: asset.id, customer: { destination_id: '+15550001' }, assignee: t.bot.user.loginId },
      });
    const held = await create();
    assert.equal(held.status, 201, JSON.stringify(held.body));
    const chatId = held.body.response.chat_id;

    assert.equal((await admin.patch(`/assets/${asset.id}`, { enabled: false })).status, 200);
    const refused = await create();
    assert.equal(refused.status, 409);
    assert.equal(refused.body.status_code, 2035);
    assert.deepEqual(refused.body.response.errors, [{ field: 'asset_id', message: 'the asset is disabled' }]);
    const listed = (await botApi('GET', '/assets?channel=sms', { token: t.token })).body.response.assets;
    assert.equal(listed.find((a: { id: number }) => a.id === asset.id).enabled, false);

    // The chat on it carries on: the customer writes, the bot answers, it is handed over.
    const inbound = await botApi('POST', `/chats/${chatId}/messages`, { token: t.token, body: { type: 'inbound', text: 'still there?' } });
    assert.equal(inbound.status, 201, JSON.stringify(inbound.body));
    const reply = await botApi('POST', `/chats/${chatId}/messages`, { token: t.token, body: { type: 'outbound', text: 'yes' } });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    const chat = await botApi('GET', `/chats/${chatId}`, { token: t.token });
    assert.equal(chat.body.response.asset.id, asset.id);

    assert.equal((await admin.patch(`/assets/${asset.id}`, { enabled: true })).status, 200);
    assert.equal((await create()).status, 201);
  });

  it("events carry the chat's team_id, the header the bot's next PATCH needs", async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    const [assigned] = await ctx.db.select().from(events).where(eq(events.chatId, chat.chat_id));
    assert.equal(assigned.body.team_id, t.botTeam.id);
    const moved = await botApi('PATCH', `/internal/chats/${chat.chat_id}`, {
      token: t.token,
      body: { transfer: { teamid: t.humanTeam.id } },
    });
    assert.equal(moved.status, 202);
    const all = await ctx.db.select().from(events).where(eq(events.chatId, chat.chat_id)).orderBy(events.seq);
    assert.equal(all.at(-1)?.eventType, 'chat.unassigned');
    assert.equal(all.at(-1)?.body.team_id, t.humanTeam.id);
  });

  it("a quick-reply answer's postback is the chosen option's payload, filled from the offer", async () => {
    const chat = await newChat(t, { channel: 'livechat', assignee: t.bot.user.loginId });
    const offer = await botApi('POST', `/chats/${chat.chat_id}/messages`, {
      token: t.token,
      body: {
        type: 'outbound',
        text: 'How did you pay?',
        livechat_sub_type: 'quick_replies',
        quick_replies: {
          request_identifier: 'req-pay-1',
          options: [
            { title: 'Card', payload: 'pay_card' },
            { title: 'Bank transfer', payload: 'pay_bank' },
          ],
        },
      },
    });
    assert.equal(offer.status, 201, JSON.stringify(offer.body));
    const answer = await botApi('POST', `/chats/${chat.chat_id}/messages`, {
      token: t.token,
      body: {
        type: 'inbound',
        livechat_sub_type: 'quick_reply_response',
        quick_reply_response: { request_identifier: 'req-pay-1', options: [{ title: 'Bank transfer' }] },
      },
    });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.response.quick_reply_response.options, [{ title: 'Bank transfer', payload: 'pay_bank' }]);
    const received = (await ctx.db.select().from(events).where(eq(events.chatId, chat.chat_id))).find(
      (e) => e.eventType === 'message.received',
    );
    const entry = (received!.body.payload as { messages: { interactive_response: unknown }[] }).messages[0];
    assert.deepEqual(entry.interactive_response, { title: 'Bank transfer', postback: 'pay_bank' });

    // No offer with that identifier in the chat: the title stands in.
    const orphan = await botApi('POST', `/chats/${chat.chat_id}/messages`, {
      token: t.token,
      body: { type: 'inbound', quick_reply_response: { request_identifier: 'unknown', options: [{ title: 'Card' }] } },
    });
    assert.equal(orphan.status, 201);
    const last = (await ctx.db.select().from(events).where(eq(events.chatId, chat.chat_id)).orderBy(events.seq)).at(-1);
    assert.deepEqual((last!.body.payload as { messages: { interactive_response: unknown }[] }).messages[0].interactive_response, {
      title: 'Card',
      postback: 'Card',
    });
  });
});
