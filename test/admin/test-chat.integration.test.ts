import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { assets, chats, events } from '@/db/schema';
import { TEST_CHAT_TEXT } from '@/lib/virtual-agents/start-test-chat';
import type { ApiClient } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { signedInAdmin, signedInAdminOf } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';

// "Start a test chat" on a VA's page: POST /api/admin/virtual-agents/{id}/test-chats.
describe('admin: start a test chat for a virtual agent', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let admin: ApiClient;
  before(async () => {
    t = await createTenant(ctx.db);
    ({ client: admin } = await signedInAdminOf(ctx.db, t.account.id));
  });

  it('creates a chat assigned to the VA on the api asset, with the first customer message, and emits chat.assigned', async () => {
    const res = await admin.post(`/virtual-agents/${t.bot.user.id}/test-chats`, {});
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.status_code, 4401);
    const { chat_id, channel, assignee } = res.body.response;
    assert.equal(channel, 'api');
    assert.equal(assignee, t.bot.user.loginId);
    const detail = await admin.get(`/chats/${chat_id}`);
    assert.equal(detail.status, 200);
    const chat = detail.body.response;
    assert.equal(chat.assignee, t.bot.user.loginId);
    assert.equal(chat.status, 'picked');
    assert.equal(chat.asset.id, t.assets.api.id);
    assert.equal(chat.customer.name, 'Test customer');
    assert.match(chat.customer.destination_id, /^test-/);
    const [row] = await ctx.db.select().from(chats).where(eq(chats.id, chat_id));
    assert.equal(row.teamId, t.botTeam.id);
    const assigned = await ctx.db
      .select()
      .from(events)
      .where(and(eq(events.chatId, chat_id), eq(events.eventType, 'chat.assigned')));
    assert.equal(assigned.length, 1);
    assert.equal(assigned[0].virtualAgentId, t.bot.user.id);
    assert.ok(JSON.stringify(assigned[0]).includes(TEST_CHAT_TEXT));
    // The console then writes as the customer on the chat's page: the same chat takes it.
    const more = await admin.post(`/chats/${chat_id}/messages`, { type: 'inbound', text: 'A second line' });
    assert.equal(more.status, 201, JSON.stringify(more.body));
  });

  it('takes the first message from the body, and falls back to another asset when there is no enabled api asset', async () => {
    await ctx.db.update(assets).set({ disabledAt: new Date() }).where(eq(assets.id, t.assets.api.id));
    try {
      const res = await admin.post(`/virtual-agents/${t.bot.user.id}/test-chats`, { text: 'My order is late' });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.notEqual(res.body.response.channel, 'api');
      const detail = await admin.get(`/chats/${res.body.response.chat_id}`);
      assert.ok(JSON.stringify(detail.body.response).includes('My order is late'));
    } finally {
      await ctx.db.update(assets).set({ disabledAt: null }).where(eq(assets.id, t.assets.api.id));
    }
  });

  it('refuses a VA of another account (3006), a disabled VA and an account without assets (3008), an unknown key (2000), writing no chat', async () => {
    const before = (await ctx.db.select().from(chats).where(eq(chats.accountId, t.account.id))).length;
    const stranger = await signedInAdmin(ctx.db);
    const elsewhere = await stranger.client.post(`/virtual-agents/${t.bot.user.id}/test-chats`, {});
    assert.equal(elsewhere.status, 404);
    assert.equal(elsewhere.body.status_code, 3006);
    const bad = await admin.post(`/virtual-agents/${t.bot.user.id}/test-chats`, { txt: 'hi' });
    assert.equal(bad.body.status_code, 2000);
    assert.match(bad.body.description, /did you mean `text`/);
    assert.equal((await admin.patch(`/virtual-agents/${t.bot.user.id}`, { enabled: false })).status, 200);
    const disabled = await admin.post(`/virtual-agents/${t.bot.user.id}/test-chats`, {});
    assert.equal(disabled.status, 409);
    assert.equal(disabled.body.status_code, 3008);
    assert.match(disabled.body.description, /disabled/);
    assert.equal((await admin.patch(`/virtual-agents/${t.bot.user.id}`, { enabled: true })).status, 200);
    assert.equal((await ctx.db.select().from(chats).where(eq(chats.accountId, t.account.id))).length, before);

    const va = await stranger.client.post('/teams', { name: 'Bots', auto_assign: false, skills: [] });
    const created = await stranger.client.post('/virtual-agents', {
      name: 'Lonely bot',
      description: 'No assets',
      webhook_url: 'http://127.0.0.1:9/hook',
      subscriptions: ['chat.assigned'],
      team_id: va.body.response.id,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const noAsset = await stranger.client.post(`/virtual-agents/${created.body.response.id}/test-chats`, {});
    assert.equal(noAsset.body.status_code, 3008);
    assert.match(noAsset.body.description, /asset/);
  });
});
