import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { virtualAgents } from '@/db/schema';
import { type ApiClient, botApi } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { signedInAdminOf } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';

describe('API key rotation', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let admin: ApiClient;
  before(async () => {
    t = await createTenant(ctx.db);
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
  });
  const authorize = (apiKey: string) => botApi('POST', '/authorize', { body: { api_key: apiKey } });

  it('with overlap: both keys authorize and the old tokens live on until the overlap ends', async () => {
    const oldKey = (await admin.post(`/virtual-agents/${t.bot.user.id}/rotate-key`)).body.response.api_key as string;
    const oldToken = (await authorize(oldKey)).body.response.access_token;

    const rolled = await admin.post(`/virtual-agents/${t.bot.user.id}/rotate-key`, { mode: 'overlap' });
    assert.equal(rolled.status, 200, JSON.stringify(rolled.body));
    const until = Date.parse(rolled.body.response.previous_valid_until);
    assert.ok(until > Date.now() + 23 * 3600_000);
    assert.equal((await authorize(oldKey)).status, 200, 'the old key still authorizes');
    assert.equal((await authorize(rolled.body.response.api_key)).status, 200);
    assert.equal((await botApi('GET', '/teams', { token: oldToken })).status, 200, 'tokens of the old key still work');
    const shown = (await admin.get(`/virtual-agents/${t.bot.user.id}`)).body.response;
    assert.equal(shown.previous_api_key_valid_until, rolled.body.response.previous_valid_until);

    await ctx.db
      .update(virtualAgents)
      .set({ previousApiKeyExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(virtualAgents.userId, t.bot.user.id));
    assert.equal((await authorize(oldKey)).body.status_code, 2005, 'after the overlap the old key is refused');
    assert.equal((await authorize(rolled.body.response.api_key)).status, 200);
  });

  it('at once (the default): the old key and its tokens stop now, including a key kept by an earlier overlap', async () => {
    const first = (await admin.post(`/virtual-agents/${t.bot.user.id}/rotate-key`)).body.response.api_key as string;
    const second = (await admin.post(`/virtual-agents/${t.bot.user.id}/rotate-key`, { mode: 'overlap' })).body.response.api_key;
    const token = (await authorize(second)).body.response.access_token;
    const third = await admin.post(`/virtual-agents/${t.bot.user.id}/rotate-key`, { mode: 'at_once' });
    assert.equal(third.body.response.previous_valid_until, null);
    assert.equal((await authorize(first)).body.status_code, 2005);
    assert.equal((await authorize(second)).body.status_code, 2005);
    assert.equal((await botApi('GET', '/teams', { token })).body.status_code, 2003);
    assert.equal((await authorize(third.body.response.api_key)).status, 200);
  });

  it('refuses an unknown mode with 2000', async () => {
    const res = await admin.post(`/virtual-agents/${t.bot.user.id}/rotate-key`, { mode: 'later' });
    assert.equal(res.body.status_code, 2000);
  });
});
