import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { codesMarkdownTable } from './codes-table';

it('README shows the current code catalogue (npm run docs:codes rewrites it)', () => {
  const readme = fs.readFileSync('README.md', 'utf8');
  assert.ok(readme.includes(codesMarkdownTable()), 'README.md code table is stale: run npm run docs:codes');
});

it("README's first screen runs, demos and tests with commands that do not break each other, and says where the docs are", () => {
  const head = fs.readFileSync('README.md', 'utf8').split('\n').slice(0, 40).join('\n');
  assert.match(head, /^npm ci && npm start/m);
  assert.match(head, /^npm run demo:bot/m);
  assert.match(head, /^npm test /m);
  // `npm ci` replaces node_modules: never as a step after the server was started.
  assert.doesNotMatch(head, /^npm ci && npm test/m);
  for (const doc of ['docs/operations.md', 'docs/security.md', 'ARCHITECTURE.md', '/docs']) assert.ok(head.includes(doc), doc);
});

it('README and the documents under docs/ link only to files that exist', () => {
  for (const file of [
    'README.md',
    'ARCHITECTURE.md',
    ...fs
      .readdirSync('docs')
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ]) {
    const text = fs.readFileSync(file, 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)) {
      if (/^(https?:|mailto:|\/)/.test(target)) continue;
      const at = path.join(path.dirname(file), target);
      assert.ok(fs.existsSync(at), `${file} links to ${target}, which does not exist`);
    }
  }
});
