import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_RETRY_DELAYS_MS, RETRY_JITTER, retryDelayAfter } from '@/lib/events/schedule';

describe('retry schedule', () => {
  it('waits each published delay plus at most 20 % jitter, never less', () => {
    assert.equal(RETRY_JITTER, 0.2);
    for (const [i, base] of DEFAULT_RETRY_DELAYS_MS.entries()) {
      assert.equal(
        retryDelayAfter(i + 1, () => 0),
        base,
        `attempt ${i + 1}, no jitter`,
      );
      // Math.random() is below 1: its largest value gives the largest wait.
      assert.equal(
        retryDelayAfter(i + 1, () => 1 - Number.EPSILON),
        Math.round(base * 1.2),
        `attempt ${i + 1}, most jitter`,
      );
      assert.equal(
        retryDelayAfter(i + 1, () => 0.5),
        Math.round(base * 1.1),
        `attempt ${i + 1}, half the jitter`,
      );
    }
  });

  it('stops after the last delay: the seventh failed attempt dead-letters the event', () => {
    assert.equal(retryDelayAfter(DEFAULT_RETRY_DELAYS_MS.length + 1), null);
  });
});
