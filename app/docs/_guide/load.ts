import fs from 'node:fs';
import path from 'node:path';
import { EVENT_EXAMPLES } from '@/lib/openapi/examples';
import { statusCodeCatalogue } from '@/lib/openapi/overview';
import { GUIDE_PAGES } from './pages';

const DIR = path.join(process.cwd(), 'docs', 'guide');

/**
 * Markers the guide's Markdown may hold, filled from the contract so the guide cannot drift:
 * `<!-- codes -->` (the status-code catalogue of contracts/codes.ts) and `<!-- example: Name -->`
 * (an event body from the OpenAPI document's examples, which tests check against the schemas).
 */
function fill(markdown: string): string {
  return markdown
    .replace(/^<!-- codes -->$/m, () =>
      [
        '| status_code | HTTP | Meaning |',
        '|---|---|---|',
        ...statusCodeCatalogue().map((c) => `| ${c.code} | ${c.http} | ${c.description} |`),
      ].join('\n'),
    )
    .replace(/^<!-- example: (\w+) -->$/gm, (marker, name: string) =>
      name in EVENT_EXAMPLES ? `\`\`\`json\n${JSON.stringify(EVENT_EXAMPLES[name], null, 2)}\n\`\`\`` : marker,
    );
}

const cache = new Map<string, string>();

/** The page's Markdown with its markers filled, or null for a slug that is not a guide page. */
export function loadGuidePage(slug: string): string | null {
  if (!GUIDE_PAGES.some((p) => p.slug === slug)) return null;
  const hit = cache.get(slug);
  if (hit !== undefined) return hit;
  const markdown = fill(fs.readFileSync(path.join(DIR, `${slug}.md`), 'utf8'));
  cache.set(slug, markdown);
  return markdown;
}
