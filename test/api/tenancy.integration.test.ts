import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { botApi } from '../support/api-client';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

describe('tenancy', () => {
  const ctx = setupTestDatabase();
  let owner: Tenant;
  let other: Tenant;
  let chatId: string;
  let before_: unknown;
  before(async () => {
    owner = await createTenant(ctx.db);
    other = await createTenant(ctx.db);
    chatId = (await newChat(owner, { assignee: owner.bot.user.loginId, tags: ['mine'], messages: [{ type: 'inbound', text: 'secret' }] }))
      .chat_id;
    before_ = (await botApi('GET', `/chats/${chatId}`, { token: owner.token })).body.response;
  });

  const attempts = (): [string, string, Record<string, unknown>][] => [
    ['GET', `/chats/${chatId}`, {}],
    ['PATCH', `/chats/${chatId}`, { headers: { team_id: String(owner.botTeam.id) }, body: { tags: ['stolen'] } }],
    ['PATCH', `/chats/${chatId}`, { headers: { team_id: String(other.botTeam.id) }, body: { status: 'closed' } }],
    ['GET', `/chats/${chatId}/messages`, {}],
    ['POST', `/chats/${chatId}/messages`, { body: { type: 'outbound', text: 'hi from elsewhere' } }],
    ['PATCH', `/internal/chats/${chatId}`, { body: { transfer: { teamid: other.botTeam.id } } }],
  ];

  it("answers 2031 on every chat endpoint to another account's token, and changes nothing", async () => {
    for (const [method, path, opts] of attempts()) {
      const res = await botApi(method, path, { token: other.token, ...opts });
      // The owner's team is not the other account's either: the header check answers first.
      const expected = (opts.headers as Record<string, string> | undefined)?.team_id === String(owner.botTeam.id) ? 2010 : 2031;
      assert.equal(res.body.status_code, expected, `${method} ${path}: ${JSON.stringify(res.body)}`);
    }
    const now = (await botApi('GET', `/chats/${chatId}`, { token: owner.token })).body.response;
    assert.deepEqual(now, before_);
  });

  it("does not list another account's chats or teams", async () => {
    const list = await botApi('GET', '/chats?page_size=100', { token: other.token });
    assert.ok(list.body.response.chats.every((c: { chat_id: string }) => c.chat_id !== chatId));
    const teams = await botApi('GET', '/teams', { token: other.token });
    assert.deepEqual(teams.body.response.map((x: { team_id: number }) => x.team_id).sort(), [other.botTeam.id, other.humanTeam.id].sort());
  });

  it("cannot create a chat on another account's asset or assign to its users", async () => {
    const asset = await botApi('POST', '/chats', {
      token: other.token,
      body: { channel: 'sms', asset_id: owner.assets.sms.id, customer: { destination_id: '+1' } },
    });
    assert.equal(asset.body.status_code, 2032);
    const user = await botApi('POST', '/chats', {
      token: other.token,
      body: { channel: 'sms', asset_id: other.assets.sms.id, customer: { destination_id: '+1' }, assignee: owner.bot.user.loginId },
    });
    assert.equal(user.body.status_code, 2033);
  });
});
