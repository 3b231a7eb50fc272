import type { Metadata } from 'next';
import { buildOpenApiDocument } from '@/lib/openapi/build-document';
import { HTTP_METHODS, type OperationObject } from '@/lib/openapi/types';
import styles from './docs.module.css';
import { Inline, Markdown, splitSections } from './markdown';
import { MethodBadge, Operation } from './operation';
import { SchemaTable } from './schema-table';

export const metadata: Metadata = { title: 'API reference · VA Chat' };

type Entry = { method: string; path: string; op: OperationObject };

/**
 * The human API reference: a rendering of the generated OpenAPI document (the same one served at
 * /api/v1/openapi.json), so it cannot say anything the contract does not. Rendered at build time;
 * no scripts and no external assets.
 */
export default function DocsPage() {
  const doc = buildOpenApiDocument();
  const { intro, sections } = splitSections(doc.info.description ?? '');
  const byTag = new Map<string, Entry[]>(doc.tags.map((t) => [t.name, []]));
  const entries = (paths: typeof doc.paths): Entry[] =>
    Object.entries(paths).flatMap(([path, item]) => HTTP_METHODS.flatMap((m) => (item[m] ? [{ method: m, path, op: item[m] }] : [])));
  for (const entry of [...entries(doc.paths), ...entries(doc['x-webhooks'] ?? {})]) {
    const tag = entry.op.tags?.[0] ?? 'other';
    byTag.set(tag, [...(byTag.get(tag) ?? []), entry]);
  }
  const tags = doc.tags.filter((t) => byTag.get(t.name)?.length);
  const schemas = doc.components.schemas;
  const codeTexts = Object.fromEntries(doc['x-status-codes'].map((c) => [c.code, c.description]));

  return (
    <div className={styles.shell}>
      <input type="checkbox" id="nav-toggle" className={styles.navToggle} />
      <header className={styles.topbar}>
        <a href="#top" className={styles.brand}>
          {doc.info.title} <span className={styles.version}>{doc.info.version}</span>
        </a>
        <label htmlFor="nav-toggle" className={styles.menuButton}>
          Contents
        </label>
      </header>
      <nav className={styles.sidebar} aria-label="Contents">
        <a href="#top" className={styles.brand}>
          {doc.info.title} <span className={styles.version}>{doc.info.version}</span>
        </a>
        <p className={styles.navHeading}>Overview</p>
        <ul>
          {sections.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`}>{s.title}</a>
            </li>
          ))}
        </ul>
        {tags.map((tag) => (
          <div key={tag.name}>
            <p className={styles.navHeading}>
              <a href={`#tag-${tag.name}`}>{tag.name}</a>
            </p>
            <ul>
              {byTag.get(tag.name)?.map(({ method, op }) => (
                <li key={op.operationId}>
                  <a href={`#${op.operationId}`} className={styles.navOperation} title={op.summary}>
                    <MethodBadge method={method} />
                    <span>{op.summary}</span>
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ))}
        <p className={styles.navHeading}>
          <a href="#schemas">Schemas</a>
        </p>
      </nav>

      <main className={styles.main} id="top">
        <h1>{doc.info.title}</h1>
        <p className={styles.muted}>
          Version {doc.info.version} · OpenAPI {doc.openapi} · <a href="/api/v1/openapi.json">openapi.json</a> ·{' '}
          <a href="/api/v1/schemas/events.json">event JSON Schemas</a>
        </p>
        <Markdown source={intro} />
        {sections.map((s) => (
          <section key={s.id} id={s.id} className={styles.section}>
            <h2>{s.title}</h2>
            <Markdown source={s.body} />
          </section>
        ))}

        {tags.map((tag) => (
          <section key={tag.name} id={`tag-${tag.name}`} className={styles.section}>
            <h2 className={styles.tagTitle}>{tag.name}</h2>
            {tag.description && <Markdown source={tag.description} />}
            {byTag.get(tag.name)?.map(({ method, path, op }) => (
              <Operation
                key={op.operationId}
                method={method}
                path={path}
                op={op}
                components={schemas}
                parameters={doc.components.parameters}
                codeTexts={codeTexts}
              />
            ))}
          </section>
        ))}

        <section id="schemas" className={styles.section}>
          <h2>Schemas</h2>
          <p>The shapes the operations and webhooks refer to by name.</p>
          {Object.entries(schemas).map(([name, schema]) => (
            <article key={name} id={`schema-${name}`} className={styles.operation}>
              <h3 className={styles.operationTitle}>
                <a href={`#schema-${name}`}>{name}</a>
              </h3>
              {schema.description && (
                <p>
                  <Inline text={schema.description} />
                </p>
              )}
              <SchemaTable schema={schema} components={schemas} />
            </article>
          ))}
        </section>
      </main>
    </div>
  );
}
