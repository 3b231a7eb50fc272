import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { botRequestSampleRate, envSchema } from '@/env';
import { successRecorded } from './sampling';

describe('which successful calls the request log records', () => {
  const keys = Array.from(
    { length: 20_000 },
    (_, i) => `0b7c${i.toString(16).padStart(4, '0')}-4e1a-4f6b-9c2d-${String(i).padStart(12, '0')}`,
  );

  it('records about the rate’s share of the chats', () => {
    for (const rate of [0.1, 0.5, 0.9]) {
      const share = keys.filter((k) => successRecorded(k, rate)).length / keys.length;
      assert.ok(Math.abs(share - rate) < 0.02, `rate ${rate}: ${share}`);
    }
  });

  it('gives a chat the same answer every time, and keeps a chat recorded at a higher rate', () => {
    for (const k of keys.slice(0, 2000)) {
      assert.equal(successRecorded(k, 0.5), successRecorded(k, 0.5));
      if (successRecorded(k, 0.3)) assert.ok(successRecorded(k, 0.6), k);
    }
  });

  it('records all at 1 and none at 0', () => {
    assert.ok(keys.every((k) => successRecorded(k, 1)));
    assert.ok(!keys.some((k) => successRecorded(k, 0)));
  });
});

describe('the default sample rate', () => {
  const base = envSchema.parse({});
  it('records every success on the embedded database and half on PostgreSQL, unless set', () => {
    assert.equal(botRequestSampleRate({ ...base, DATABASE_URL: undefined }), 1);
    assert.equal(botRequestSampleRate({ ...base, DATABASE_URL: 'postgres://db.example.test/va' }), 0.5);
    assert.equal(botRequestSampleRate({ ...base, DATABASE_URL: undefined, BOT_REQUEST_LOG_SAMPLE_RATE: 0.2 }), 0.2);
    assert.equal(botRequestSampleRate({ ...base, DATABASE_URL: 'postgres://db.example.test/va', BOT_REQUEST_LOG_SAMPLE_RATE: 1 }), 1);
  });
});
