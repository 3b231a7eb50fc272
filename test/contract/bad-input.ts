import type { OpenApiDocument, OperationObject, ParameterObject, SchemaObject } from '@/platform/openapi/types';
import { HTTP_METHODS } from '@/platform/openapi/types';

/** One operation of the document, with its method and path template. */
export type DocOperation = { method: string; path: string; op: OperationObject };

export function operationsOf(doc: OpenApiDocument): DocOperation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((m) => (item[m] ? [{ method: m.toUpperCase(), path, op: item[m] as OperationObject }] : [])),
  );
}

/** Follows a `$ref` to a schema component (one level is all the document uses). */
export function resolve(doc: OpenApiDocument, schema: SchemaObject | undefined): SchemaObject | undefined {
  if (!schema?.$ref) return schema;
  return doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')];
}

/**
 * The schema of the value found at `path` inside a value of `schema` (object properties, array
 * items, map values and the members of a union, first match), or undefined.
 */
function schemaAt(doc: OpenApiDocument, schema: SchemaObject | undefined, path: (string | number)[]): SchemaObject | undefined {
  let s = resolve(doc, schema);
  for (const key of path) {
    if (!s) return undefined;
    const members = s.anyOf ?? s.oneOf;
    if (members)
      s = resolve(
        doc,
        members.find((m) => resolve(doc, m)?.type === 'object' || resolve(doc, m)?.type === 'array'),
      );
    if (!s) return undefined;
    if (typeof key === 'number') s = resolve(doc, s.items);
    else s = resolve(doc, s.properties?.[key] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined));
  }
  return s;
}

type Leaf = { path: (string | number)[]; value: unknown };

function leaves(value: unknown, path: (string | number)[] = []): Leaf[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...path, i]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
  return [{ path, value }];
}

function setAt(value: unknown, path: (string | number)[], leaf: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]] = leaf;
  return copy;
}

/** Text no column can hold, and integers beyond PostgreSQL's `integer`. */
const BAD_TEXT = ['nul \u0000 inside', 'lone \ud800 surrogate', '\udc00'];
const BAD_INTEGERS = [2 ** 31, 2 ** 53, 1e308, -1, 1.5];
const BAD_INTEGER_TEXT = ['1e10', '2147483648', '999999999999999', '9007199254740992', '-1', '1.5', 'abc'];

/**
 * Bodies the document's schema refuses, made from the operation's own example: each text leaf with
 * NUL or a lone surrogate, each integer leaf out of range, each boolean as text, an unknown key, and
 * bodies of the wrong JSON type. Leaves whose schema allows any number (map values) keep numbers.
 */
export function badBodies(doc: OpenApiDocument, op: OperationObject): { label: string; body: unknown }[] {
  const content = op.requestBody?.content['application/json'];
  if (!content) return [];
  const example = content.example ?? Object.values(content.examples ?? {})[0]?.value;
  const out: { label: string; body: unknown }[] = [
    { label: 'body null', body: null },
    { label: 'body array', body: [] },
    { label: 'body text', body: 'text' },
  ];
  if (example && typeof example === 'object' && !Array.isArray(example))
    out.push({ label: 'unknown key', body: { ...example, zz_unknown: 1 } });
  for (const leaf of leaves(example)) {
    const at = leaf.path.join('.');
    const schema = schemaAt(doc, content.schema, leaf.path);
    if (typeof leaf.value === 'string') {
      // Appended as well as alone, so values that must match a pattern still reach the text check.
      for (const bad of [...BAD_TEXT, ...BAD_TEXT.map((b) => leaf.value + b)]) {
        out.push({ label: `${at} = ${JSON.stringify(bad)}`, body: setAt(example, leaf.path, bad) });
      }
    } else if (typeof leaf.value === 'number' && schema?.type === 'integer') {
      for (const bad of BAD_INTEGERS) out.push({ label: `${at} = ${bad}`, body: setAt(example, leaf.path, bad) });
    } else if (typeof leaf.value === 'boolean' && schema?.type === 'boolean') {
      out.push({ label: `${at} = "true"`, body: setAt(example, leaf.path, 'true') });
    }
  }
  // Text inside maps as keys, which examples rarely show.
  for (const [name, prop] of Object.entries(resolve(doc, content.schema)?.properties ?? {})) {
    const s = resolve(doc, prop);
    if (s?.type === 'object' && s.additionalProperties && example && typeof example === 'object') {
      out.push({ label: `${name} key with NUL`, body: { ...(example as object), [name]: { 'k\u0000': 'v' } } });
    }
  }
  return out;
}

/** Query strings the parameter schemas refuse, one parameter at a time, plus an unknown parameter. */
export function badQueries(op: OperationObject): { label: string; query: string }[] {
  const params = (op.parameters ?? []).filter((p): p is ParameterObject => 'in' in p && p.in === 'query');
  if (!params.length) return [];
  const out = [{ label: 'unknown parameter', query: 'zz_unknown=1' }];
  for (const p of params) {
    const s = p.schema ?? {};
    const values = s.type === 'integer' || s.type === 'number' ? BAD_INTEGER_TEXT : s.enum ? ['not-in-enum', 'x\u0000'] : ['x\u0000y'];
    for (const v of values) out.push({ label: `${p.name}=${JSON.stringify(v)}`, query: `${p.name}=${encodeURIComponent(v)}` });
    if (s.format === 'date-time') out.push({ label: `${p.name} not a date`, query: `${p.name}=yesterday` });
  }
  return out;
}

/** Path segments the parameter schemas refuse (percent-encoded as a client would send them). */
export function badPathValues(param: ParameterObject): string[] {
  const s = param.schema ?? {};
  if (s.type === 'integer' || s.type === 'number') return BAD_INTEGER_TEXT.map(encodeURIComponent);
  return [encodeURIComponent('x\u0000y'), 'x'.repeat(101)];
}
