import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { rateLimits } from '@/db/schema';
import { resetEnv } from '@/env';
import { retentionJobs } from '@/lib/retention/jobs';
import { runRetention } from '@/lib/retention/run-retention';
import { ApiError } from '@/platform/errors';
import { consumeRateLimit } from '@/platform/http/rate-limit';
import { DatabaseRateLimiter } from '@/platform/limits/database-limiter';
import { chunkFor } from '@/platform/limits/local-allowance';
import { setupTestDatabase } from '../support/db';

/** Two limiters built apart, as two instances build theirs: they share only the database. */
const pair = (prefix: string, points: number, duration = 60) =>
  [1, 2].map(() => new DatabaseRateLimiter({ keyPrefix: prefix, points, duration, inMemoryBlockOnConsumed: points + 1 }));

async function outcome(p: Promise<RateLimiterRes>): Promise<'ok' | number> {
  try {
    await p;
    return 'ok';
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return rejection.consumedPoints;
    throw rejection;
  }
}

describe('rate limits shared through the database', () => {
  const ctx = setupTestDatabase();

  it('refuses hits alternating between two limiters once their sum passes the budget', async () => {
    const [a, b] = pair(`alt-${Math.random()}`, 5);
    const seen: ('ok' | number)[] = [];
    for (let i = 0; i < 8; i++) seen.push(await outcome((i % 2 ? b : a).consume('account:1')));
    assert.deepEqual(seen.slice(0, 5), ['ok', 'ok', 'ok', 'ok', 'ok']);
    assert.ok(
      seen.slice(5).every((s) => s !== 'ok'),
      `hits past the budget were refused: ${JSON.stringify(seen)}`,
    );
    // Another key has its own budget.
    assert.equal(await outcome(a.consume('account:2')), 'ok');
  });

  it('counts concurrent hits atomically: exactly the budget passes', async () => {
    const [a, b] = pair(`race-${Math.random()}`, 20);
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => outcome((i % 2 ? b : a).consume('k'))));
    assert.equal(results.filter((r) => r === 'ok').length, 20);
  });

  it('reports the window: remaining points and the time until it ends', async () => {
    const [a] = pair(`window-${Math.random()}`, 3, 60);
    const res = await a.consume('k');
    assert.equal(res.remainingPoints, 2);
    assert.ok(res.msBeforeNext > 55_000 && res.msBeforeNext <= 60_000, `msBeforeNext ${res.msBeforeNext}`);
    const got = await a.get('k');
    assert.equal(got?.consumedPoints, 1);
    assert.equal(await a.delete('k'), true);
    assert.equal(await a.get('k'), null);
  });

  it('starts a new window once the old one ended, and retention removes ended windows', async () => {
    const prefix = `ended-${Math.random()}`;
    const [a] = pair(prefix, 1);
    await a.consume('k');
    assert.notEqual(await outcome(a.consume('k')), 'ok');
    // End the window as time would.
    await ctx.db
      .update(rateLimits)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(rateLimits.key, `${prefix}:k`));
    const [fresh] = pair(prefix, 1); // no memory of the block
    assert.equal(await outcome(fresh.consume('k')), 'ok');
    await ctx.db
      .update(rateLimits)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(rateLimits.key, `${prefix}:k`));
    await runRetention(ctx.db, {
      jobs: retentionJobs({
        EVENT_RETENTION_DAYS: 30,
        FAILED_EVENT_RETENTION_DAYS: 90,
        CHAT_RETENTION_DAYS: undefined,
        ROLLUP_RETENTION_DAYS: 90,
        AUDIT_RETENTION_DAYS: 365,
      }),
      batchSize: 100,
    });
    assert.equal(
      (
        await ctx.db
          .select()
          .from(rateLimits)
          .where(eq(rateLimits.key, `${prefix}:k`))
      ).length,
      0,
    );
  });

  it('spends points reserved in chunks: one round trip per chunk, exactly the budget accepted', async () => {
    process.env.RATE_LIMIT_STORE = 'database';
    process.env.RATE_LIMIT_PER_MINUTE = '100';
    resetEnv();
    try {
      assert.equal(chunkFor(100), 2);
      const key = `account:chunks-${Math.random()}`;
      const outcomes: (number | 'ok')[] = [];
      for (let i = 0; i < 110; i++) {
        try {
          await consumeRateLimit(key);
          outcomes.push('ok');
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          outcomes.push(err.code);
        }
      }
      assert.equal(outcomes.filter((o) => o === 'ok').length, 100);
      assert.ok(outcomes.slice(100).every((o) => o === 2012));
      const [row] = await ctx.db
        .select()
        .from(rateLimits)
        .where(eq(rateLimits.key, `api:100:60:${key}`));
      // 50 reservations of 2, then one refused (counted, as every hit past the budget is).
      assert.equal(row.points, 102);
    } finally {
      delete process.env.RATE_LIMIT_STORE;
      delete process.env.RATE_LIMIT_PER_MINUTE;
      resetEnv();
    }
  });
});
