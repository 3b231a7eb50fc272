import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { adminSessions } from '@/db/schema';
import { env, resetEnv } from '@/env';
import { sha256 } from '@/platform/util/ids';
import { ApiClient } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { ADMIN_PASSWORD, signedInAdmin } from '../support/people';

/** Runs `fn` with TRUSTED_PROXIES set: only then are a proxy's X-Forwarded-* headers believed. */
async function behindProxy<T>(fn: () => Promise<T>): Promise<T> {
  process.env.TRUSTED_PROXIES = '1';
  resetEnv();
  try {
    return await fn();
  } finally {
    delete process.env.TRUSTED_PROXIES;
    resetEnv();
  }
}

describe('admin session', () => {
  const ctx = setupTestDatabase();

  describe('sign-in', () => {
    let email: string;
    let accountId: number;
    before(async () => {
      const admin = await signedInAdmin(ctx.db);
      email = admin.email;
      accountId = admin.account.id;
    });

    it('signs in, sets an HttpOnly SameSite=Lax session cookie and answers /me', async () => {
      const client = new ApiClient('admin');
      const res = await client.login(email.toUpperCase(), ADMIN_PASSWORD);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.status_code, 4400);
      assert.equal(res.body.response.email, email);
      assert.equal(res.body.response.account.id, accountId);
      assert.equal(res.body.response.is_platform_admin, false);
      assert.equal(res.setCookies.length, 1);
      const cookie = res.setCookies[0];
      assert.match(cookie, /^va_session=[A-Za-z0-9_-]{43};/);
      assert.match(cookie, /; HttpOnly/);
      assert.match(cookie, /; SameSite=Lax/);
      assert.match(cookie, /; Path=\//);
      assert.match(cookie, /; Max-Age=\d+/);
      assert.doesNotMatch(cookie, /Secure/, 'plain http gets no Secure flag');

      const me = await client.get('/me');
      assert.equal(me.status, 200, JSON.stringify(me.body));
      assert.deepEqual({ email: me.body.response.email, account: me.body.response.account.id }, { email, account: accountId });
    });

    it('stores only a hash of the session token', async () => {
      const client = new ApiClient('admin');
      await client.login(email, ADMIN_PASSWORD);
      const token = client.cookies.get('va_session')!;
      const byToken = await ctx.db.select().from(adminSessions).where(eq(adminSessions.tokenHash, token));
      const byHash = await ctx.db
        .select()
        .from(adminSessions)
        .where(eq(adminSessions.tokenHash, sha256(token)));
      assert.equal(byToken.length, 0);
      assert.equal(byHash.length, 1);
    });

    it('marks the cookie Secure when the request came over https', async () => {
      const login = () =>
        new ApiClient('admin').request('POST', '/login', {
          body: { email, password: ADMIN_PASSWORD },
          headers: { 'x-forwarded-proto': 'https' },
        });
      const viaProxy = await behindProxy(login);
      assert.equal(viaProxy.status, 200);
      assert.match(viaProxy.setCookies[0], /; Secure/);
      // Without TRUSTED_PROXIES anyone could send the header: it is not believed.
      const unvouched = await login();
      assert.equal(unvouched.status, 200);
      assert.doesNotMatch(unvouched.setCookies[0], /; Secure/);
      const direct = await new ApiClient('admin', { origin: 'https://admin.example.test' }).login(email, ADMIN_PASSWORD);
      assert.match(direct.setCookies[0], /; Secure/);
    });

    it('answers 3002 alike for a wrong password and an unknown email, without a cookie', async () => {
      const wrong = await new ApiClient('admin').login(email, 'not the password');
      const unknown = await new ApiClient('admin').login('nobody@example.test', ADMIN_PASSWORD);
      for (const res of [wrong, unknown]) {
        assert.equal(res.status, 401);
        assert.equal(res.body.status_code, 3002);
        assert.deepEqual(res.setCookies, []);
      }
      assert.equal(wrong.body.description, unknown.body.description);
    });

    it('refuses a malformed login body with 2000 naming the field', async () => {
      const res = await new ApiClient('admin').post('/login', { email: 'not-an-email', password: 'x' });
      assert.equal(res.status, 400);
      assert.equal(res.body.status_code, 2000);
      assert.deepEqual(
        res.body.response.errors.map((e: { field: string }) => e.field),
        ['email'],
      );
    });

    it('answers 3001 without a session cookie, or with an unknown one (and clears it)', async () => {
      for (const path of ['/me', '/teams', '/virtual-agents', '/chats']) {
        const res = await new ApiClient('admin').get(path);
        assert.equal(res.status, 401, path);
        assert.equal(res.body.status_code, 3001, path);
      }
      const stale = new ApiClient('admin');
      stale.cookies.set('va_session', 'made-up-token');
      const res = await stale.get('/me');
      assert.equal(res.body.status_code, 3001);
      assert.match(res.setCookies[0] ?? '', /^va_session=; .*Max-Age=0/);
      assert.equal(stale.cookies.size, 0);
    });

    it('answers 3001 once the session has expired', async () => {
      const client = new ApiClient('admin');
      await client.login(email, ADMIN_PASSWORD);
      const hash = sha256(client.cookies.get('va_session')!);
      await ctx.db
        .update(adminSessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(adminSessions.tokenHash, hash));
      const res = await client.get('/me');
      assert.equal(res.body.status_code, 3001);
    });

    it('logs out: the session ends and the cookie is cleared', async () => {
      const client = new ApiClient('admin');
      await client.login(email, ADMIN_PASSWORD);
      const token = client.cookies.get('va_session')!;
      const out = await client.post('/logout');
      assert.equal(out.status, 200, JSON.stringify(out.body));
      assert.match(out.setCookies[0], /^va_session=; .*Max-Age=0/);
      const replay = new ApiClient('admin');
      replay.cookies.set('va_session', token);
      assert.equal((await replay.get('/me')).body.status_code, 3001);
    });

    it('counts logins against the rate limit and sends the Rate-Limit headers', async () => {
      const first = await new ApiClient('admin').login(email, ADMIN_PASSWORD);
      const second = await new ApiClient('admin').login(email, 'wrong password');
      assert.equal(first.headers.get('rate-limit-limit'), env().ADMIN_LOGIN_ATTEMPTS_PER_MINUTE.toString());
      // Each attempt, failed or not, takes one from the same budget.
      assert.equal(Number(second.headers.get('rate-limit-remaining')), Number(first.headers.get('rate-limit-remaining')) - 1);
      assert.ok(first.headers.get('trxid'));
    });

    it('answers 2011 for an unknown admin path and 2099 for a wrong method', async () => {
      const { client } = await signedInAdmin(ctx.db);
      const unknown = await client.get('/no-such-thing');
      assert.equal(unknown.body.status_code, 2011);
      const wrong = await client.request('DELETE', '/teams');
      assert.equal(wrong.status, 405);
      assert.equal(wrong.body.status_code, 2099);
    });
  });

  describe('cross-site protection', () => {
    let client: ApiClient;
    let email: string;
    before(async () => {
      ({ client, email } = await signedInAdmin(ctx.db));
    });

    const team = () => ({ name: `Team ${Math.random().toString(36).slice(2)}`, auto_assign: false });

    it('refuses a POST whose Origin is another site with 3003', async () => {
      const res = await client.post('/teams', team(), { headers: { origin: 'https://evil.example' } });
      assert.equal(res.status, 403);
      assert.equal(res.body.status_code, 3003);
      assert.equal((await client.get('/teams')).body.response.length, 0, 'nothing was created');
    });

    it('refuses a POST marked Sec-Fetch-Site: cross-site or same-site', async () => {
      for (const site of ['cross-site', 'same-site']) {
        const res = await client.post('/teams', team(), { headers: { 'sec-fetch-site': site } });
        assert.equal(res.body.status_code, 3003, site);
      }
    });

    it('refuses a cross-site login too', async () => {
      const res = await new ApiClient('admin').post(
        '/login',
        { email, password: ADMIN_PASSWORD },
        { headers: { origin: 'https://evil.example' } },
      );
      assert.equal(res.body.status_code, 3003);
      assert.deepEqual(res.setCookies, []);
    });

    it('accepts a same-origin browser request, also behind a proxy', async () => {
      const same = await client.post('/teams', team(), { headers: { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' } });
      assert.equal(same.status, 201, JSON.stringify(same.body));
      const viaProxy = () =>
        client.post('/teams', team(), {
          headers: { origin: 'https://admin.example.com', 'x-forwarded-host': 'admin.example.com', 'x-forwarded-proto': 'https' },
        });
      const proxied = await behindProxy(viaProxy);
      assert.equal(proxied.status, 201, JSON.stringify(proxied.body));
      const proxiedWrong = await behindProxy(() =>
        client.post('/teams', team(), {
          headers: { origin: 'http://admin.example.com', 'x-forwarded-host': 'admin.example.com', 'x-forwarded-proto': 'https' },
        }),
      );
      assert.equal(proxiedWrong.body.status_code, 3003, 'http origin does not match an https service');
      const unvouched = await viaProxy();
      assert.equal(unvouched.body.status_code, 3003, 'forwarded headers count only from TRUSTED_PROXIES');
    });

    it('accepts a request with neither Origin nor Sec-Fetch-Site (automation)', async () => {
      const res = await client.post('/teams', team());
      assert.equal(res.status, 201);
    });

    it('does not apply to reads', async () => {
      const res = await client.get('/teams', { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
      assert.equal(res.status, 200);
    });
  });

  describe('accounts', () => {
    it('lets a platform administrator create accounts whose admin can then sign in', async () => {
      const platform = await signedInAdmin(ctx.db, { platform: true });
      const res = await platform.client.post('/accounts', {
        name: 'Acme',
        admin_email: 'Boss@Acme.test',
        admin_password: 'a long password',
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.status_code, 4401);
      assert.equal(res.body.response.name, 'Acme');
      assert.deepEqual(res.body.response.admins, [{ email: 'boss@acme.test', is_platform_admin: false }]);

      const acme = new ApiClient('admin');
      assert.equal((await acme.login('boss@acme.test', 'a long password')).status, 200);
      const mine = await acme.get('/accounts');
      assert.deepEqual(
        mine.body.response.map((a: { name: string }) => a.name),
        ['Acme'],
      );
      const all = await platform.client.get('/accounts');
      assert.ok(all.body.response.length >= 2);

      const again = await platform.client.post('/accounts', {
        name: 'Acme 2',
        admin_email: 'boss@acme.test',
        admin_password: 'a long password',
      });
      assert.equal(again.body.status_code, 3004);
    });

    it('refuses account creation to other administrators with 3003', async () => {
      const { client } = await signedInAdmin(ctx.db);
      const res = await client.post('/accounts', { name: 'Nope', admin_email: 'nope@example.test', admin_password: 'a long password' });
      assert.equal(res.status, 403);
      assert.equal(res.body.status_code, 3003);
    });
  });
});
