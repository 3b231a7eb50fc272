import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatDateTime, parseDateTime } from './format';

describe('parseDateTime', () => {
  it('reads back what formatDateTime writes', () => {
    const d = new Date(2026, 10, 27, 7, 40, 5);
    assert.equal(parseDateTime(formatDateTime(d.toISOString()))?.getTime(), d.getTime());
  });

  it('takes the console format without seconds, a full month name, and ISO', () => {
    assert.equal(parseDateTime('3 Feb 2026, 09:05')?.getTime(), new Date(2026, 1, 3, 9, 5).getTime());
    assert.equal(parseDateTime('3 february 2026 09:05')?.getTime(), new Date(2026, 1, 3, 9, 5).getTime());
    assert.equal(parseDateTime('2026-02-03T09:05')?.getTime(), new Date(2026, 1, 3, 9, 5).getTime());
  });

  it('refuses what is not a date and time, or no such day', () => {
    for (const bad of [
      '',
      'yesterday',
      '31 Feb 2026, 10:00',
      '3 Foo 2026, 10:00',
      '3 Feb 2026, 25:00',
      '2026-02-03',
      '3 Feb 2026, 10:00:61',
    ]) {
      assert.equal(parseDateTime(bad), null, bad);
    }
  });
});
