import type { ComponentProps } from 'react';
import ReactMarkdown from 'react-markdown';
import rehypeSlug from 'rehype-slug';
import remarkGfm from 'remark-gfm';
import styles from '../docs.module.css';
import { GUIDE_PAGES, guideHref } from './pages';

/** Links between guide files (`events.md#x`) work on GitHub and, rewritten here, on the site. */
function siteHref(href: string | undefined): string | undefined {
  if (!href) return href;
  const match = href.match(/^(?:\.\/)?([a-z-]+)\.md(#.*)?$/);
  return match ? `${guideHref(match[1])}${match[2] ?? ''}` : href;
}

const components: ComponentProps<typeof ReactMarkdown>['components'] = {
  a: ({ href, children }) => <a href={siteHref(href)}>{children}</a>,
  // A scrolling code block must be reachable by keyboard (WCAG 2.1.1).
  pre: ({ children }) => (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region needs focus for keyboard users
    <pre tabIndex={0}>{children}</pre>
  ),
  table: ({ children }) => (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a table wider than a phone scrolls, and must be reachable by keyboard
    <div className={styles.tableWrap} tabIndex={0}>
      <table>{children}</table>
    </div>
  ),
};

/** A guide page: the guide's contents beside the page's Markdown. */
export function GuidePage({ slug, markdown }: { slug: string; markdown: string }) {
  const index = GUIDE_PAGES.findIndex((p) => p.slug === slug);
  const next = GUIDE_PAGES[index + 1];
  return (
    <div className={styles.guide}>
      <nav className={styles.guideNav} aria-label="Guide">
        {/* The index introduces the guide; the pages after it are numbered 1, 2, … as its own list numbers them. */}
        <a href={guideHref(GUIDE_PAGES[0].slug)} aria-current={GUIDE_PAGES[0].slug === slug ? 'page' : undefined}>
          {GUIDE_PAGES[0].title}
        </a>
        <ol>
          {GUIDE_PAGES.slice(1).map((p) => (
            <li key={p.slug}>
              <a href={guideHref(p.slug)} aria-current={p.slug === slug ? 'page' : undefined}>
                {p.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      <main id="content" className={styles.prose}>
        <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSlug]} components={components}>
          {markdown}
        </ReactMarkdown>
        {next && (
          <p className={styles.next}>
            Next: <a href={guideHref(next.slug)}>{next.title}</a>
          </p>
        )}
      </main>
    </div>
  );
}
