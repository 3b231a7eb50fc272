import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { signedInAdminOf } from '../support/admin-api';
import { botApi } from '../support/bot-api';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

// The document says `format: date-time` (RFC 3339), which allows a lower-case `t` and `z`: both spellings work.
describe('date-time inputs', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  before(async () => {
    t = await createTenant(ctx.db);
  });

  for (const [label, stamp] of [
    ['upper case', '2025-03-01T10:15:00Z'],
    ['lower case', '2025-03-01t10:15:00z'],
  ] as const) {
    it(`takes a message timestamp and an updated_since filter in ${label}`, async () => {
      const chat = await newChat(t, { assignee: t.bot.user.loginId });
      const posted = await botApi('POST', `/chats/${chat.chat_id}/messages`, {
        token: t.token,
        body: { type: 'outbound', text: 'hello', timestamp: stamp },
      });
      assert.equal(posted.status, 201, JSON.stringify(posted.body));
      assert.equal(Date.parse(posted.body.response.timestamp), Date.parse('2025-03-01T10:15:00Z'));
      const listed = await botApi('GET', `/chats?updated_since=${encodeURIComponent(stamp)}`, { token: t.token });
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.ok(listed.body.response.chats.some((c: { chat_id: string }) => c.chat_id === chat.chat_id));
    });
  }

  it('takes both spellings in every admin date-time input (audit and bot-request filters, a recovery window)', async () => {
    const { client } = await signedInAdminOf(ctx.db, t.account.id);
    for (const stamp of ['2025-03-01T10:15:00Z', '2025-03-01t10:15:00z', '2025-03-01t11:15:00+01:00']) {
      const q = `since=${encodeURIComponent(stamp)}&until=${encodeURIComponent(stamp.replace('2025', '2099'))}`;
      const audit = await client.get(`/audit-entries?${q}`);
      assert.equal(audit.status, 200, `${stamp}: ${JSON.stringify(audit.body)}`);
      const calls = await client.get(`/bot-requests?virtual_agent_id=${t.bot.user.id}&${q}`);
      assert.equal(calls.status, 200, `${stamp}: ${JSON.stringify(calls.body)}`);
    }
    const recovery = await client.post(`/virtual-agents/${t.bot.user.id}/recoveries`, { since: '2025-03-01t10:15:00z' });
    assert.equal(recovery.status, 201, JSON.stringify(recovery.body));
    assert.equal(recovery.body.response.since, '2025-03-01T10:15:00.000Z');
    const wrong = await client.get('/audit-entries?since=2025-03-01');
    assert.equal(wrong.body.status_code, 2001);
    assert.match(wrong.body.description, /since/);
  });

  it('refuses a date that is not RFC 3339, naming the field', async () => {
    const listed = await botApi('GET', '/chats?updated_since=2025-03-01', { token: t.token });
    assert.equal(listed.body.status_code, 2001);
    assert.match(listed.body.description, /updated_since/);
  });
});
