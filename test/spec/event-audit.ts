import assert from 'node:assert/strict';
import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { NextRequest } from 'next/server';
import { Webhook } from 'standardwebhooks';
import { GET as servedDocument } from '@/app/api/v1/openapi.json/route';
import { GET as servedEventSchemas } from '@/app/api/v1/schemas/events.json/route';
import { toJsonSchema } from '@/platform/openapi/schema-tools';
import type { OpenApiDocument, SchemaObject } from '@/platform/openapi/types';
import type { Received } from '../delivery/receiver';

/**
 * Checks for what a bot receives, built from what the service serves: the `WebhookEvent` union of
 * `GET /api/v1/openapi.json`, as published, and once more with every object closed (no property the
 * document does not name), and the JSON Schema of `GET /api/v1/schemas/events.json`.
 */
export async function eventValidators() {
  const doc = (await servedDocument(new Request('http://localhost:3000/api/v1/openapi.json')).json()) as OpenApiDocument;
  const defs = Object.fromEntries(Object.entries(doc.components.schemas).map(([name, s]) => [name, toJsonSchema(s as SchemaObject)]));
  const compile = (defsUsed: Record<string, unknown>) => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'doc', $defs: defsUsed });
    return ajv.compile({ $ref: 'doc#/$defs/WebhookEvent' });
  };
  const served = (await servedEventSchemas(new NextRequest('http://localhost/api/v1/schemas/events.json')).json()) as Record<
    string,
    unknown
  >;
  const ajv2020 = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv2020);
  return {
    asPublished: compile(defs),
    closed: compile(closeObjects(defs) as Record<string, unknown>),
    jsonSchema: ajv2020.compile(served),
    doc,
  };
}

/** A copy where every object schema with `properties` and no `additionalProperties` allows no other key. */
function closeObjects(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(closeObjects);
  if (!value || typeof value !== 'object') return value;
  const out = Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k === 'properties' ? mapValues(v, closeObjects) : closeObjects(v)]),
  );
  if ('properties' in out && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

function mapValues(obj: unknown, fn: (v: unknown) => unknown) {
  return Object.fromEntries(Object.entries(obj as Record<string, unknown>).map(([k, v]) => [k, fn(v)]));
}

export function assertValid(fn: ValidateFunction, body: unknown, what: string) {
  assert.ok(fn(body), `${what}: ${JSON.stringify(fn.errors)}\n${JSON.stringify(body)}`);
}

/** Verifies a captured request as a bot would, with the stock Standard Webhooks library. */
export function assertSigned(r: Received, secret: string) {
  const headers = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));
  assert.doesNotThrow(() => new Webhook(secret).verify(r.raw, headers), `signature of ${r.headers['webhook-id']}`);
  assert.throws(() => new Webhook(secret).verify(`${r.raw} `, headers), 'a changed body must not verify');
}
