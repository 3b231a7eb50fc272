import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { getHandle } from '@/db/client';
import { botRequests } from '@/db/schema';
import { type BotRequestRow, COPY_TARGET, copyLine, RequestLogBuffer } from '@/lib/request-log/request-log-buffer';
import { patchRow } from '@/test/support/bot-request-row';
import { setupTestDatabase } from '@/test/support/db';

const row = (over: Partial<BotRequestRow> = {}): BotRequestRow => patchRow('c-1', over);

// The request log's batches go by COPY (Handle.copyIn), beside the API's own queries.
describe('the request log written by COPY', () => {
  const ctx = setupTestDatabase();

  it('writes every batch while the pool is busy with other queries, and breaks none of them', async () => {
    const handle = await getHandle();
    const buffer = new RequestLogBuffer(
      (data) => handle.copyIn(COPY_TARGET, data),
      () => 100_000,
    );
    let stop = false;
    let queries = 0;
    // Many concurrent short queries, so the pool has queries to pipeline onto whichever connection
    // a COPY is using.
    const load = Array.from({ length: 30 }, async () => {
      for (let i = 0; !stop && i < 2_000; i++) {
        // Yield to timers and I/O (PGlite answers without them), so the writes below get their turn.
        await new Promise((r) => setImmediate(r));
        const [r] = await ctx.db.select({ one: sql<number>`1` }).from(botRequests).limit(1);
        assert.ok(r === undefined || Number(r.one) === 1);
        queries++;
      }
    });
    const rows = 3_000;
    for (let i = 0; i < rows; i++) {
      buffer.push(row({ chatId: `c-${i % 50}` }));
      if (i % 100 === 0) await new Promise((r) => setImmediate(r));
    }
    await buffer.flush();
    stop = true;
    await Promise.all(load);
    assert.deepEqual(buffer.counts(), { buffered: 0, written: rows, dropped: 0, lost: 0 });
    assert.equal(await ctx.db.$count(botRequests), rows);
    assert.ok(queries > 0);
  });

  it('stores text exactly as recorded, whatever it holds', async () => {
    const handle = await getHandle();
    const odd = row({
      path: '/api/v1/chats/a\\b\tc\nd\re%2F?status&cursor',
      chatId: 'tab\there \\N',
      description: 'Invalid request body: naïve 名前, 🙂, "quoted", \\.',
      idempotencyKey: '\\N',
      statusCode: null,
    });
    const buffer = new RequestLogBuffer(
      (data) => handle.copyIn(COPY_TARGET, data),
      () => 10,
    );
    buffer.push(odd);
    await buffer.flush();
    assert.equal(buffer.counts().written, 1);
    const [stored] = await ctx.db.select().from(botRequests).where(sql`${botRequests.trxid} = ${odd.trxid}`);
    assert.deepEqual(
      [stored.path, stored.chatId, stored.description, stored.idempotencyKey, stored.statusCode, stored.at.getTime()],
      [odd.path, odd.chatId, odd.description, odd.idempotencyKey, null, odd.at.getTime()],
    );
  });

  it('rejects a batch the database refuses, writes none of it, and the pool carries on', async () => {
    const handle = await getHandle();
    const good = row();
    // A good line, then one whose account id is not a number.
    const data = Buffer.from(`${copyLine(good)}not-a-number${copyLine(row()).slice(1)}`);
    await assert.rejects(handle.copyIn(COPY_TARGET, data), /invalid input syntax for type integer/);
    const found = await ctx.db.select().from(botRequests).where(sql`${botRequests.trxid} = ${good.trxid}`);
    assert.deepEqual(found, [], 'nothing of a refused batch is written');
    assert.equal(typeof (await ctx.db.$count(botRequests)), 'number');
  });
});
