import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { fillGuide } from './fill';
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

  it('holds, in the Markdown itself, what the site fills in (npm run docs:codes writes it)', () => {
    for (const { slug } of GUIDE_PAGES) {
      const raw = fs.readFileSync(`docs/guide/${slug}.md`, 'utf8');
      assert.equal(raw, fillGuide(raw), `docs/guide/${slug}.md is stale: run npm run docs:codes`);
    }
    assert.match(fs.readFileSync('docs/guide/events.md', 'utf8'), /"event_type": "chat.unassigned"/);
    // Filling a filled region replaces it: each example appears once on the page.
    assert.equal(loadGuidePage('events')!.split('"event_type": "chat.unassigned"').length - 1, 1);
    assert.equal(fillGuide(fillGuide('<!-- codes -->\n')), fillGuide('<!-- codes -->\n'));
  });

  it("numbers the pages in the index's list as the side list does: the index, then 1, 2, … in GUIDE_PAGES order", () => {
    const listed = [...fs.readFileSync('docs/guide/index.md', 'utf8').matchAll(/^(\d+)\. \[([^\]]+)\]\(([a-z-]+)\.md\)/gm)].map(
      ([, n, title, slug]) => ({ n: Number(n), title, slug }),
    );
    assert.deepEqual(
      listed,
      GUIDE_PAGES.slice(1).map((p, i) => ({ n: i + 1, title: p.title, slug: p.slug })),
    );
  });
});
