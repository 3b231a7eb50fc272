import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { botApi } from '../support/api-client';
import { newChat, patchChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { useEnv } from '../support/env';
import { expectingErrors } from '../support/logs';
import { createTenant, type Tenant } from '../support/tenant';

// Real database failures, provoked by changing this file's own fresh database under the running code.
describe('server-side failures', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  before(async () => {
    t = await createTenant(ctx.db);
  });

  it('answers 4108 when the chat details cannot be read, after the update committed', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    await ctx.db.execute(sql`ALTER TABLE messages RENAME COLUMN author_login_id TO author_gone`);
    try {
      const { logged } = await expectingErrors(['chat read failed'], async () => {
        const read = await botApi('GET', `/chats/${chat.chat_id}`, { token: t.token });
        assert.equal(read.status, 500);
        assert.deepEqual(read.body, { status_code: 4108, description: 'Unable to get the chat details', response: null });
        const patched = await patchChat(t, chat.chat_id, { tags: ['written'] });
        assert.equal(patched.body.status_code, 4108);
      });
      // Each failed read is logged for the operators, with the chat it was about.
      assert.deepEqual(
        logged.map((l) => l.fields.chatId),
        [chat.chat_id, chat.chat_id],
      );
    } finally {
      await ctx.db.execute(sql`ALTER TABLE messages RENAME COLUMN author_gone TO author_login_id`);
    }
    const after = await botApi('GET', `/chats/${chat.chat_id}`, { token: t.token });
    assert.deepEqual(after.body.response.tag, ['written']);
  });

  it('answers 2007 with a fixed description and no internals when a query fails', async () => {
    await ctx.db.execute(sql`ALTER TABLE skills RENAME TO skills_gone`);
    try {
      const { value: res, logged } = await expectingErrors(['unhandled error'], () => botApi('GET', '/teams', { token: t.token }));
      assert.equal(res.status, 500);
      assert.deepEqual(res.body, { status_code: 2007, description: 'Internal server error', response: null });
      // The cause goes to the log under the answer's trxid, not to the caller.
      const trxid = res.headers.get('trxid');
      assert.ok(trxid);
      assert.deepEqual(
        logged.map((l) => l.fields.trxid),
        [trxid],
      );
    } finally {
      await ctx.db.execute(sql`ALTER TABLE skills_gone RENAME TO skills`);
    }
  });
});

describe('rate limit', () => {
  const ctx = setupTestDatabase();
  useEnv({ RATE_LIMIT_PER_MINUTE: '5' });
  let t: Tenant;
  before(async () => {
    t = await createTenant(ctx.db);
  });

  it('counts per account and answers 2012/429 with Retry-After past the limit', async () => {
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await botApi('GET', '/teams', { token: t.token });
      assert.equal(res.status, 200);
      seen.push(Number(res.headers.get('rate-limit-remaining')));
    }
    assert.deepEqual(seen, [4, 3, 2, 1, 0]);
    const limited = await botApi('GET', '/teams', { token: t.token });
    assert.equal(limited.status, 429);
    assert.equal(limited.body.status_code, 2012);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.equal(limited.headers.get('rate-limit-remaining'), '0');
    const other = await createTenant(ctx.db);
    assert.equal((await botApi('GET', '/teams', { token: other.token })).status, 200);
  });
});
