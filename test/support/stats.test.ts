import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { quantile, spread } from './stats';

describe('quantile', () => {
  it('takes the nearest rank, sorted or not', () => {
    const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    assert.equal(quantile(values, 0.5), 5);
    assert.equal(quantile(values, 0.9), 9);
    assert.equal(quantile(values, 0.99), 10);
    assert.equal(quantile(values, 0), 1);
    assert.equal(
      quantile(
        [...values].sort((a, b) => a - b),
        0.5,
      ),
      5,
    );
  });

  it('is NaN for no values', () => {
    assert.ok(Number.isNaN(quantile([], 0.5)));
    assert.ok(Number.isNaN(spread([]).p99));
  });

  it('spreads 1..100 as p50 50, p90 90, p99 99, max 100', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    assert.deepEqual(spread(values), { n: 100, p50: 50, p90: 90, p99: 99, max: 100 });
  });
});
