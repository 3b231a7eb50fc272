import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeText } from './normalize-text';

test('folds whitespace and replaces numbers, ids, dates and times', () => {
  assert.equal(normalizeText('  Ticket 4711\n opened at 10:02 '), 'Ticket <n> opened at <time>');
  assert.equal(normalizeText('Ticket 4712 opened at 10:05'), 'Ticket <n> opened at <time>');
  assert.equal(normalizeText('order 3f2b8c1e-1a2b-4c3d-8e9f-0123456789ab on 2026-11-29T01:02:03Z'), 'order <id> on <date>');
  assert.equal(normalizeText('ref ord_a81x9 total 12.50'), 'ref <id> total <n>');
});

test('keeps words that differ', () => {
  assert.notEqual(normalizeText('Connecting you with a person'), normalizeText('Thanks, I have noted that'));
  assert.equal(normalizeText('Hello'), 'Hello');
});
