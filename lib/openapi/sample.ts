import type { SchemaObject } from './types';

const SAMPLE_TIME = '2026-03-02T09:14:07.120Z';

/**
 * A value of a scalar no schema gives an example of, within its bounds. A text is `"string"`, which
 * the documents' test refuses in an example: give the schema one.
 */
function sampleScalar(schema: SchemaObject): unknown {
  if (schema.type === 'boolean') return true;
  if (schema.type === 'string') return schema.format === 'date-time' ? SAMPLE_TIME : 'string';
  return Math.min(Math.max(1, (schema.minimum ?? 0) + (schema.exclusiveMinimum === true ? 1 : 0)), schema.maximum ?? 1);
}

/**
 * An example value that satisfies `schema`: the example of the schema or of its parts (given on the
 * zod schemas in contracts/), else made up from the schema: enums give their first value, unions
 * their first member, optional fields are included.
 */
export function sampleFromSchema(schema: SchemaObject, components: Record<string, SchemaObject>, depth = 0): unknown {
  if (depth > 8) return null;
  if (schema.example !== undefined) return structuredClone(schema.example);
  if (schema.$ref) {
    const target = components[schema.$ref.replace('#/components/schemas/', '')];
    return target ? sampleFromSchema(target, components, depth + 1) : null;
  }
  if (schema.enum?.length) return schema.enum.find((v) => v !== null) ?? null;
  // A nullable value the schemas give no example of: null (a last page's `next_cursor`, say).
  if (schema.nullable && schema.type !== 'object' && schema.type !== 'array') return null;
  const union = schema.oneOf ?? schema.anyOf ?? schema.allOf;
  if (union?.length) return sampleFromSchema(union[0], components, depth + 1);
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(schema.properties ?? {})) out[key] = sampleFromSchema(sub, components, depth + 1);
      return out;
    }
    case 'array': {
      const item = schema.items ? sampleFromSchema(schema.items, components, depth + 1) : null;
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => item);
    }
    case undefined:
      return null;
    default:
      return sampleScalar(schema);
  }
}
