import type { AppRouter } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import type { z } from 'zod';
import type { SchemaObject } from './types';

/** What contracts/ gave a zod schema for the documents: `named`, `example`, `eventStream` (contracts/common.ts). */
export const metaOf = (schema: unknown) =>
  ((schema as { metaOpenApi?: unknown }).metaOpenApi ?? {}) as { title?: string; example?: unknown; events?: Record<string, z.ZodTypeAny> };

/** The component name of a zod schema given one with `named`. */
export function nameOf(schema: z.ZodTypeAny): string {
  const { title } = metaOf(schema);
  if (!title) throw new Error('the schema has no name: give it one with named()');
  return title;
}

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
 * - a numeric `exclusiveMinimum` on an integer (`positive()`) becomes `minimum: 1` (the bound plus
 *   one); the contract bounds nothing else exclusively, and the documents' test refuses a numeric
 *   bound that would come without this repair;
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
  if (schema.type === 'integer' && typeof schema.exclusiveMinimum === 'number') {
    schema.minimum = schema.exclusiveMinimum + 1;
    delete schema.exclusiveMinimum;
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

/** Calls `fn` on each direct subschema and stores what it returns in its place (in new lists and property maps). */
function forEachSubschema(schema: SchemaObject, fn: (sub: SchemaObject) => SchemaObject): void {
  if (schema.properties) schema.properties = Object.fromEntries(Object.entries(schema.properties).map(([name, sub]) => [name, fn(sub)]));
  if (schema.items) schema.items = fn(schema.items);
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    schema.additionalProperties = fn(schema.additionalProperties);
  }
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    const list = schema[key];
    if (list) schema[key] = list.map(fn);
  }
}

/**
 * An OpenAPI 3.0 schema, as fixSchema leaves it, as a JSON Schema (draft 2020-12) one: `nullable`
 * becomes a `null` type (and a null in an enum), `example` an `examples` list (JSON Schema's
 * keyword), and `$ref`s to components point into `$defs`. The schema itself is left as it was.
 */
export function toJsonSchema(schema: SchemaObject): Record<string, unknown> {
  const { nullable, example, ...rest } = schema;
  const out: Record<string, unknown> = rest;
  forEachSubschema(rest, (sub) => toJsonSchema(sub) as SchemaObject);
  if (rest.$ref) rest.$ref = rest.$ref.replace('#/components/schemas/', '#/$defs/');
  if (nullable && rest.type) out.type = [rest.type, 'null'];
  if (nullable && rest.enum && !rest.enum.includes(null)) out.enum = [...rest.enum, null];
  if (example !== undefined) out.examples = [example];
  return out;
}
