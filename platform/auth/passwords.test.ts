import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { resetEnv } from '@/env';
import { hashPassword, verifyPassword } from './passwords';

// NODE_ENV is typed read-only; the tests set it as a deployment would.
const vars = process.env as Record<string, string | undefined>;

describe('password hashes', () => {
  const saved = vars.NODE_ENV;
  afterEach(() => {
    vars.NODE_ENV = saved;
    resetEnv();
  });
  const as = (nodeEnv: 'production' | 'development' | 'test') => {
    vars.NODE_ENV = nodeEnv;
    resetEnv();
  };

  for (const nodeEnv of ['production', 'development'] as const) {
    it(`costs scrypt N=2^15, r=8, p=1 outside the test runner (${nodeEnv})`, async () => {
      as(nodeEnv);
      const stored = await hashPassword('correct horse battery');
      assert.match(stored, /^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
      assert.equal(await verifyPassword('correct horse battery', stored), true);
      assert.equal(await verifyPassword('correct horse batterY', stored), false);
    });
  }

  it('costs less under the test runner, in the same format, and either hash verifies under either setting', async () => {
    as('test');
    const cheap = await hashPassword('p4ssword-cheap');
    assert.match(cheap, /^scrypt\$1024\$8\$1\$/);
    as('production');
    const real = await hashPassword('p4ssword-real');
    // A hash carries its own parameters, so verifying does not depend on the setting.
    assert.equal(await verifyPassword('p4ssword-cheap', cheap), true);
    as('test');
    assert.equal(await verifyPassword('p4ssword-real', real), true);
    assert.equal(await verifyPassword('p4ssword-real', cheap), false);
  });

  it('refuses a stored value that is not a scrypt hash', async () => {
    assert.equal(await verifyPassword('x', 'plain$text'), false);
  });
});
