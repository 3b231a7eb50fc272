import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { loadGuidePage } from './load';
import { GUIDE_PAGES } from './pages';

describe('the guide', () => {
  it('has a Markdown file for every page, and no other', () => {
    const files = fs
      .readdirSync('docs/guide')
      .filter((f) => f.endsWith('.md'))
      .map((f) => f.replace(/\.md$/, ''))
      .sort();
    assert.deepEqual(files, GUIDE_PAGES.map((p) => p.slug).sort());
  });

  it('fills every marker from the contract and links only to pages that exist', () => {
    const slugs = new Set<string>(GUIDE_PAGES.map((p) => p.slug));
    for (const { slug } of GUIDE_PAGES) {
      const markdown = loadGuidePage(slug)!;
      assert.doesNotMatch(markdown, /<!-- (codes|example: \w+) -->/, `${slug}: a marker was left unfilled`);
      for (const [, target] of markdown.matchAll(/\]\((?:\.\/)?([a-z-]+)\.md(?:#[a-z-]+)?\)/g)) {
        assert.ok(slugs.has(target), `${slug}.md links to ${target}.md, which is not a guide page`);
      }
    }
    assert.match(loadGuidePage('limits-and-codes')!, /\| 2013 \| 409 \| Idempotency-Key already used/);
    assert.match(loadGuidePage('events')!, /"event_type": "chat.unassigned"/);
    assert.equal(loadGuidePage('../README'), null);
  });
});
