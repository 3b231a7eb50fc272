import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAccount } from '@/lib/accounts/create-account';
import { waitAfter } from '@/lib/admin-auth/login-throttle';
import { ApiClient } from '../support/api-client';
import { setupTestDatabase } from '../support/db';
import { useEnv } from '../support/env';
import { signedInAdmin } from '../support/people';

const PASSWORD = 'right-horse-staple-42';
let n = 0;
/** A fresh account per test, so the per-account streaks of one test do not leak into another. */
async function account(db: Parameters<typeof createAccount>[0]) {
  const email = `guarded-${++n}-${Date.now()}@example.test`;
  await createAccount(db, { name: `Guarded ${n}`, adminEmail: email, adminPassword: PASSWORD });
  return email;
}
const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

describe('admin limits', () => {
  const ctx = setupTestDatabase();

  describe('sign-in', () => {
    useEnv({ ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: '3', ADMIN_LOGIN_FREE_FAILURES: '5' });

    it('refuses attempts past ADMIN_LOGIN_ATTEMPTS_PER_MINUTE from one address with 2012/429 and Retry-After', async () => {
      const email = await account(ctx.db);
      const client = new ApiClient('admin');
      for (let i = 0; i < 3; i++) {
        const res = await client.post('/login', { email, password: `guess-${i}` }, from('203.0.113.77'));
        assert.equal(res.body.status_code, 3002);
      }
      const blocked = await client.post('/login', { email, password: PASSWORD }, from('203.0.113.77'));
      assert.equal(blocked.status, 429);
      assert.equal(blocked.body.status_code, 2012);
      assert.ok(Number(blocked.headers.get('retry-after')) >= 1);
      const elsewhere = await new ApiClient('admin').post('/login', { email, password: PASSWORD }, from('203.0.113.78'));
      assert.equal(elsewhere.status, 200);
    });

    it('throttles one account however many addresses the guesses come from', async () => {
      const email = await account(ctx.db);
      // A new X-Forwarded-For value per guess, as in the report: the account's streak still counts.
      for (let i = 1; i <= 6; i++) {
        const res = await new ApiClient('admin').post('/login', { email, password: `guess-${i}` }, from(`198.51.100.${i}`));
        assert.equal(res.body.status_code, 3002, `guess ${i}`);
      }
      const refused = await new ApiClient('admin').post('/login', { email, password: PASSWORD }, from('198.51.100.99'));
      assert.equal(refused.status, 429);
      assert.equal(refused.body.status_code, 2012);
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(retryAfter > 1 && retryAfter <= 15, `Retry-After ${retryAfter}`);
      assert.match(refused.body.description, /this account/);
    });

    it('ends the streak at a right password, so the free failures start again', async () => {
      const email = await account(ctx.db);
      for (let i = 1; i <= 5; i++) await new ApiClient('admin').post('/login', { email, password: `guess-${i}` }, from(`192.0.2.${i}`));
      assert.equal((await new ApiClient('admin').post('/login', { email, password: PASSWORD }, from('192.0.2.50'))).status, 200);
      for (let i = 1; i <= 5; i++) {
        const res = await new ApiClient('admin').post('/login', { email, password: `again-${i}` }, from(`192.0.2.${60 + i}`));
        assert.equal(res.body.status_code, 3002, `failure ${i} after the success`);
      }
    });

    it('waits 15 s after the first failure past the free ones, doubling up to 15 minutes', () => {
      assert.deepEqual(
        [5, 6, 7, 8, 9, 10, 11, 30].map((a) => waitAfter(a, 5)),
        [0, 15, 30, 60, 120, 240, 480, 900],
      );
    });
  });

  describe('failures per address', () => {
    useEnv({ ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: '100', ADMIN_LOGIN_FAILURES_PER_IP_PER_HOUR: '2' });

    it('refuses an address that failed on many accounts, even with a right password', async () => {
      const emails = [await account(ctx.db), await account(ctx.db)];
      for (const [i, email] of emails.entries()) {
        const res = await new ApiClient('admin').post('/login', { email, password: 'nope-nope' }, from(`2001:db8:7:7::${i + 1}`));
        assert.equal(res.body.status_code, 3002);
      }
      // Another address of the same IPv6 /64 counts as the same client.
      const refused = await new ApiClient('admin').post('/login', { email: emails[0], password: PASSWORD }, from('2001:db8:7:7::99'));
      assert.equal(refused.status, 429);
      assert.match(refused.body.description, /this address/);
      const other = await new ApiClient('admin').post('/login', { email: emails[0], password: PASSWORD }, from('2001:db8:7:8::1'));
      assert.equal(other.status, 200);
    });
  });

  describe('admin API budget per session', () => {
    useEnv({ ADMIN_RATE_LIMIT_PER_MINUTE: '3' });

    it('answers 2012/429 with Retry-After past ADMIN_RATE_LIMIT_PER_MINUTE, for that session only', async () => {
      const one = await signedInAdmin(ctx.db);
      const two = await signedInAdmin(ctx.db);
      for (let i = 0; i < 3; i++) assert.equal((await one.client.get('/me')).status, 200);
      const refused = await one.client.get('/me');
      assert.equal(refused.status, 429);
      assert.equal(refused.body.status_code, 2012);
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      assert.equal((await two.client.get('/me')).status, 200);
    });
  });

  describe('admin password policy', () => {
    for (const weak of ['aaaaaaaa', 'aaaaaaaaaaaa', 'password1234', 'qwertyuiop12']) {
      it(`refuses ${JSON.stringify(weak)} with 3009 naming admin_password`, async () => {
        await assert.rejects(
          createAccount(ctx.db, { name: 'Weak', adminEmail: `weak-${weak.length}-${++n}@example.test`, adminPassword: weak }),
          (err: { code?: number; errors?: { field: string }[] }) => err.code === 3009 && err.errors?.[0]?.field === 'admin_password',
        );
      });
    }
  });
});
