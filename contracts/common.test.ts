import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  dateTimeInput,
  INT4_DECIMAL_PATTERN,
  INT4_MAX,
  intId,
  intIdParam,
  NAME_PATTERN,
  nameText,
  SAFE_TEXT_PATTERN,
  text,
} from './common';

describe('contract primitives', () => {
  it('text refuses NUL and unpaired surrogates and keeps emoji, with and without the u flag', () => {
    const unicode = new RegExp(SAFE_TEXT_PATTERN.source, 'u');
    for (const ok of ['', 'plain', 'emoji 😀', 'é ü ß', '\t\n']) {
      assert.ok(text().safeParse(ok).success, JSON.stringify(ok));
      assert.ok(unicode.test(ok), JSON.stringify(ok));
    }
    for (const bad of ['a\u0000b', 'x\ud800', '\udc00y', 'a😀\ud83d']) {
      assert.equal(text().safeParse(bad).success, false, JSON.stringify(bad));
      assert.equal(unicode.test(bad), false, JSON.stringify(bad));
    }
  });

  it('names need a non-space character before and after trimming', () => {
    assert.equal(nameText().trim().min(1).safeParse('   ').success, false);
    assert.equal(NAME_PATTERN.test('   '), false);
    assert.equal(nameText().trim().min(1).parse('  Sales  '), 'Sales');
  });

  it('bounds integers to PostgreSQL integer in bodies and in text parameters', () => {
    assert.ok(intId().safeParse(INT4_MAX).success);
    for (const bad of [INT4_MAX + 1, 2 ** 53, 1e308, 0, -1, 1.5]) assert.equal(intId().safeParse(bad).success, false, String(bad));
    assert.equal(intIdParam().parse('42'), 42);
    for (const bad of ['1e10', '2147483648', '999999999999999', '0', '-3', 'abc', '']) {
      assert.equal(intIdParam().safeParse(bad).success, false, bad);
    }
    for (let n = 1; n < 2 ** 32; n = n * 3 + 7) assert.equal(INT4_DECIMAL_PATTERN.test(String(n)), n <= INT4_MAX, String(n));
  });

  it('accepts RFC 3339 date-times with upper- or lower-case T and Z, and hands them on upper case', () => {
    assert.equal(dateTimeInput().parse('2025-03-01T10:15:00Z'), '2025-03-01T10:15:00Z');
    assert.equal(dateTimeInput().parse('2025-03-01t10:15:00z'), '2025-03-01T10:15:00Z');
    assert.equal(dateTimeInput().parse('2025-03-01t10:15:00.250+02:00'), '2025-03-01T10:15:00.250+02:00');
    for (const bad of ['2025-03-01', 'yesterday', '2025-03-01 10:15:00Z', '2025-13-01T10:15:00Z', 42]) {
      assert.equal(dateTimeInput().safeParse(bad).success, false, String(bad));
    }
  });
});
