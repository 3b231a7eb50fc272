/**
 * The Python client (clients/python) covers the bot API's published document (openapi.json): every
 * operation has a method with its parameters, every schema a TypedDict with its fields. When the
 * document grows, this fails and says what to add where.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const PKG = 'clients/python/va_chat';
type Schema = { $ref?: string; type?: string; properties?: Record<string, Schema>; enum?: unknown[] };
type Operation = {
  operationId: string;
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
type Covered = { operations: Record<string, string[] | null>; types: Record<string, string[]> };
const published = JSON.parse(fs.readFileSync(path.join(ROOT, 'openapi.json'), 'utf8')) as Doc;

const python = spawnSync('python3', ['clients/python/tests/describe.py'], { cwd: ROOT, encoding: 'utf8' });
const skip = python.error ? 'python3 is not installed: the Python client cannot be described' : false;

const schemaOf = (doc: Doc, s: Schema | undefined): Schema | undefined =>
  s?.$ref ? doc.components.schemas[s.$ref.split('/').pop() ?? ''] : s;
const pascal = (id: string) => id[0].toUpperCase() + id.slice(1);
const snake = (name: string) => name.toLowerCase().replace(/-/g, '_');

describe('the Python client covers openapi.json', { skip }, () => {
  const covered: Covered = skip ? { operations: {}, types: {} } : JSON.parse(python.stdout);

  it('has a method for every operation, with every parameter', () => {
    const missing = operationGaps(published, covered);
    assert.deepEqual(missing, [], `clients/python does not cover openapi.json:\n${missing.join('\n')}`);
  });

  it('has a TypedDict for every schema and every inline answer, with every field', () => {
    const missing = schemaGaps(published, covered);
    assert.deepEqual(missing, [], `clients/python does not cover openapi.json:\n${missing.join('\n')}`);
  });

  it('says what to add where when the document gains an operation, a parameter or a field', () => {
    const changed = structuredClone(published);
    changed.paths['/api/v1/chats/{chat_id}/refunds'] = {
      post: { operationId: 'requestRefund', parameters: [{ name: 'chat_id', in: 'path' }], responses: {} },
    };
    changed.paths['/api/v1/chats'].get.parameters?.push({ name: 'turn_id', in: 'query' });
    changed.components.schemas.Chat.properties = { ...changed.components.schemas.Chat.properties, latest_turn: { type: 'object' } };
    changed.components.schemas.Refund = { type: 'object', properties: { id: { type: 'string' } } };
    const known = new Set([...operationGaps(published, covered), ...schemaGaps(published, covered)]);
    assert.deepEqual(
      operationGaps(changed, covered).filter((g) => !known.has(g)),
      [
        'operation listChats (GET /api/v1/chats): add the keyword parameters turn_id to its method in clients/python/va_chat/client.py',
        'operation requestRefund (POST /api/v1/chats/{chat_id}/refunds): add a method to VaChatClient in clients/python/va_chat/client.py and map "requestRefund" to it in OPERATIONS',
      ],
    );
    assert.deepEqual(
      schemaGaps(changed, covered).filter((g) => !known.has(g)),
      [
        'schema Chat: add the fields latest_turn to class Chat in clients/python/va_chat/types.py',
        'schema Refund: add `class Refund(TypedDict, total=False)` with id to clients/python/va_chat/types.py',
      ],
    );
  });
});

function operationGaps(doc: Doc, covered: Covered): string[] {
  const missing: string[] = [];
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const where = `${op.operationId} (${method.toUpperCase()} ${p})`;
      const params = covered.operations[op.operationId];
      if (params === undefined || params === null) {
        missing.push(
          `operation ${where}: add a method to VaChatClient in ${PKG}/client.py and map "${op.operationId}" to it in OPERATIONS`,
        );
        continue;
      }
      const wanted = (op.parameters ?? []).filter((x) => x.name !== 'access_token').map((x) => snake(x.name));
      const json = op.requestBody?.content['application/json']?.schema;
      if (json && !params.includes('body')) {
        // A body given as keyword arguments: its fields (a one-field wrapper's inner fields), fixed values aside.
        let body = schemaOf(doc, json);
        const keys = Object.keys(body?.properties ?? {});
        if (keys.length === 1 && schemaOf(doc, body?.properties?.[keys[0]])?.properties) body = schemaOf(doc, body?.properties?.[keys[0]]);
        for (const [field, s] of Object.entries(body?.properties ?? {})) {
          if (s.enum?.length === 1 || (op.operationId === 'authorize' && field === 'api_key')) continue;
          wanted.push(field);
        }
      }
      if (op.requestBody?.content['text/event-stream']) wanted.push('events');
      const lacking = wanted.filter((w) => !params.includes(w));
      if (lacking.length)
        missing.push(`operation ${where}: add the keyword parameters ${lacking.join(', ')} to its method in ${PKG}/client.py`);
    }
  }
  return missing;
}

function schemaGaps(doc: Doc, covered: Covered): string[] {
  const wanted = new Map<string, string[]>();
  for (const [name, s] of Object.entries(doc.components.schemas)) {
    // A success envelope's inline answer is `<Operation>Response`; an error envelope (its answer
    // carries `errors`) is a TypedDict of its own name, like any schema.
    if (/Envelope$/.test(name) && !s.properties?.response?.properties?.errors) {
      const answer = s.properties?.response;
      if (answer?.properties) wanted.set(`${pascal(name.replace(/Envelope$/, ''))}Response`, Object.keys(answer.properties));
      continue;
    }
    if (s.properties) wanted.set(name, Object.keys(s.properties));
  }
  const missing: string[] = [];
  for (const [name, fields] of wanted) {
    const have = covered.types[name];
    if (!have) missing.push(`schema ${name}: add \`class ${name}(TypedDict, total=False)\` with ${fields.join(', ')} to ${PKG}/types.py`);
    else {
      const lacking = fields.filter((f) => !have.includes(f));
      if (lacking.length) missing.push(`schema ${name}: add the fields ${lacking.join(', ')} to class ${name} in ${PKG}/types.py`);
    }
  }
  return missing;
}
