import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { integer, pgTable } from 'drizzle-orm/pg-core';
import { preparedInTransaction } from '@/platform/util/prepared';
import { rowsOf } from '@/platform/util/rows-of';
import { setupTestDatabase } from '@/test/support/db';

const ctx = setupTestDatabase();

// A statement built once and run in later transactions must run on each one's own connection:
// the chat lock and the message insert rely on it (their rows and locks belong to the transaction).
const current = preparedInTransaction('test_current_txid', (tx) =>
  tx.select({ id: sql<string>`txid_current()::text` }).from(sql`(select 1) one`),
);

const probe = pgTable('prepared_probe', { n: integer('n') });

describe('a statement prepared once for transactions', () => {
  it('runs inside each transaction it is given, the first and the later ones', async () => {
    for (let round = 0; round < 3; round++) {
      await ctx.db.transaction(async (tx) => {
        const [{ id: ours }] = rowsOf<{ id: string }>(await tx.execute(sql`select txid_current()::text as id`));
        const [{ id: prepared }] = await current(tx).execute();
        assert.equal(prepared, ours, `round ${round}: the prepared statement ran in another transaction`);
      });
    }
  });

  it('sees what its transaction wrote, and its writes go with a rollback', async () => {
    await ctx.db.execute(sql`create table if not exists prepared_probe (n integer)`);
    const insert = preparedInTransaction('test_probe_insert', (tx) => tx.insert(probe).values({ n: sql.placeholder('n') }));
    for (const n of [1, 2]) {
      await assert.rejects(
        ctx.db.transaction(async (tx) => {
          await insert(tx).execute({ n });
          const [{ count }] = rowsOf<{ count: string | number }>(await tx.execute(sql`select count(*) as count from prepared_probe`));
          assert.equal(Number(count), 1);
          throw new Error('roll back');
        }),
        /roll back/,
      );
    }
    const [{ count }] = rowsOf<{ count: string | number }>(await ctx.db.execute(sql`select count(*) as count from prepared_probe`));
    assert.equal(Number(count), 0);
  });
});
