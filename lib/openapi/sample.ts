import type { SchemaObject } from './types';

const SAMPLE_TIME = '2026-03-02T09:14:07.120Z';

/** A plausible value of a string property, guessed from its name when the schema says no more. */
function sampleString(schema: SchemaObject, name: string): string {
  if (schema.format === 'date-time') return SAMPLE_TIME;
  if (schema.format === 'email' || /email/.test(name)) return 'ops@example.com';
  if (schema.format === 'uri' || schema.format === 'url' || /url$/.test(name)) return 'https://bot.example.com/webhook';
  if (schema.format === 'uuid') return '5d7f8a2e-1c3b-4e6d-9f0a-b2c4d6e8f0a1';
  let value = /password/.test(name)
    ? 'correct-horse-battery'
    : /login_id$/.test(name)
      ? 'va-billing-bot'
      : /name$/.test(name)
        ? 'Billing bot'
        : /(^|_)id$/.test(name)
          ? 'a81f3b77'
          : /description/.test(name)
            ? 'Answers billing questions'
            : 'string';
  if (schema.minLength && value.length < schema.minLength) value = value.padEnd(schema.minLength, 'x');
  if (schema.maxLength && value.length > schema.maxLength) value = value.slice(0, schema.maxLength);
  return value;
}

function sampleNumber(schema: SchemaObject, name: string): number {
  let value = /(^|_)id$/.test(name) ? 42 : 1;
  if (typeof schema.minimum === 'number' && value < schema.minimum) value = schema.minimum + (schema.exclusiveMinimum === true ? 1 : 0);
  if (typeof schema.maximum === 'number' && value > schema.maximum) value = schema.maximum;
  return value;
}

/**
 * An example value that satisfies `schema` (for operations without a hand-written example).
 * Enums give their first value, unions their first member, optional fields are included.
 */
export function sampleFromSchema(schema: SchemaObject, components: Record<string, SchemaObject>, name = '', depth = 0): unknown {
  if (depth > 8) return null;
  if (schema.$ref) {
    const target = components[schema.$ref.replace('#/components/schemas/', '')];
    return target ? sampleFromSchema(target, components, name, depth + 1) : null;
  }
  if (schema.enum?.length) return schema.enum.find((v) => v !== null) ?? null;
  const union = schema.oneOf ?? schema.anyOf ?? schema.allOf;
  if (union?.length) return sampleFromSchema(union[0], components, name, depth + 1);
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(schema.properties ?? {})) out[key] = sampleFromSchema(sub, components, key, depth + 1);
      return out;
    }
    case 'array': {
      const item = schema.items ? sampleFromSchema(schema.items, components, name, depth + 1) : null;
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => item);
    }
    case 'string':
      return sampleString(schema, name);
    case 'integer':
    case 'number':
      return sampleNumber(schema, name);
    case 'boolean':
      return true;
    default:
      return null;
  }
}
