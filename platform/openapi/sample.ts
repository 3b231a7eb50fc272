import type { SchemaObject } from './types';

/**
 * An example value of `schema`, made of the examples of the schema and its parts (given on the zod
 * schemas in contracts/): an object of its properties' examples, a list of its item's. A part
 * without one gets its enum's first value, null where null is allowed, its union's first member,
 * `true`, or a number from 1; anything else (a text) is null, which the documents' test refuses
 * where null is not allowed: give that schema an example.
 */
export function sampleFromSchema(schema: SchemaObject, components: Record<string, SchemaObject>): unknown {
  const sample = (s: SchemaObject) => sampleFromSchema(s, components);
  if (schema.example !== undefined) return structuredClone(schema.example);
  if (schema.$ref) return sample(components[schema.$ref.replace('#/components/schemas/', '')] ?? {});
  if (schema.enum?.length) return schema.enum.find((v) => v !== null) ?? null;
  if (schema.nullable && schema.type !== 'object' && schema.type !== 'array') return null;
  const union = schema.oneOf ?? schema.anyOf ?? schema.allOf;
  if (union?.length) return sample(union[0]);
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, s]) => [key, sample(s)]));
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => (schema.items ? sample(schema.items) : null));
    case 'boolean':
      return true;
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    default:
      return null;
  }
}
