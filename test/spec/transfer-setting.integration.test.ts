import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { type ApiClient, botApi } from '../support/api-client';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { signedInAdmin, signedInAdminOf } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';

describe('account transfer setting', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let platform: ApiClient;
  let own: ApiClient;
  before(async () => {
    t = await createTenant(ctx.db);
    platform = (await signedInAdmin(ctx.db, { platform: true })).client;
    own = (await signedInAdminOf(ctx.db, t.account.id)).client;
  });

  const transfer = (chatId: string) =>
    botApi('PATCH', `/internal/chats/${chatId}`, { token: t.token, body: { transfer: { teamid: t.humanTeam.id } } });

  it('is on for a new account and shown to its administrators', async () => {
    const me = await own.get('/me');
    assert.equal(me.body.response.account.transfer_enabled, true);
    const listed = await own.get('/accounts');
    assert.equal(listed.body.response[0].transfer_enabled, true);
    const created = await platform.post('/accounts', {
      name: 'Fresh',
      admin_email: 'fresh@example.test',
      admin_password: 'long enough pw',
    });
    assert.equal(created.body.response.transfer_enabled, true);
  });

  it("cannot be changed by the account's own administrators", async () => {
    const res = await own.patch(`/accounts/${t.account.id}`, { transfer_enabled: false });
    assert.equal(res.status, 403);
    assert.equal(res.body.status_code, 3003);
    assert.equal((await own.get('/me')).body.response.account.transfer_enabled, true);
  });

  it('when a platform administrator turns it off, bot transfers are refused with 2042 and change nothing; on again, they work', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    const off = await platform.patch(`/accounts/${t.account.id}`, { transfer_enabled: false });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.equal(off.body.response.transfer_enabled, false);
    assert.equal((await own.get('/me')).body.response.account.transfer_enabled, false);

    const refused = await transfer(chat.chat_id);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.status_code, 2042);
    const still = await botApi('GET', `/chats/${chat.chat_id}`, { token: t.token });
    assert.equal(still.body.response.team_id, t.botTeam.id);
    assert.equal(still.body.response.assignee, t.bot.user.loginId);

    assert.equal((await platform.patch(`/accounts/${t.account.id}`, { transfer_enabled: true })).status, 200);
    const done = await transfer(chat.chat_id);
    assert.equal(done.status, 202, JSON.stringify(done.body));
  });

  it('answers 3006 for an unknown account and 2000 for a wrong body', async () => {
    assert.equal((await platform.patch('/accounts/2147483000', { transfer_enabled: false })).body.status_code, 3006);
    assert.equal((await platform.patch(`/accounts/${t.account.id}`, { transfer_enabled: 'no' })).body.status_code, 2000);
    assert.equal((await platform.patch(`/accounts/${t.account.id}`, { name: 'x' })).body.status_code, 2000);
  });
});
