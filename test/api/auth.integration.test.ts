import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { accessTokens } from '@/db/schema';
import { forgetAllTokens } from '@/lib/bot-auth/token-cache';
import { rotateApiKey } from '@/lib/virtual-agents/rotate-api-key';
import { updateVirtualAgent } from '@/lib/virtual-agents/update-virtual-agent';
import { sha256 } from '@/platform/util/ids';
import { botApi } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { useEnv } from '../support/env';
import { createTenant, type Tenant } from '../support/tenant';

describe('bot authentication', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  before(async () => {
    t = await createTenant(ctx.db);
  });

  it('issues a token for a valid API key, in the body and the access_token header', async () => {
    const res = await botApi('POST', '/authorize', { body: { api_key: t.bot.apiKey } });
    assert.equal(res.status, 200);
    assert.equal(res.body.status_code, 4300);
    const token = res.body.response.access_token;
    assert.equal(res.headers.get('access_token'), token);
    assert.equal(res.body.response.token_type, 'access_token');
    assert.equal(res.body.response.expires_in, 3600);
    assert.ok(Date.parse(res.body.response.expires_at) > Date.now() + 3500_000);
    const teams = await botApi('GET', '/teams', { token });
    assert.equal(teams.status, 200);
    assert.equal(teams.body.status_code, 4301);
  });

  it('refuses an unknown API key with 2005', async () => {
    const res = await botApi('POST', '/authorize', { body: { api_key: 'vak_nope' } });
    assert.equal(res.status, 401);
    assert.equal(res.body.status_code, 2005);
  });

  it('answers 2002 when access_token is missing', async () => {
    const res = await botApi('GET', '/teams');
    assert.equal(res.status, 400);
    assert.equal(res.body.status_code, 2002);
    assert.deepEqual(res.body.response.errors, [{ field: 'header.access_token', message: 'Required' }]);
  });

  it('answers 2003 for a token it never issued', async () => {
    const res = await botApi('GET', '/teams', { token: 'not-a-token' });
    assert.equal(res.status, 400);
    assert.equal(res.body.status_code, 2003);
  });

  it('answers 2004 for an expired token', async () => {
    const fresh = (await botApi('POST', '/authorize', { body: { api_key: t.bot.apiKey } })).body.response.access_token;
    await ctx.db
      .update(accessTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(accessTokens.tokenHash, sha256(fresh)));
    // Changed behind the API's back: this process's token cache has not heard of it.
    forgetAllTokens();
    const res = await botApi('GET', '/teams', { token: fresh });
    assert.equal(res.status, 401);
    assert.equal(res.body.status_code, 2004);
  });

  describe('the token cache', () => {
    const token = async (tenant: Tenant) =>
      (await botApi('POST', '/authorize', { body: { api_key: tenant.bot.apiKey } })).body.response.access_token as string;

    it('answers a token checked a moment ago from memory, until it is forgotten', async () => {
      const fresh = await token(t);
      assert.equal((await botApi('GET', '/teams', { token: fresh })).status, 200);
      // Removed behind the API's back (no revocation): the cache still knows the token...
      await ctx.db.delete(accessTokens).where(eq(accessTokens.tokenHash, sha256(fresh)));
      assert.equal((await botApi('GET', '/teams', { token: fresh })).status, 200);
      // ...until it forgets it; then the database's answer counts.
      forgetAllTokens();
      const res = await botApi('GET', '/teams', { token: fresh });
      assert.equal(res.body.status_code, 2003);
    });

    it('refuses a cached token at once when its VA’s key is rotated', async () => {
      const tenant = await createTenant(ctx.db);
      const fresh = await token(tenant);
      assert.equal((await botApi('GET', '/teams', { token: fresh })).status, 200);
      await rotateApiKey(ctx.db, { accountId: tenant.account.id, id: tenant.bot.user.id, mode: 'at_once' });
      const res = await botApi('GET', '/teams', { token: fresh });
      assert.equal(res.body.status_code, 2003);
    });

    it('refuses a cached token at once when its VA is disabled', async () => {
      const tenant = await createTenant(ctx.db);
      const fresh = await token(tenant);
      assert.equal((await botApi('GET', '/teams', { token: fresh })).status, 200);
      await updateVirtualAgent(ctx.db, { accountId: tenant.account.id, id: tenant.bot.user.id, patch: { enabled: false } });
      const res = await botApi('GET', '/teams', { token: fresh });
      assert.equal(res.body.status_code, 2003);
    });

    describe('with TOKEN_CACHE_SECONDS=0', () => {
      useEnv({ TOKEN_CACHE_SECONDS: '0' });
      it('looks every call up', async () => {
        forgetAllTokens();
        const fresh = await token(t);
        assert.equal((await botApi('GET', '/teams', { token: fresh })).status, 200);
        await ctx.db.delete(accessTokens).where(eq(accessTokens.tokenHash, sha256(fresh)));
        assert.equal((await botApi('GET', '/teams', { token: fresh })).body.status_code, 2003);
      });
    });
  });

  it('puts a trxid and the rate-limit headers on answers, errors included', async () => {
    const ok = await botApi('POST', '/authorize', { body: { api_key: t.bot.apiKey } });
    const bad = await botApi('GET', '/teams', { token: 'x' });
    for (const res of [ok, bad]) {
      assert.match(res.headers.get('trxid') ?? '', /^[0-9a-f-]{36}$/);
    }
    assert.ok(Number(ok.headers.get('rate-limit-limit')) > 0);
    assert.ok(ok.headers.get('rate-limit-remaining') !== null);
    assert.ok(ok.headers.get('rate-limit-reset') !== null);
    assert.notEqual(ok.headers.get('trxid'), bad.headers.get('trxid'));
  });
});

describe('bot authentication failure budget', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  useEnv({ BOT_AUTH_FAILURES_PER_MINUTE: '3' });
  before(async () => {
    t = await createTenant(ctx.db);
  });
  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  it('refuses further /authorize calls from an address after too many wrong keys, even a right one', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await botApi('POST', '/authorize', { body: { api_key: `vak_wrong_${i}` }, headers: from('203.0.113.40') });
      assert.equal(res.body.status_code, 2005);
    }
    const refused = await botApi('POST', '/authorize', { body: { api_key: t.bot.apiKey }, headers: from('203.0.113.40') });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.status_code, 2012);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    const other = await botApi('POST', '/authorize', { body: { api_key: t.bot.apiKey }, headers: from('203.0.113.41') });
    assert.equal(other.status, 200);
  });

  it('answers 429 instead of 2003 once an address sent too many unknown tokens; valid tokens still pass', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await botApi('GET', '/teams', { token: `bogus-${i}`, headers: from('203.0.113.50') })).body.status_code);
    }
    assert.deepEqual(statuses, [2003, 2003, 2003, 2012, 2012]);
    const valid = await botApi('GET', '/teams', { token: t.token, headers: from('203.0.113.50') });
    assert.equal(valid.status, 200);
  });
});
