import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAccount } from '@/lib/accounts/create-account';
import { AdminClient } from '../support/admin-api';
import { setupTestDatabase } from '../support/db';
import { useEnv } from '../support/env';

describe('admin sign-in budget', () => {
  const ctx = setupTestDatabase();
  useEnv({ ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: '3' });

  it('refuses password guessing past ADMIN_LOGIN_ATTEMPTS_PER_MINUTE with 2012/429', async () => {
    await createAccount(ctx.db, { name: 'Guarded', adminEmail: 'guarded@example.test', adminPassword: 'right-password' });
    const client = new AdminClient();
    const headers = { 'x-forwarded-for': '203.0.113.77' };
    for (let i = 0; i < 3; i++) {
      const res = await client.post('/login', { email: 'guarded@example.test', password: `guess-${i}` }, { headers });
      assert.equal(res.body.status_code, 3002);
    }
    const blocked = await client.post('/login', { email: 'guarded@example.test', password: 'right-password' }, { headers });
    assert.equal(blocked.status, 429);
    assert.equal(blocked.body.status_code, 2012);
    const elsewhere = await new AdminClient().post(
      '/login',
      { email: 'guarded@example.test', password: 'right-password' },
      { headers: { 'x-forwarded-for': '203.0.113.78' } },
    );
    assert.equal(elsewhere.status, 200);
  });
});
