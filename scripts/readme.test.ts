import assert from 'node:assert/strict';
import fs from 'node:fs';
import { it } from 'node:test';
import { codesMarkdownTable } from './codes-table';

it('README shows the current code catalogue (npm run docs:codes rewrites it)', () => {
  const readme = fs.readFileSync('README.md', 'utf8');
  assert.ok(readme.includes(codesMarkdownTable()), 'README.md code table is stale: run npm run docs:codes');
});

it('README starts with the run and test commands', () => {
  const head = fs.readFileSync('README.md', 'utf8').split('\n').slice(0, 20).join('\n');
  assert.match(head, /npm ci && npm start/);
  assert.match(head, /npm ci && npm test/);
});
