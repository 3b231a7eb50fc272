import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { messages } from '@/db/schema';
import { botApi } from '../support/api-client';
import { newChat, patchChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

// Errors and headers that tell a bot developer what to do next.
describe('answers that say what to do', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  before(async () => {
    t = await createTenant(ctx.db);
  });

  it('a missing access_token or team_id (2002) mentions proxies that drop header names with underscores', async () => {
    const noToken = await botApi('GET', '/teams');
    assert.equal(noToken.status, 400);
    assert.equal(noToken.body.status_code, 2002);
    assert.match(noToken.body.description, /access_token header is required/);
    assert.match(noToken.body.description, /underscores_in_headers on;/);
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    const noTeam = await botApi('PATCH', `/chats/${chat.chat_id}`, { token: t.token, body: { tags: [] } });
    assert.equal(noTeam.body.status_code, 2002);
    assert.equal(noTeam.body.response.errors[0].field, 'header.team_id');
    assert.match(noTeam.body.description, /header names with underscores/);
    // A team_id that arrived but is wrong is not about proxies.
    const badTeam = await botApi('PATCH', `/chats/${chat.chat_id}`, { token: t.token, headers: { team_id: 'x' }, body: { tags: [] } });
    assert.equal(badTeam.body.status_code, 2002);
    assert.doesNotMatch(badTeam.body.description, /underscores/);
  });

  it('an unknown key close to a known one answers "did you mean" (transfer.team_id → teamid)', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    const res = await botApi('PATCH', `/internal/chats/${chat.chat_id}`, {
      token: t.token,
      body: { transfer: { team_id: t.humanTeam.id } },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.status_code, 2000);
    assert.deepEqual(res.body.response.errors, [
      { field: 'transfer.team_id', message: 'unknown key: did you mean `teamid`?' },
      { field: 'transfer.teamid', message: 'Required' },
    ]);
    assert.equal(
      res.body.description,
      'Invalid request body: transfer.team_id (unknown key: did you mean `teamid`?); transfer.teamid (Required)',
    );
    const tag = await patchChat(t, chat.chat_id, { tag: ['vip'], zzzzzz: 1 });
    assert.equal(tag.body.status_code, 2000);
    assert.deepEqual(tag.body.response.errors, [
      { field: 'tag', message: 'unknown key: did you mean `tags`?' },
      { field: '(body)', message: "Unrecognized key(s) in object: 'zzzzzz'" },
    ]);
    // An ending added to a known key: `streaming` for `stream`.
    const streaming = await botApi('POST', `/chats/${chat.chat_id}/messages`, {
      token: t.token,
      body: { type: 'outbound', streaming: true },
    });
    assert.equal(streaming.body.status_code, 2000, JSON.stringify(streaming.body));
    assert.deepEqual(streaming.body.response.errors[0], { field: 'streaming', message: 'unknown key: did you mean `stream`?' });
    const read = await botApi('GET', `/chats/${chat.chat_id}`, { token: t.token });
    assert.equal(read.body.response.assignee, t.bot.user.loginId);
    assert.deepEqual(read.body.response.tag, []);
  });

  it('a replayed idempotent POST carries Idempotent-Replayed: true; a first one does not', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    const send = () =>
      botApi('POST', `/chats/${chat.chat_id}/messages`, {
        token: t.token,
        headers: { 'idempotency-key': 'replay-1' },
        body: { type: 'outbound', text: 'once' },
      });
    const first = await send();
    const again = await send();
    assert.equal(first.status, 201);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    assert.equal((await ctx.db.select().from(messages).where(eq(messages.chatId, chat.chat_id))).length, 1);

    const body = {
      channel: 'sms',
      asset_id: t.assets.sms.id,
      customer: { destination_id: '+15550001111' },
      team_id: t.botTeam.id,
    };
    const create = () => botApi('POST', '/chats', { token: t.token, headers: { 'idempotency-key': 'chat-replay' }, body });
    const c1 = await create();
    const c2 = await create();
    assert.equal(c1.status, 201);
    assert.equal(c1.headers.get('idempotent-replayed'), null);
    assert.equal(c2.headers.get('idempotent-replayed'), 'true');
    assert.equal(c2.body.response.chat_id, c1.body.response.chat_id);
    // Without a key nothing is a replay.
    const plain = await botApi('POST', `/chats/${chat.chat_id}/messages`, { token: t.token, body: { type: 'outbound', text: 'x' } });
    assert.equal(plain.headers.get('idempotent-replayed'), null);
  });
});
