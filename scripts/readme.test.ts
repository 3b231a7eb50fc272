import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { codesMarkdownTable } from './codes-table';

it('the status-code reference shows the current code catalogue (npm run docs:codes rewrites it)', () => {
  const page = fs.readFileSync('docs/reference/status-codes.md', 'utf8');
  assert.ok(page.includes(codesMarkdownTable()), 'docs/reference/status-codes.md code table is stale: run npm run docs:codes');
});

it('README is a front page: at most 250 lines, the reference under docs/reference/ linked from it', () => {
  const readme = fs.readFileSync('README.md', 'utf8');
  assert.ok(readme.split('\n').length <= 250, `README.md has ${readme.split('\n').length} lines`);
  for (const page of fs.readdirSync('docs/reference')) assert.ok(readme.includes(`(docs/reference/${page})`), page);
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

it('README and the documents under docs/ and docs/reference/ link only to files that exist', () => {
  for (const file of [
    'README.md',
    'ARCHITECTURE.md',
    ...['docs', 'docs/reference'].flatMap((dir) =>
      fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.md'))
        .map((f) => `${dir}/${f}`),
    ),
  ]) {
    const text = fs.readFileSync(file, 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)) {
      if (/^(https?:|mailto:|\/)/.test(target)) continue;
      const at = path.join(path.dirname(file), target);
      assert.ok(fs.existsSync(at), `${file} links to ${target}, which does not exist`);
    }
  }
});
