import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { divertLogs, type LogLine } from '@/platform/util/logger';
import { expectingErrors } from '@/test/support/logs';
import { BATCH_ROWS, type BotRequestRow, copyLine, DatabaseClosedError, RequestLogBuffer } from './request-log-buffer';

const row = (n: number): BotRequestRow => ({
  accountId: 1,
  virtualAgentId: 1,
  at: new Date(Date.UTC(2026, 10, 24, 12, 0, 0, n % 1000)),
  operation: 'getChat',
  method: 'GET',
  path: `/api/v1/chats/${n}`,
  httpStatus: 200,
  statusCode: 4304,
  description: 'Chat details retrieved successfully',
  trxid: `t-${n}`,
  latencyMs: 1,
});

/** The trxid of each line of a batch (COPY text, the trxid is the eleventh field). */
const trxids = (data: Buffer) =>
  data
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t')[10]);

describe('request log buffer', () => {
  it('writes in batches of at most BATCH_ROWS, in order, one batch at a time', async () => {
    const batches: string[][] = [];
    let writing = 0;
    const buffer = new RequestLogBuffer(
      async (data, rows) => {
        writing++;
        assert.equal(writing, 1, 'one write at a time');
        await new Promise((r) => setImmediate(r));
        const ids = trxids(data);
        assert.equal(ids.length, rows);
        batches.push(ids);
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

  it('keeps a batch of long rows whole, past its first buffer', async () => {
    const long = (n: number) => ({ ...row(n), path: `/api/v1/chats/${'x'.repeat(490)}`, description: 'é'.repeat(600) });
    let written = '';
    const buffer = new RequestLogBuffer(
      async (data) => {
        written += data.toString('utf8');
      },
      () => 10_000,
    );
    for (let n = 0; n < 300; n++) buffer.push(long(n));
    await buffer.flush();
    assert.equal(written, Array.from({ length: 300 }, (_, n) => copyLine(long(n))).join(''));
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
    // A refusal that is no outage is a fault: logged as an error, here checked rather than printed.
    const { logged } = await expectingErrors(['bot request log rows not written'], async () => {
      buffer.push(row(1));
      await buffer.flush();
    });
    assert.deepEqual(
      logged.map((l) => l.fields.rows),
      [1],
    );
    buffer.push(row(2));
    await buffer.flush();
    assert.deepEqual(buffer.counts(), { buffered: 0, written: 1, dropped: 0, lost: 1 });
  });

  it('counts rows left after the database was closed on purpose as lost, with a warning, not an error', async () => {
    const buffer = new RequestLogBuffer(
      async () => {
        throw new DatabaseClosedError();
      },
      () => 10_000,
    );
    const lines: LogLine[] = [];
    const end = divertLogs((line) => line.msg.startsWith('bot request log rows not written') && lines.push(line) > 0);
    try {
      buffer.push(row(1));
      await buffer.flush();
    } finally {
      end();
    }
    assert.deepEqual(
      lines.map((l) => [l.level, l.fields.reason]),
      [['warn', 'closed']],
    );
    assert.equal(buffer.counts().lost, 1);
  });

  it('encodes a row as one line of COPY text, escaping what COPY would read as structure', () => {
    const line = copyLine({
      ...row(7),
      path: '/api/v1/chats/a\\b\tc\nd\re',
      chatId: null,
      statusCode: null,
      idempotencyKey: 'key\t1',
    });
    assert.equal(
      line,
      '1\t1\t2026-11-24T12:00:00.007Z\tgetChat\tGET\t/api/v1/chats/a\\\\b\\tc\\nd\\re\t\\N\t200\t\\N\tChat details retrieved successfully\tt-7\t1\tkey\\t1\n',
    );
  });
});
