import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildOpenApiDocument } from '@/platform/openapi/build-document';
import type { ParameterObject, SchemaObject } from '@/platform/openapi/types';
import { operationsOf, resolve } from './bad-input';

/**
 * Rules the service enforces that OpenAPI 3.0 cannot express as a schema, and so must be written
 * in the document's text: unknown query parameters are refused, and map keys have a length limit.
 */
describe('rules the document states in words', () => {
  const docs = { bot: buildOpenApiDocument('bot'), admin: buildOpenApiDocument('admin') };

  it('says on every operation with query parameters that unknown ones are refused', () => {
    const missing = Object.values(docs)
      .flatMap(operationsOf)
      .filter((o) => (o.op.parameters ?? []).some((p) => (p as ParameterObject).in === 'query'))
      .filter((o) => !o.op.description?.includes('Unknown query parameters are refused (2001)'))
      .map((o) => o.op.operationId);
    assert.deepEqual(missing, []);
  });

  it('gives the key limit of every map in a request body', () => {
    const missing: string[] = [];
    for (const [name, doc] of Object.entries(docs)) {
      for (const o of operationsOf(doc)) {
        const body = resolve(doc, o.op.requestBody?.content['application/json']?.schema as SchemaObject | undefined);
        for (const [field, schema] of Object.entries(body?.properties ?? {})) {
          const s = resolve(doc, schema);
          if (
            s?.type === 'object' &&
            s.additionalProperties &&
            !/(keys?|names):? (of 1 to|up to) \d+ characters/i.test(s.description ?? '')
          ) {
            missing.push(`${name} ${o.op.operationId}.${field}: ${s.description}`);
          }
        }
      }
    }
    assert.deepEqual(missing, []);
  });
});
