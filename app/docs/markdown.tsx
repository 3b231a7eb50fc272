import type { ReactNode } from 'react';
import styles from './docs.module.css';

/**
 * Renders the Markdown subset the OpenAPI descriptions use (headings, paragraphs, lists, tables,
 * fenced code, `code`, **bold**, links) as React elements: no HTML is passed through, so nothing
 * in a description can inject markup, and no Markdown library is needed.
 */

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

const INLINE = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\[[^\]]+\]\([^)\s]+\))/g;

export function Inline({ text }: { text: string }): ReactNode {
  const out: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const at = match.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    const token = match[0];
    if (token.startsWith('`')) out.push(<code key={at}>{token.slice(1, -1)}</code>);
    else if (token.startsWith('**')) out.push(<strong key={at}>{token.slice(2, -2)}</strong>);
    else {
      const [, label, href] = /^\[([^\]]+)\]\(([^)]+)\)$/.exec(token) ?? [];
      const external = /^https?:/.test(href);
      out.push(
        <a key={at} href={href} {...(external && { rel: 'noreferrer' })}>
          {label}
        </a>,
      );
    }
    last = at + token.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());
}

function Table({ lines }: { lines: string[] }) {
  const [head, , ...body] = lines;
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <thead>
          <tr>
            {cells(head).map((c) => (
              <th key={c}>
                <Inline text={c} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {body.map((row) => {
            const values = cells(row);
            // Rows of the code catalogue get anchors, so responses can link to their codes.
            const id = /^\d{4}$/.test(values[0]) ? `code-${values[0]}` : undefined;
            return (
              <tr key={row} id={id}>
                {values.map((c, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: cells have no identity beyond their column
                  <td key={i}>
                    <Inline text={c} />
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function Markdown({ source }: { source: string }) {
  const lines = source.split('\n');
  const blocks: ReactNode[] = [];
  let i = 0;
  const take = (test: (line: string) => boolean) => {
    const taken: string[] = [];
    while (i < lines.length && test(lines[i])) taken.push(lines[i++]);
    return taken;
  };
  while (i < lines.length) {
    const line = lines[i];
    const key = blocks.length;
    if (!line.trim()) {
      i++;
    } else if (line.startsWith('```')) {
      i++;
      const code = take((l) => !l.startsWith('```'));
      i++;
      blocks.push(
        <pre key={key} className={styles.code}>
          <code>{code.join('\n')}</code>
        </pre>,
      );
    } else if (/^#{1,6} /.test(line)) {
      i++;
      const level = line.indexOf(' ');
      const text = line.slice(level + 1);
      const Tag = `h${level}` as 'h3';
      blocks.push(
        <Tag key={key} id={slugify(text)}>
          <Inline text={text} />
        </Tag>,
      );
    } else if (line.startsWith('|')) {
      blocks.push(<Table key={key} lines={take((l) => l.startsWith('|'))} />);
    } else if (/^(- |\d+\. )/.test(line)) {
      const ordered = /^\d+\. /.test(line);
      const items = take((l) => /^(- |\d+\. |\s{2,}\S)/.test(l));
      const merged = items.reduce<string[]>((acc, l) => {
        if (/^\s/.test(l)) acc[acc.length - 1] += ` ${l.trim()}`;
        else acc.push(l.replace(/^(- |\d+\. )/, ''));
        return acc;
      }, []);
      const List = ordered ? 'ol' : 'ul';
      blocks.push(
        <List key={key}>
          {merged.map((item) => (
            <li key={item}>
              <Inline text={item} />
            </li>
          ))}
        </List>,
      );
    } else {
      const para = take((l) => Boolean(l.trim()) && !/^(```|#{1,6} |\||- |\d+\. )/.test(l));
      blocks.push(
        <p key={key}>
          <Inline text={para.join(' ')} />
        </p>,
      );
    }
  }
  return <>{blocks}</>;
}

/** Splits Markdown at its `## ` headings: the text before the first one, then each section. */
export function splitSections(source: string): { intro: string; sections: { title: string; id: string; body: string }[] } {
  const [intro, ...rest] = source.split(/^## /m);
  return {
    intro,
    sections: rest.map((chunk) => {
      const newline = chunk.indexOf('\n');
      const title = (newline < 0 ? chunk : chunk.slice(0, newline)).trim();
      return { title, id: slugify(title), body: newline < 0 ? '' : chunk.slice(newline + 1) };
    }),
  };
}
