import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { botApi } from '../support/api-client';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { signedInAdminOf } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';

// The document says `format: date-time` (RFC 3339), which allows a lower-case `t` and `z`: both spellings work.
describe('date-time inputs', () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  before(async () => {
    t = await createTenant(ctx.db);
  });

  for (const [label, stamp] of [
    ['upper case', '2025-03-01T10:15:00Z'],
    ['lower case', '2025-03-01t10:15:00z'],
  ] as const) {
    it(`takes a message timestamp and an updated_since filter in ${label}`, async () => {
      const chat = await newChat(t, { assignee: t.bot.user.loginId });
      const posted = await botApi('POST', `/chats/${chat.chat_id}/messages`, {
        token: t.token,
        body: { type: 'outbound', text: 'hello', timestamp: stamp },
      });
      assert.equal(posted.status, 201, JSON.stringify(posted.body));
      assert.equal(Date.parse(posted.body.response.timestamp), Date.parse('2025-03-01T10:15:00Z'));
      const listed = await botApi('GET', `/chats?updated_since=${encodeURIComponent(stamp)}`, { token: t.token });
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.ok(listed.body.response.chats.some((c: { chat_id: string }) => c.chat_id === chat.chat_id));
    });
  }

  it('takes both spellings in every admin date-time input (audit and bot-request filters, a recovery window)', async () => {
    const { client } = await signedInAdminOf(ctx.db, t.account.id);
    for (const stamp of ['2025-03-01T10:15:00Z', '2025-03-01t10:15:00z', '2025-03-01t11:15:00+01:00']) {
      const q = `since=${encodeURIComponent(stamp)}&until=${encodeURIComponent(stamp.replace('2025', '2099'))}`;
      const audit = await client.get(`/audit-entries?${q}`);
      assert.equal(audit.status, 200, `${stamp}: ${JSON.stringify(audit.body)}`);
      const calls = await client.get(`/bot-requests?virtual_agent_id=${t.bot.user.id}&${q}`);
      assert.equal(calls.status, 200, `${stamp}: ${JSON.stringify(calls.body)}`);
    }
    const recovery = await client.post(`/virtual-agents/${t.bot.user.id}/recoveries`, { since: '2025-03-01t10:15:00z' });
    assert.equal(recovery.status, 201, JSON.stringify(recovery.body));
    assert.equal(recovery.body.response.since, '2025-03-01T10:15:00.000Z');
    const wrong = await client.get('/audit-entries?since=2025-03-01');
    assert.equal(wrong.body.status_code, 2001);
    assert.match(wrong.body.description, /since/);
  });

  // Forms `format: date-time` validators take that RFC 3339 does not: refused by the service, and
  // by the `pattern` the documents carry beside the format on every date-time input.
  const LOOSE = ['2020-01-01 00:00:00Z', '2020-01-01T00:00:00+01', '2020-01-01T00:00:00+0100', '2020-01-01T23:59:60Z', '2020-01-01T00:00Z'];
  const STRICT = ['2020-01-01T00:00:00Z', '2020-01-01t00:00:00z', '2020-01-01T00:00:00.123456+01:00', '2020-01-01T00:00:00-00:00'];

  it('every date-time input of both documents carries the RFC 3339 pattern, which refuses the loose forms', () => {
    const root = path.resolve(import.meta.dirname, '..', '..');
    for (const file of ['openapi.json', 'openapi-admin.json']) {
      const doc = JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));
      const schemas = doc.components?.schemas ?? {};
      const inputs: { where: string; schema: Record<string, unknown> }[] = [];
      const walk = (x: unknown, where: string, seen: Set<string>) => {
        if (Array.isArray(x)) {
          for (const v of x) walk(v, where, seen);
          return;
        }
        if (!x || typeof x !== 'object') return;
        const o = x as Record<string, unknown>;
        if (typeof o.$ref === 'string') {
          const name = o.$ref.split('/').pop() as string;
          if (!seen.has(name)) walk(schemas[name], `${where}>${name}`, new Set([...seen, name]));
        }
        if (o.format === 'date-time') inputs.push({ where, schema: o });
        for (const [k, v] of Object.entries(o)) walk(v, `${where}.${k}`, seen);
      };
      for (const [p, ops] of Object.entries(doc.paths as Record<string, Record<string, { parameters?: unknown; requestBody?: unknown }>>)) {
        for (const [method, op] of Object.entries(ops)) {
          walk(op.parameters, `${method} ${p} parameters`, new Set());
          walk(op.requestBody, `${method} ${p} body`, new Set());
        }
      }
      assert.ok(inputs.length >= 4, `${file}: ${inputs.length} date-time inputs`);
      for (const { where, schema } of inputs) {
        assert.equal(typeof schema.pattern, 'string', `${file} ${where}: no pattern beside format: date-time`);
        const pattern = new RegExp(schema.pattern as string, 'u');
        for (const loose of LOOSE) assert.equal(pattern.test(loose), false, `${file} ${where} allows ${loose}`);
        for (const strict of STRICT) assert.equal(pattern.test(strict), true, `${file} ${where} refuses ${strict}`);
      }
    }
  });

  it('refuses each loose form in a query and in a body (2001, 2000, naming the field) and takes the strict ones', async () => {
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    for (const loose of LOOSE) {
      const listed = await botApi('GET', `/chats?updated_since=${encodeURIComponent(loose)}`, { token: t.token });
      assert.equal(listed.body.status_code, 2001, `${loose}: ${JSON.stringify(listed.body)}`);
      assert.match(listed.body.description, /updated_since/);
      const posted = await botApi('POST', `/chats/${chat.chat_id}/messages`, {
        token: t.token,
        body: { type: 'outbound', text: 'hello', timestamp: loose },
      });
      assert.equal(posted.body.status_code, 2000, `${loose}: ${JSON.stringify(posted.body)}`);
      assert.equal(posted.body.response.errors[0].field, 'timestamp');
    }
    for (const strict of STRICT) {
      const listed = await botApi('GET', `/chats?updated_since=${encodeURIComponent(strict)}`, { token: t.token });
      assert.equal(listed.status, 200, `${strict}: ${JSON.stringify(listed.body)}`);
    }
  });

  it('refuses a date that is not RFC 3339, naming the field', async () => {
    const listed = await botApi('GET', '/chats?updated_since=2025-03-01', { token: t.token });
    assert.equal(listed.body.status_code, 2001);
    assert.match(listed.body.description, /updated_since/);
  });
});
