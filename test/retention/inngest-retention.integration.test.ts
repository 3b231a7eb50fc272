import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { InngestTestEngine } from '@inngest/test';
import { eq, inArray } from 'drizzle-orm';
import { accessTokens, idempotencyKeys } from '@/db/schema';
import { runRetention } from '@/inngest/functions/run-retention';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

describe('Inngest cron run-retention', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;

  before(async () => {
    t = await createTenant(ctx.db);
    await ctx.db.insert(accessTokens).values([
      { tokenHash: 'cron-expired', userId: t.bot.user.id, accountId: t.account.id, expiresAt: new Date(Date.now() - 60_000) },
      { tokenHash: 'cron-valid', userId: t.bot.user.id, accountId: t.account.id, expiresAt: new Date(Date.now() + 3_600_000) },
    ]);
    await ctx.db.insert(idempotencyKeys).values({
      accountId: t.account.id,
      key: 'cron-old',
      fingerprint: 'f',
      httpStatus: 201,
      response: {},
      createdAt: new Date(Date.now() - 25 * 3_600_000),
    });
  });

  it('removes what is due with the configured jobs and reports the counts', async () => {
    const { result } = (await new InngestTestEngine({ function: runRetention }).execute()) as { result: Record<string, number> };
    assert.ok(result['expired-access-tokens'] >= 1, JSON.stringify(result));
    assert.ok(result['idempotency-keys'] >= 1, JSON.stringify(result));
    const tokens = await ctx.db
      .select({ h: accessTokens.tokenHash })
      .from(accessTokens)
      .where(inArray(accessTokens.tokenHash, ['cron-expired', 'cron-valid']));
    assert.deepEqual(
      tokens.map((r) => r.h),
      ['cron-valid'],
    );
    assert.deepEqual(await ctx.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'cron-old')), []);
  });
});
