import type { ReactNode } from 'react';
import type { SchemaObject } from '@/lib/openapi/types';
import styles from './docs.module.css';
import { Inline } from './markdown';

export type Components = Record<string, SchemaObject>;

const refName = (ref: string) => ref.replace('#/components/schemas/', '');

export function resolve(schema: SchemaObject, components: Components): SchemaObject {
  return schema.$ref ? (components[refName(schema.$ref)] ?? {}) : schema;
}

function join(parts: ReactNode[], sep: string): ReactNode[] {
  return parts.flatMap((p, i) => (i ? [sep, p] : [p]));
}

/** A short type: `string (date-time)`, `Message[]`, `"queued" | "picked"`, `map of string`, `Chat | null`. */
export function TypeLabel({ schema }: { schema: SchemaObject }): ReactNode {
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return <a href={`#schema-${name}`}>{name}</a>;
  }
  const nullable = schema.nullable ? ' | null' : '';
  if (schema.enum?.length === 1 && schema.enum[0] === null) return 'null';
  if (schema.enum) {
    const values = schema.enum.filter((v) => v !== null).map((v) => JSON.stringify(v));
    return `${values.join(' | ')}${nullable}`;
  }
  const union = schema.oneOf ?? schema.anyOf;
  if (union) {
    return join(
      union.map((s, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: union members have no identity beyond their position
        <TypeLabel key={i} schema={s} />
      )),
      ' | ',
    );
  }
  if (schema.type === 'array' && schema.items) {
    return (
      <>
        <TypeLabel schema={schema.items} />
        []{nullable}
      </>
    );
  }
  if (schema.type === 'object' && !schema.properties && schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    return (
      <>
        map of <TypeLabel schema={schema.additionalProperties} />
        {nullable}
      </>
    );
  }
  if (!schema.type) return 'any';
  return `${schema.type}${schema.format ? ` (${schema.format})` : ''}${nullable}`;
}

/** Limits worth a reader's attention, in words. */
function constraints(schema: SchemaObject): string[] {
  const out: string[] = [];
  const range = (min: number | undefined, max: number | undefined, unit: string) => {
    if (min !== undefined && max !== undefined) out.push(`${min} to ${max}${unit}`);
    else if (min !== undefined) out.push(`at least ${min}${unit}`);
    else if (max !== undefined) out.push(`at most ${max}${unit}`);
  };
  range(schema.minLength, schema.maxLength, ' characters');
  range(schema.minimum, schema.maximum, '');
  range(schema.minItems, schema.maxItems, ' items');
  if (schema.pattern) out.push(`pattern ${schema.pattern}`);
  return out;
}

type Row = { field: string; schema: SchemaObject; required: boolean };

/** The rows of an object schema: nested inline objects and arrays of them flatten into dotted fields. */
function rows(schema: SchemaObject, components: Components, prefix: string, depth: number): Row[] {
  const out: Row[] = [];
  for (const [name, sub] of Object.entries(schema.properties ?? {})) {
    const field = prefix ? `${prefix}.${name}` : name;
    out.push({ field, schema: sub, required: Boolean(schema.required?.includes(name)) });
    if (depth >= 4) continue;
    if (sub.type === 'object' && sub.properties) out.push(...rows(sub, components, field, depth + 1));
    if (sub.type === 'array' && sub.items?.type === 'object' && sub.items.properties) {
      out.push(...rows(sub.items, components, `${field}[]`, depth + 1));
    }
  }
  return out;
}

/**
 * A compact table of a schema: field, type, required, description and limits. A `$ref` at the
 * top is expanded (the reader asked for this schema); deeper ones link to the Schemas section.
 */
export function SchemaTable({ schema, components }: { schema: SchemaObject; components: Components }) {
  const top = resolve(schema, components);
  if (top.type !== 'object' || !top.properties) {
    return (
      <p className={styles.muted}>
        <TypeLabel schema={schema} />
        {top.description && (
          <>
            {' '}
            — <Inline text={top.description} />
          </>
        )}
      </p>
    );
  }
  return (
    <div className={styles.tableWrap}>
      <table className={`${styles.table} ${styles.schema}`}>
        <thead>
          <tr>
            <th>Field</th>
            <th>Type</th>
            <th>Description</th>
          </tr>
        </thead>
        <tbody>
          {rows(top, components, '', 0).map(({ field, schema: s, required }) => {
            const limits = constraints(s);
            return (
              <tr key={field}>
                <td>
                  <code className={styles.field}>{field}</code>
                  {required && <span className={styles.required}>required</span>}
                </td>
                <td className={styles.type}>
                  <TypeLabel schema={s} />
                </td>
                <td>
                  {s.description && <Inline text={s.description} />}
                  {limits.length > 0 && <span className={styles.limits}>{limits.join('; ')}</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function JsonExample({ value }: { value: unknown }) {
  return (
    <pre className={styles.code}>
      <code>{JSON.stringify(value, null, 2)}</code>
    </pre>
  );
}
