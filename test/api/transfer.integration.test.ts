import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { botApi } from '../support/api-client';
import { newChat, patchChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

describe('transfer', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  before(async () => {
    t = await createTenant(ctx.db);
  });

  const transfer = (chatId: string, body: unknown) => botApi('PATCH', `/internal/chats/${chatId}`, { token: t.token, body });

  it('hands a VA\'s chat to another team\'s skill: 202, 4342, response ""', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    const res = await transfer(chat.chat_id, { transfer: { teamid: t.humanTeam.id, skill_name: 'billing' } });
    assert.equal(res.status, 202);
    assert.deepEqual(res.body, { status_code: 4342, description: 'Chat transferred successfully', response: '' });
    const after = await botApi('GET', `/chats/${chat.chat_id}`, { token: t.token });
    assert.equal(after.body.response.team_id, t.humanTeam.id);
    assert.equal(after.body.response.skill, 'billing');
    assert.equal(after.body.response.assignee, null);
    assert.equal(after.body.response.status, 'queued');
  });

  it('accepts teamid as a numeric string, as the original sample sends it', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    const res = await transfer(chat.chat_id, { transfer: { teamid: String(t.humanTeam.id) } });
    assert.equal(res.status, 202);
  });

  it('refuses onhold and closed chats with 2041 and leaves them as they were', async () => {
    for (const status of ['onhold', 'closed']) {
      const chat = await newChat(t, { assignee: t.bot.user.loginId });
      await patchChat(t, chat.chat_id, { status });
      const res = await transfer(chat.chat_id, { transfer: { teamid: t.humanTeam.id } });
      assert.equal(res.status, 409);
      assert.equal(res.body.status_code, 2041);
      const after = await botApi('GET', `/chats/${chat.chat_id}`, { token: t.token });
      assert.equal(after.body.response.team_id, t.botTeam.id);
      assert.equal(after.body.response.status, status);
    }
  });

  it('answers 2010 for an unknown team, 2034 for an unknown skill, 2000 for a bad body', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    assert.equal((await transfer(chat.chat_id, { transfer: { teamid: 424242 } })).body.status_code, 2010);
    const skill = await transfer(chat.chat_id, { transfer: { teamid: t.humanTeam.id, skill_name: 'sales' } });
    assert.equal(skill.body.status_code, 2034);
    assert.equal(skill.body.response.errors[0].field, 'transfer.skill_name');
    const bad = await transfer(chat.chat_id, { transfer: { teamid: 'seven' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.status_code, 2000);
    assert.match(bad.body.response.errors[0].field, /^transfer\.teamid/);
    assert.equal((await transfer(chat.chat_id, {})).body.status_code, 2000);
  });

  it('answers 2031 for an unknown chat', async () => {
    const res = await transfer('no-such-chat', { transfer: { teamid: t.humanTeam.id } });
    assert.equal(res.status, 404);
    assert.equal(res.body.status_code, 2031);
  });
});
