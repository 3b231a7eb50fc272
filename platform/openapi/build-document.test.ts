import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { z } from 'zod';
import { CODES, type Code } from '@/contracts/codes';
import { errorEnvelopeSchema } from '@/contracts/common';
import { buildOpenApiDocument, COMMITTED_DOCUMENTS, codesOfRoute, documentedRoutes } from './build-document';
import { EVENT_COMPONENTS, EVENT_EXAMPLES, eventJsonSchema, eventJsonSchemas, eventTypeOf } from './events';
import { fixSchema } from './schema-tools';
import { HTTP_METHODS, type OperationObject } from './types';

const doc = buildOpenApiDocument();
const operationsOf = (d: typeof doc): OperationObject[] =>
  Object.values(d.paths).flatMap((item) => HTTP_METHODS.flatMap((m) => (item[m] ? [item[m]] : [])));
const operations = operationsOf(doc);
const byId = new Map(operations.map((op) => [op.operationId, op]));

/** Where two JSON values first differ, as a JSON pointer-ish path, for a readable failure. */
function firstDifference(a: unknown, b: unknown, at = ''): string | null {
  if (JSON.stringify(a) === JSON.stringify(b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}/${k}`);
      if (d) return d;
    }
  }
  return at || '/';
}

describe('OpenAPI document', () => {
  for (const [file, scope] of Object.entries(COMMITTED_DOCUMENTS)) {
    it(`matches the committed ${file} (the ${scope} document)`, () => {
      const committed = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '..', '..', file), 'utf8'));
      const generated = JSON.parse(JSON.stringify(buildOpenApiDocument(scope)));
      const diff = firstDifference(generated, committed);
      assert.equal(diff, null, `${file} is out of date at ${diff}: run \`npm run openapi:write\` and commit the result`);
    });
  }

  it('keeps the bot document free of the admin API, and the admin document free of the bot API', () => {
    const bot = JSON.stringify(buildOpenApiDocument('bot'));
    const admin = buildOpenApiDocument('admin');
    const leak = /\/api\/admin\/(?!openapi\.json)|adminSession|"Admin[A-Z]/.exec(bot);
    assert.equal(leak && bot.slice(leak.index - 60, leak.index + 40), null, 'the bot document mentions the admin API');
    assert.ok(Object.keys(admin.paths).every((p) => p.startsWith('/api/admin/')));
    assert.equal(admin['x-webhooks'], undefined);
    assert.deepEqual(Object.keys(admin.components.securitySchemes), ['adminSession']);
  });

  it('describes the widget API in its own document: its paths only, the customer credential, the live stream events', () => {
    const widget = buildOpenApiDocument('widget');
    const ops = Object.values(widget.paths).flatMap((item) => HTTP_METHODS.flatMap((m) => (item[m] ? [item[m]] : [])));
    assert.deepEqual(
      ops.map((op) => op.operationId).sort(),
      documentedRoutes('widget')
        .map((r) => r.operationId)
        .sort(),
    );
    assert.ok(Object.keys(widget.paths).every((p) => p.startsWith('/api/widget/')));
    assert.deepEqual(Object.keys(widget.components.securitySchemes), ['widgetCustomer']);
    for (const op of ops) {
      assert.ok(op.description?.trim(), `${op.operationId} has a description`);
      const open = op.operationId === 'widgetGetApp' || op.operationId === 'widgetCreateVisitor';
      assert.deepEqual(op.security, open ? [] : [{ widgetCustomer: [] }], `${op.operationId} security`);
    }
    const stream = widget.paths['/api/widget/chats/{chat_id}/stream'].get?.responses[200];
    assert.ok(stream?.content?.['text/event-stream']);
    for (const name of Object.values((stream as unknown as { 'x-sse-events': Record<string, { $ref: string }> })['x-sse-events'])) {
      assert.ok(widget.components.schemas[name.$ref.replace('#/components/schemas/', '')], `${name.$ref} is in the document`);
    }
    assert.doesNotMatch(JSON.stringify(widget), /adminSession|accessToken/);
  });

  it('names every success payload: each 2xx schema is a $ref to a component', () => {
    for (const op of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        // A stream's success (Server-Sent Events, JSON Lines) is the stream, not an envelope.
        if (response.content?.['text/event-stream'] || response.content?.['application/x-ndjson']) continue;
        const ref = response.content?.['application/json']?.schema?.$ref;
        assert.ok(ref, `${op.operationId} ${status} has a named schema`);
        const target = doc.components.schemas[ref.replace('#/components/schemas/', '')];
        if (Number(status) < 300)
          assert.equal(target?.properties?.status_code?.type, 'integer', `${op.operationId}: status_code is an integer`);
      }
    }
  });

  it('gives every operation a unique readable operationId, a summary, a tag and 4xx and 5xx responses', () => {
    const ids = operations.map((op) => op.operationId);
    assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
    for (const op of operations) {
      assert.match(op.operationId ?? '', /^[a-z][A-Za-z]+$/, 'operationId is camelCase');
      assert.ok(op.summary?.trim(), `${op.operationId} has a summary`);
      assert.equal(op.tags?.length, 1, `${op.operationId} has one tag`);
      const statuses = Object.keys(op.responses).map(Number);
      assert.ok(
        statuses.some((s) => s >= 400 && s < 500),
        `${op.operationId} documents a 4xx response`,
      );
      assert.ok(
        statuses.some((s) => s >= 500),
        `${op.operationId} documents a 5xx response`,
      );
      assert.ok(
        statuses.some((s) => s < 300),
        `${op.operationId} documents its success`,
      );
      assert.ok(op.security, `${op.operationId} states its security`);
    }
    for (const id of ['authorize', 'createChat', 'updateChat', 'transferChat', 'postMessage']) assert.ok(byId.has(id), id);
    assert.deepEqual(byId.get('transferChat')?.tags, ['transfer']);
  });

  it('documents each code of a route under its HTTP status, in each document, and no error status without a code', () => {
    for (const scope of Object.values(COMMITTED_DOCUMENTS)) {
      const ops = new Map(operationsOf(buildOpenApiDocument(scope)).map((op) => [op.operationId, op]));
      for (const { operationId, route } of documentedRoutes(scope)) {
        const op = ops.get(operationId)!;
        // The handler answers every path-parameter failure with 2014, so the contract must say so.
        if (route.pathParams) assert.ok(codesOfRoute(route).includes(2014), `${operationId}: list 2014 in its errors(...)`);
        for (const code of codesOfRoute(route)) {
          const response = op.responses[CODES[code].http];
          assert.ok(response?.['x-status-codes']?.includes(code), `${operationId}: ${code} is documented under HTTP ${CODES[code].http}`);
          assert.match(response.description, new RegExp(`\\b${code}\\b`));
        }
        for (const [status, response] of Object.entries(op.responses)) {
          if (Number(status) >= 400) assert.ok(response['x-status-codes']?.length, `${operationId} ${status} names its codes`);
        }
      }
    }
    assert.deepEqual(
      doc['x-status-codes'].map((c) => c.code),
      Object.keys(CODES).map(Number),
      'x-status-codes is the whole catalogue',
    );
  });

  it('shows examples the contract accepts, made from the examples on the schemas rather than made up', () => {
    for (const scope of Object.values(COMMITTED_DOCUMENTS)) {
      const d = buildOpenApiDocument(scope);
      for (const [name, schema] of Object.entries(d.components.schemas)) {
        // A named schema's example is typed by its zod schema; the document must agree with it.
        if (schema.example !== undefined) assert.ok(!JSON.stringify(schema.example).includes('"string"'), `${name}: its example`);
      }
      const ops = new Map(operationsOf(d).map((op) => [op.operationId, op]));
      for (const { operationId, route } of documentedRoutes(scope)) {
        const op = ops.get(operationId)!;
        for (const [status, response] of Object.entries(op.responses)) {
          const schema = (route.responses as Record<string, unknown>)[status] as z.ZodTypeAny | undefined;
          for (const [key, example] of Object.entries(response.content?.['application/json']?.examples ?? {})) {
            const result = (schema ?? errorEnvelopeSchema).safeParse(example.value);
            assert.ok(result.success, `${operationId} ${status} example ${key}: ${!result.success && result.error.message}`);
            if (Number(status) >= 400) assert.equal(CODES[Number(key) as Code].http, Number(status));
            // `string` is a placeholder, not an example: give the schema a real one.
            if (scope !== 'widget')
              assert.doesNotMatch(JSON.stringify(example.value), /"string"/, `${operationId} ${status}: give its schema an example`);
          }
        }
        // A body sent as an event stream (streamReply) is text: its example is read in test/llm.
        if (op.requestBody?.content['application/json']) {
          const media = op.requestBody.content['application/json'];
          const named = Object.entries(media.examples ?? {}).map(([key, e]) => [key, e.value] as const);
          for (const [key, value] of named.length ? named : [['example', media.example] as const]) {
            const result = (route as { body: z.ZodTypeAny }).body.safeParse(value);
            assert.ok(result.success, `${operationId} request example ${key}: ${!result.success && result.error.message}`);
            assert.doesNotMatch(JSON.stringify(value), /"string"/, `${operationId}: give its body schema an example`);
          }
        }
      }
    }
  });

  it('publishes every event body as a component, an x-webhooks entry and a JSON Schema', () => {
    for (const name of ['ChatAssignedEvent', 'MessageReceivedEvent', 'ChatClosedEvent']) {
      assert.ok(name in EVENT_COMPONENTS, `${name} is one of the event schemas`);
    }
    const bundle = eventJsonSchemas('https://va.example');
    for (const [name, schema] of Object.entries(EVENT_COMPONENTS)) {
      const type = eventTypeOf(name as keyof typeof EVENT_COMPONENTS);
      assert.equal(doc.components.schemas[name]?.type, 'object', `${name} is a schema component`);
      const webhook = doc['x-webhooks']?.[type]?.post;
      assert.equal(webhook?.requestBody?.content['application/json'].schema?.$ref, `#/components/schemas/${name}`);
      const example = EVENT_EXAMPLES[name];
      assert.ok(example, `${name} has an example`);
      assert.ok(schema.safeParse(example).success, `${name} example matches the schema`);
      assert.ok(name in bundle.$defs, `${name} is in the JSON Schema bundle`);
      const single = eventJsonSchema(type, 'https://va.example');
      assert.equal(single?.$id, `https://va.example/api/v1/schemas/events/${type}.json`);
      const properties = single?.properties as Record<string, { enum?: unknown[] }> | undefined;
      assert.equal(properties?.event_type.enum?.[0], type);
    }
    assert.equal(eventJsonSchema('no.such', ''), null);
    assert.doesNotMatch(JSON.stringify(bundle), /"nullable"/, 'JSON Schema spells null as a type, not nullable');
    assert.match(JSON.stringify(bundle.$defs.ChatAssignedEvent), /"type":\["object","null"\]/, 'nullable objects allow null');
  });

  it('emits OpenAPI 3.0 schemas: boolean exclusive bounds, no nullable without a type', () => {
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== 'object') return;
      const o = node as Record<string, unknown>;
      if ('exclusiveMinimum' in o) assert.equal(typeof o.exclusiveMinimum, 'boolean', at);
      if (o.nullable === true && !o.type && !o.$ref) assert.fail(`${at}: nullable without type`);
      for (const [k, v] of Object.entries(o)) if (k !== 'example' && k !== 'examples') walk(v, `${at}/${k}`);
    };
    walk(doc.paths, '#/paths');
    walk(doc.components, '#/components');
    const queryParams = operations.flatMap((op) => (op.parameters ?? []).filter((p) => 'in' in p && p.in === 'query'));
    for (const p of queryParams)
      assert.notEqual('schema' in p && p.schema?.nullable, true, `query ${'name' in p && p.name} is not nullable`);
  });

  it('spells null in a union as nullable on a typed member, never as a bare {enum: [null]} member (orval 7)', () => {
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== 'object') return;
      const o = node as Record<string, unknown>;
      for (const key of ['oneOf', 'anyOf']) {
        const list = o[key];
        if (Array.isArray(list) && list.some((m) => JSON.stringify(m) === '{"enum":[null]}')) assert.fail(`${at}/${key}: bare null member`);
      }
      for (const [k, v] of Object.entries(o)) if (k !== 'example' && k !== 'examples') walk(v, `${at}/${k}`);
    };
    walk(doc.paths, '#/paths');
    walk(doc.components, '#/components');
    assert.deepEqual(
      fixSchema({ oneOf: [{ type: 'string', maxLength: 5 }, { type: 'number' }, { type: 'string', format: 'null', nullable: true }] }),
      {
        oneOf: [{ type: 'string', maxLength: 5, nullable: true }, { type: 'number' }],
      },
    );
    const refOnly = { oneOf: [{ $ref: '#/components/schemas/Chat' }, { type: 'string', format: 'null', nullable: true }] };
    assert.deepEqual(
      fixSchema(refOnly),
      { oneOf: [{ $ref: '#/components/schemas/Chat' }, { enum: [null] }] },
      'a union without a plain member stays',
    );
  });
});
