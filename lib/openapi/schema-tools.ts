import type { AppRouter } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import type { z } from 'zod';
import type { SchemaObject } from './types';

/** What contracts/ gave a zod schema for the documents: `named`, `example`, `eventStream` (contracts/schemas/common.ts). */
export const metaOf = (schema: unknown) =>
  ((schema as { metaOpenApi?: unknown }).metaOpenApi ?? {}) as { title?: string; example?: unknown; events?: Record<string, z.ZodTypeAny> };

/** The component name of a zod schema given one with `named`. */
export function nameOf(schema: z.ZodTypeAny): string {
  const { title } = metaOf(schema);
  if (!title) throw new Error('the schema has no name: give it one with named()');
  return title;
}

const COMPOSITIONS = ['oneOf', 'anyOf', 'allOf'] as const;

/**
 * A zod schema as an OpenAPI 3.0 schema object, converted exactly as the routes are: through
 * @ts-rest/open-api's public `generateOpenApi` on a one-route contract (as a response, i.e. the
 * output type). Its converter (@anatine/zod-openapi) is not a dependency of ours, so we do not
 * import it directly.
 */
export function toOpenApiSchema(schema: z.ZodTypeAny): SchemaObject {
  const router = { probe: { method: 'GET', path: '/', responses: { 200: schema } } } as unknown as AppRouter;
  const doc = generateOpenApi(router, { info: { title: '', version: '' } });
  const converted = doc.paths['/'].get.responses['200'].content['application/json'].schema as SchemaObject;
  // Self-contained: the named schemas inside (which the generator made `$ref`s) are spelled out again.
  const named = (doc.components?.schemas ?? {}) as Record<string, SchemaObject>;
  const inline = (s: SchemaObject): SchemaObject => {
    if (!s.$ref) {
      forEachSubschema(s, inline);
      return s;
    }
    const { title: _, example: __, ...target } = structuredClone(named[s.$ref.split('/').pop() ?? '']);
    return inline(target);
  };
  return fixSchema(inline(structuredClone(converted)));
}

/**
 * Repairs what the converter emits in JSON Schema 2019+ style but OpenAPI 3.0 spells otherwise:
 * - numeric `exclusiveMinimum`/`exclusiveMaximum` (3.0 wants booleans next to minimum/maximum);
 *   on integers the bound simply moves by one (`positive()` becomes `minimum: 1`);
 * - `z.null()` (a union member, or a `response` that is always null), emitted as `{type: string,
 *   format: null, nullable: true}`: spelled `{enum: [null]}`, with neither `type` nor `nullable`.
 *   The 3.0 idiom `{type, nullable: true, enum: [null]}` makes some validators (Prism) build
 *   `enum: [null, null]`, fail to compile it and then skip the schema; the plain enum means the same
 *   to every reader. A union, which has no `type`, may not carry `nullable` either; in a union
 *   the null member is then folded into a typed member (`foldNullMember`);
 * - integer literals (`status_code`) are `type: integer`, as the error envelope's is.
 * Mutates and returns the schema.
 */
export function fixSchema(schema: SchemaObject): SchemaObject {
  for (const [key, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    const value = schema[key];
    if (typeof value !== 'number') continue;
    if (schema.type === 'integer') {
      schema[bound] = key === 'exclusiveMinimum' ? value + 1 : value - 1;
      delete schema[key];
    } else {
      schema[bound] = value;
      schema[key] = true;
    }
  }
  if (schema.format === 'null' && schema.nullable) {
    delete schema.format;
    delete schema.type;
    delete schema.nullable;
    schema.enum = [null];
  }
  if (schema.type === 'number' && schema.enum?.length && schema.enum.every((v) => Number.isInteger(v))) schema.type = 'integer';
  if (schema.nullable && !schema.type && !schema.$ref) delete schema.nullable;
  forEachSubschema(schema, fixSchema);
  foldNullMember(schema);
  return schema;
}

const isNullOnly = (s: SchemaObject) => Object.keys(s).length === 1 && s.enum?.length === 1 && s.enum[0] === null;

/**
 * A union with a `{enum: [null]}` member next to plain typed ones (`other_details` values:
 * string | number | boolean | null) loses that member and marks its first plain typed member
 * `nullable: true` instead (`{type: string, nullable: true, ...}`): the same values, in the 3.0
 * form every client generator reads. orval 7 writes the bare null member as nothing, leaving
 * `string | number | boolean | ` (TS1110). A member with `enum` or `$ref` is not a plain one (the
 * Prism note above); without a plain member, or with one nullable already, the union stays.
 */
function foldNullMember(schema: SchemaObject): void {
  for (const key of ['oneOf', 'anyOf'] as const) {
    const list = schema[key];
    if (!list?.some(isNullOnly)) continue;
    const rest = list.filter((s) => !isNullOnly(s));
    const plain = rest.find((s) => s.type && !s.$ref && !s.enum && !s.nullable);
    if (!plain || rest.some((s) => s.nullable)) continue;
    plain.nullable = true;
    schema[key] = rest;
  }
}

/** Calls `fn` on each direct subschema and stores what it returns in its place. */
export function forEachSubschema(schema: SchemaObject, fn: (sub: SchemaObject) => SchemaObject): void {
  if (schema.properties) {
    for (const [name, sub] of Object.entries(schema.properties)) schema.properties[name] = fn(sub);
  }
  if (schema.items) schema.items = fn(schema.items);
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    schema.additionalProperties = fn(schema.additionalProperties);
  }
  for (const key of COMPOSITIONS) {
    const list = schema[key];
    if (list) schema[key] = list.map(fn);
  }
}

/**
 * An OpenAPI 3.0 schema as a JSON Schema (draft 2020-12) one: `nullable` becomes a `null` type,
 * boolean exclusive bounds become numeric ones, and `$ref`s to components point into `$defs`.
 */
export function toJsonSchema(schema: SchemaObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable') continue;
    // JSON Schema's keyword is `examples`, a list.
    if (key === 'example') out.examples = [value];
    else if (key === '$ref' && typeof value === 'string') out.$ref = value.replace('#/components/schemas/', '#/$defs/');
    else if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value === 'boolean') continue;
    else if (key === 'properties' && value) {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, SchemaObject>).map(([k, v]) => [k, toJsonSchema(v)]));
    } else if ((key === 'items' || key === 'additionalProperties') && value && typeof value === 'object') {
      out[key] = toJsonSchema(value as SchemaObject);
    } else if ((COMPOSITIONS as readonly string[]).includes(key) && Array.isArray(value)) {
      out[key] = value.map((v) => toJsonSchema(v as SchemaObject));
    } else out[key] = value;
  }
  if (schema.exclusiveMinimum === true) {
    out.exclusiveMinimum = schema.minimum;
    delete out.minimum;
  }
  if (schema.exclusiveMaximum === true) {
    out.exclusiveMaximum = schema.maximum;
    delete out.maximum;
  }
  if (schema.nullable) {
    if (Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null) {
      delete out.enum;
      out.type = 'null';
    } else {
      if (schema.type) out.type = [schema.type, 'null'];
      if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
    }
  }
  return out;
}
