import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { botApi } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

describe('smoke', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  before(async () => {
    t = await createTenant(ctx.db);
  });

  it('creates, reads and tags a chat', async () => {
    const created = await botApi('POST', '/chats', {
      token: t.token,
      body: {
        channel: 'sms',
        asset_id: t.assets.sms.id,
        customer: { destination_id: '+15550001', name: 'Ann' },
        assignee: t.bot.user.loginId,
        messages: [{ type: 'inbound', text: 'hi' }],
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const chatId = created.body.response.chat_id;
    const patched = await botApi('PATCH', `/chats/${chatId}`, {
      token: t.token,
      headers: { team_id: String(t.botTeam.id) },
      body: { tags: ['a', 'b'] },
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual(patched.body.response.tag, ['a', 'b']);
    console.log(JSON.stringify(patched.body, null, 1));
  });
});
