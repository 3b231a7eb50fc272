import { EVENT_EXAMPLES } from '@/platform/openapi/events';
import { statusCodeCatalogue } from '@/platform/openapi/overview';

/**
 * The guide's Markdown holds regions filled from the contract, so that neither the site nor a
 * reader of the raw Markdown sees anything that has drifted from it:
 * `<!-- codes -->` … `<!-- /codes -->` (the status-code catalogue of contracts/codes.ts) and
 * `<!-- example: Name -->` … `<!-- /example -->` (an event body from the OpenAPI document's
 * examples, which tests check against the schemas). A marker without its end is filled too.
 * `npm run docs:codes` writes the filled copy into docs/guide/; a test fails when it is stale.
 */
export function fillGuide(markdown: string): string {
  return markdown
    .replace(/^<!-- codes -->$(?:\n[\s\S]*?^<!-- \/codes -->$)?/m, () => `<!-- codes -->\n${codesTable()}\n<!-- /codes -->`)
    .replace(/^<!-- example: (\w+) -->$(?:\n[\s\S]*?^<!-- \/example -->$)?/gm, (region, name: string) =>
      name in EVENT_EXAMPLES
        ? `<!-- example: ${name} -->\n\`\`\`json\n${JSON.stringify(EVENT_EXAMPLES[name], null, 2)}\n\`\`\`\n<!-- /example -->`
        : region,
    );
}

/** The filled Markdown without the region markers, as the site renders it. */
export function withoutMarkers(markdown: string): string {
  return markdown.replace(/^<!-- (?:\/?codes|example: \w+|\/example) -->\n?/gm, '');
}

function codesTable(): string {
  return [
    '| status_code | HTTP | Meaning |',
    '|---|---|---|',
    ...statusCodeCatalogue().map((c) => `| ${c.code} | ${c.http} | ${c.description} |`),
  ].join('\n');
}
