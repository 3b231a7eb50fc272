import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { buildOpenApiDocument } from '@/platform/openapi/build-document';
import type { ParameterObject } from '@/platform/openapi/types';
import { type ApiClient, type ApiReply, botApi } from '../support/api-client';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { signedInAdminOf } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';
import { badBodies, badPathValues, badQueries, type DocOperation, operationsOf } from './bad-input';
import { DocumentValidator } from './document-validator';

/**
 * Every operation of both APIs, driven from the OpenAPI document with input its schemas refuse:
 * text with NUL or lone surrogates, integers beyond `integer`, wrong JSON types, unknown keys and
 * parameters, out-of-range path segments and headers. Each must answer a 4xx envelope and write
 * nothing.
 */

/**
 * Tables a refused request may still touch: session and token bookkeeping, the rate limiters'
 * counters (in the database on PostgreSQL) and the bot request log, which records refusals by
 * design. Not data.
 */
const BOOKKEEPING = new Set(['admin_sessions', 'access_tokens', '__drizzle_migrations', 'rate_limits', 'bot_requests']);

async function tableNames(db: Db): Promise<string[]> {
  const result = await db.execute(sql`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { tablename: string }[];
  return rows.map((r) => r.tablename).filter((t) => !BOOKKEEPING.has(t));
}

/** A digest of every data table's rows: any insert, update or delete changes it. */
async function checksum(db: Db, tables: string[]): Promise<string> {
  const parts = tables.map(
    (t) => sql`SELECT ${t}::text AS t, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h FROM ${sql.identifier(t)} x`,
  );
  const result = await db.execute(sql.join(parts, sql` UNION ALL `));
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { t: string; h: string }[];
  return rows.map((r) => `${r.t}:${r.h}`).join(',');
}

function assertRefused(reply: ApiReply, what: string) {
  const detail = `${what}: ${reply.status} ${JSON.stringify(reply.body)}`;
  assert.ok(reply.status >= 400 && reply.status < 500, `expected a 4xx, got ${detail}`);
  const body = reply.body as Record<string, unknown>;
  assert.ok(body && typeof body === 'object', `envelope expected: ${detail}`);
  assert.ok(Number.isInteger(body.status_code), `integer status_code: ${detail}`);
  assert.equal(typeof body.description, 'string', detail);
  assert.ok('response' in body, detail);
}

describe('bad input on every operation: a 4xx envelope and nothing written', () => {
  const ctx = setupTestDatabase();
  const doc = buildOpenApiDocument();
  let t: Tenant;
  let admin: ApiClient;
  let chatId: string;
  let tables: string[];

  before(async () => {
    t = await createTenant(ctx.db);
    admin = (await signedInAdminOf(ctx.db, t.account.id)).client;
    chatId = (await newChat(t)).chat_id;
    // The audit log records refused admin calls too, by design (their status says so); every other table must not change.
    tables = (await tableNames(ctx.db)).filter((name) => name !== 'audit_entries');
  });

  /** Real values for path parameters, so only the mutated part of a request is wrong. */
  function pathWith(path: string, override?: { name: string; value: string }): string {
    const real: Record<string, string> = { chat_id: chatId, skill_id: '1' };
    const ids: [RegExp, () => number][] = [
      [/\/teams\//, () => t.botTeam.id],
      [/\/users\//, () => t.agent.id],
      [/\/virtual-agents\//, () => t.bot.user.id],
    ];
    return path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (override?.name === name) return override.value;
      if (name in real) return real[name];
      return String(ids.find(([re]) => re.test(path))?.[1]() ?? 1);
    });
  }

  const validator = new DocumentValidator(doc);

  /** Sends the request and checks the answer against the document (documented status, code and shape). */
  async function send(
    o: DocOperation,
    opts: { path?: string; query?: string; body?: unknown; headers?: Record<string, string>; mapKey?: boolean },
  ) {
    const reply = await sendRaw(o, opts);
    const url = (opts.path ?? pathWith(o.path)) + (opts.query ? `?${opts.query}` : '');
    const headers: Record<string, string> = {
      ...opts.headers,
      ...(o.path.startsWith('/api/v1') ? { access_token: t.token } : { cookie: admin.cookieHeader() }),
    };
    if (o.method === 'PATCH' && o.path === '/api/v1/chats/{chat_id}') headers.team_id ??= String(t.botTeam.id);
    const verdict = validator.check({ method: o.method, url, headers, body: opts.body, status: reply.status, responseBody: reply.body });
    // OpenAPI 3.0 has no `propertyNames`: rules on map keys are stated in the maps' descriptions only.
    const stated = opts.mapKey ? verdict.violations.filter((v) => !v.startsWith('the document allows this request')) : verdict.violations;
    assert.deepEqual(stated, [], `${o.op.operationId} ${url} ${JSON.stringify(opts.body)}`);
    return reply;
  }

  function sendRaw(o: DocOperation, opts: { path?: string; query?: string; body?: unknown; headers?: Record<string, string> }) {
    const isAdmin = o.path.startsWith('/api/admin');
    const base = isAdmin ? '/api/admin' : '/api/v1';
    const rel = (opts.path ?? pathWith(o.path)).slice(base.length) + (opts.query ? `?${opts.query}` : '');
    const headers: Record<string, string> = { ...opts.headers };
    if (o.path.endsWith('/chats/{chat_id}') && o.method === 'PATCH' && !isAdmin) headers.team_id ??= String(t.botTeam.id);
    const body = opts.body;
    if (isAdmin) return admin.request(o.method, rel, { headers, ...(body !== undefined && { body }) });
    return botApi(o.method, rel, { token: t.token, headers, ...(body !== undefined && { body }) });
  }

  // Logging out ends the session the other cases use; its only input is the cookie.
  const operations = operationsOf(doc).filter((o) => o.op.operationId !== 'adminLogout');

  it('covers every operation of both APIs', () => {
    assert.ok(operations.some((o) => o.path.startsWith('/api/v1/')));
    assert.ok(operations.some((o) => o.path.startsWith('/api/admin/')));
    assert.equal(operations.length, operationsOf(doc).length - 1);
  });

  for (const o of operations) {
    it(`${o.op.operationId} (${o.method} ${o.path})`, async () => {
      const cases: { label: string; run: () => Promise<ApiReply> }[] = [];
      for (const { label, body } of badBodies(doc, o.op))
        cases.push({ label, run: () => send(o, { body, mapKey: label.includes(' key with ') }) });
      for (const { label, query } of badQueries(o.op)) cases.push({ label, run: () => send(o, { query }) });
      const params = (o.op.parameters ?? []).filter((p): p is ParameterObject => 'in' in p);
      for (const p of params.filter((p) => p.in === 'path')) {
        for (const value of badPathValues(p)) {
          cases.push({ label: `path ${p.name}=${value}`, run: () => send(o, { path: pathWith(o.path, { name: p.name, value }) }) });
        }
      }
      // Integer headers are documented as decimal digits (strings with a pattern).
      for (const p of params.filter((p) => p.in === 'header' && (p.schema?.type === 'integer' || p.schema?.pattern?.includes('[0-9]')))) {
        // A value the header's own pattern accepts is not bad input (a stream's Last-Event-ID of 15 digits is a cursor).
        const pattern = p.schema?.pattern ? new RegExp(p.schema.pattern) : null;
        for (const value of ['999999999999999', '1e10', '-1', 'abc'].filter((v) => !pattern?.test(v))) {
          cases.push({ label: `header ${p.name}: ${value}`, run: () => send(o, { headers: { [p.name]: value } }) });
        }
      }
      if (!cases.length) return; // No input of its own beyond the session (e.g. GET /api/admin/me).
      const before = await checksum(ctx.db, tables);
      for (const c of cases) assertRefused(await c.run(), `${o.op.operationId} ${c.label}`);
      assert.equal(await checksum(ctx.db, tables), before, `${o.op.operationId}: a refused request wrote to the database`);
    });
  }
});
