import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { environmentProblems, envSchema } from '@/env';

const PERIODS = ['EVENT_RETENTION_DAYS', 'FAILED_EVENT_RETENTION_DAYS', 'BOT_REQUEST_LOG_RETENTION_DAYS', 'CHAT_RETENTION_DAYS'];

describe('retention periods', () => {
  it('take decimals of a day down to 0.001 (a soak keeps minutes), and whole days as before', () => {
    for (const name of PERIODS) {
      assert.deepEqual(environmentProblems({ [name]: '0.0035' }), [], name);
      assert.deepEqual(environmentProblems({ [name]: '30' }), [], name);
      assert.equal((envSchema.parse({ [name]: '0.0035' }) as Record<string, unknown>)[name], 0.0035, name);
    }
  });

  it('refuse zero, negatives, less than 0.001 and words, naming the variable', () => {
    for (const name of PERIODS) {
      for (const bad of ['0', '-1', '0.0005', 'a week']) {
        const problems = environmentProblems({ [name]: bad });
        assert.equal(problems.length, 1, `${name}=${bad}: ${problems.join('; ')}`);
        assert.ok(problems[0].startsWith(`${name}=`), problems[0]);
      }
    }
  });

  it('keep the defaults: 30, 90 and 7 days, closed chats for ever', () => {
    const parsed = envSchema.parse({});
    assert.equal(parsed.EVENT_RETENTION_DAYS, 30);
    assert.equal(parsed.FAILED_EVENT_RETENTION_DAYS, 90);
    assert.equal(parsed.BOT_REQUEST_LOG_RETENTION_DAYS, 7);
    assert.equal(parsed.CHAT_RETENTION_DAYS, undefined);
  });
});
