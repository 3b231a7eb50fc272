/** The guide's pages in reading order: `docs/guide/<slug>.md`, served at /docs/guide/<slug> (the index at /docs). */
export const GUIDE_PAGES = [
  { slug: 'index', title: 'Build a bot' },
  { slug: 'quick-start', title: 'Quick start with the demo' },
  { slug: 'typescript-client', title: 'The TypeScript client' },
  { slug: 'other-languages', title: 'Bots in other languages' },
  { slug: 'authentication', title: 'Authentication and tokens' },
  { slug: 'events', title: 'Events' },
  { slug: 'verifying-webhooks', title: 'Verifying webhooks' },
  { slug: 'pull-events', title: 'Receiving events without a public URL' },
  { slug: 'delivery', title: 'Retries, ordering and catch-up' },
  { slug: 'idempotency', title: 'Idempotency' },
  { slug: 'handover', title: 'Handover, lost control and the fallback' },
  { slug: 'agent-workspace', title: 'The agent workspace' },
  { slug: 'widget', title: 'The chat widget on a website' },
  { slug: 'replying-from-a-language-model', title: 'Replying from a language model' },
  { slug: 'turns', title: 'Turns: bursts and stale replies' },
  { slug: 'replay', title: 'Replay and diff' },
  { slug: 'credentials', title: 'Rotating credentials' },
  { slug: 'local-testing', title: 'Testing locally' },
  { slug: 'limits-and-codes', title: 'Limits, codes and support' },
] as const;

export function guideHref(slug: string): string {
  return slug === 'index' ? '/docs' : `/docs/guide/${slug}`;
}
