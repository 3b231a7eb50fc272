import fs from 'node:fs';
import path from 'node:path';
import { fillGuide, withoutMarkers } from './fill';
import { GUIDE_PAGES } from './pages';

const DIR = path.join(process.cwd(), 'docs', 'guide');

const cache = new Map<string, string>();

/** The page's Markdown with its regions filled from the contract (./fill.ts) and their markers removed, or null for a slug that is not a guide page. */
export function loadGuidePage(slug: string): string | null {
  if (!GUIDE_PAGES.some((p) => p.slug === slug)) return null;
  const hit = cache.get(slug);
  if (hit !== undefined) return hit;
  const markdown = withoutMarkers(fillGuide(fs.readFileSync(path.join(DIR, `${slug}.md`), 'utf8')));
  cache.set(slug, markdown);
  return markdown;
}
