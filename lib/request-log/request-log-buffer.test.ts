import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BATCH_ROWS, type BotRequestRow, RequestLogBuffer } from './request-log-buffer';

const row = (n: number): BotRequestRow => ({
  accountId: 1,
  virtualAgentId: 1,
  at: new Date(),
  operation: 'getChat',
  method: 'GET',
  path: `/api/v1/chats/${n}`,
  httpStatus: 200,
  statusCode: 4304,
  description: 'Chat details retrieved successfully',
  trxid: `t-${n}`,
  latencyMs: 1,
});

describe('request log buffer', () => {
  it('writes in batches of at most BATCH_ROWS, in order, one batch at a time', async () => {
    const batches: string[][] = [];
    let writing = 0;
    const buffer = new RequestLogBuffer(
      async (rows) => {
        writing++;
        assert.equal(writing, 1, 'one write at a time');
        await new Promise((r) => setImmediate(r));
        batches.push(rows.map((r) => r.trxid));
        writing--;
      },
      () => 10_000,
    );
    for (let n = 0; n < BATCH_ROWS * 2 + 7; n++) buffer.push(row(n));
    await buffer.flush();
    assert.deepEqual(
      batches.map((b) => b.length),
      [BATCH_ROWS, BATCH_ROWS, 7],
    );
    assert.deepEqual(
      batches.flat(),
      Array.from({ length: BATCH_ROWS * 2 + 7 }, (_, n) => `t-${n}`),
    );
    assert.deepEqual(buffer.counts(), { buffered: 0, written: BATCH_ROWS * 2 + 7, dropped: 0, lost: 0 });
  });

  it('drops and counts rows past its bound instead of growing', async () => {
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    const buffer = new RequestLogBuffer(
      () => held,
      () => 100,
    );
    for (let n = 0; n < 150; n++) buffer.push(row(n));
    assert.deepEqual(buffer.counts(), { buffered: 100, written: 0, dropped: 50, lost: 0 });
    release();
    await buffer.flush();
    assert.equal(buffer.counts().written, 100);
  });

  it('counts a batch the database refuses as lost and carries on', async () => {
    let calls = 0;
    const buffer = new RequestLogBuffer(
      async () => {
        calls++;
        if (calls === 1) throw new Error('database unavailable');
      },
      () => 10_000,
    );
    buffer.push(row(1));
    await buffer.flush();
    buffer.push(row(2));
    await buffer.flush();
    assert.deepEqual(buffer.counts(), { buffered: 0, written: 1, dropped: 0, lost: 1 });
  });
});
