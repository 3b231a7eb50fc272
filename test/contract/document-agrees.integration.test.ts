import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { POST_MESSAGE_EXAMPLES } from '@/contracts/bot/message-examples';
import { admins, events, skills } from '@/db/schema';
import { replayRunFinished } from '@/lib/replay/start-replay-run';
import { hashPassword } from '@/platform/auth/passwords';
import { buildOpenApiDocument } from '@/platform/openapi/build-document';
import type { OpenApiDocument, ParameterObject } from '@/platform/openapi/types';
import { ApiClient, type ApiReply, botApi } from '../support/api-client';
import { newChat } from '../support/chats';
import { setupTestDatabase } from '../support/db';
import { ADMIN_PASSWORD } from '../support/people';
import { createTenant, type Tenant } from '../support/tenant';
import { type DocOperation, operationsOf } from './bad-input';
import { DocumentValidator, type Exchange } from './document-validator';

/**
 * The document and the service agree: every operation's documented example (with the IDs of this
 * database in place of the example's) is allowed by the document, succeeds, and is answered as
 * the document says; and the validator used for that notices a schema that lies.
 */

/** The example IDs and names the reference uses, and what stands for them here. */
type Stand = {
  botTeam: number;
  humanTeam: number;
  livechatAsset: number;
  humanBilling: number;
  botLogin: string;
  botUserId: number;
  apiKey: string;
  email: string;
  sandboxVa: number;
};

function substitute(value: unknown, s: Stand): unknown {
  if (typeof value === 'number') {
    return (
      ({ 672: s.botTeam, 673: s.humanTeam, 3101: s.livechatAsset, 21: s.humanBilling, 8801: s.sandboxVa } as Record<number, number>)[
        value
      ] ?? value
    );
  }
  if (typeof value === 'string') {
    // Integer headers are documented as decimal digits.
    if (/^[0-9]+$/.test(value)) return String(substitute(Number(value), s));
    if (value === 'va-billing-bot') return s.botLogin;
    // An event cursor names its VA (8 hex digits after `ev`) and a position of one of its events;
    // the stand's bot has no event at the example's position (that is 2064): its start instead.
    if (/^ev[0-9a-f]{8}/.test(value)) return `ev${s.botUserId.toString(16).padStart(8, '0')}${'0'.repeat(32)}`;
    if (value.startsWith('vak_')) return s.apiKey;
    if (value === 'ops@acme.example') return s.email;
    if (value === 'correct-horse-battery-staple') return ADMIN_PASSWORD;
    if (value.startsWith('https://bot.acme.example/')) return 'http://127.0.0.1:9/hook';
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, s));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, s)]));
  return value;
}

describe('the OpenAPI documents and the service agree', () => {
  // The replay example starts a run in the background: it ends before the database closes.
  let runId = '';
  after(async () => {
    await replayRunFinished(runId);
  });
  const ctx = setupTestDatabase();
  const bot = buildOpenApiDocument('bot');
  const adminDoc = buildOpenApiDocument('admin');
  let t: Tenant;
  let admin: ApiClient;
  let stand: Stand;

  before(async () => {
    t = await createTenant(ctx.db);
    const email = `platform-${t.account.id}@example.test`;
    await ctx.db
      .insert(admins)
      .values({ accountId: t.account.id, email, passwordHash: await hashPassword(ADMIN_PASSWORD), isPlatformAdmin: true });
    admin = new ApiClient('admin');
    assert.equal((await admin.login(email, ADMIN_PASSWORD)).status, 200);
    const [billing] = await ctx.db
      .select({ id: skills.id })
      .from(skills)
      .where(and(eq(skills.teamId, t.humanTeam.id), eq(skills.name, 'billing')));
    stand = {
      botTeam: t.botTeam.id,
      humanTeam: t.humanTeam.id,
      livechatAsset: t.assets.livechat.id,
      humanBilling: billing.id,
      botLogin: t.bot.user.loginId,
      botUserId: t.bot.user.id,
      apiKey: t.bot.apiKey,
      email,
      sandboxVa: 0,
    };
    // A replay sandbox VA for the replay examples (its webhook answers nothing: each turn times out at once).
    const sandboxVa = await admin.post('/replay/virtual-agents', { name: 'Contract sandbox bot', webhook_url: 'http://127.0.0.1:9/hook' });
    stand.sandboxVa = (sandboxVa.body.response as { id: number }).id;
  });

  /** Sends one request and returns it with its answer, as the validator reads them. */
  async function exchange(method: string, url: string, headers: Record<string, string>, body?: unknown, raw?: string): Promise<Exchange> {
    const isAdmin = url.startsWith('/api/admin');
    const rel = url.slice(isAdmin ? '/api/admin'.length : '/api/v1'.length);
    const opts = { headers, ...(body !== undefined && { body }), ...(raw !== undefined && { raw }) };
    const cookie = admin.cookieHeader(); // as sent: signing out clears it
    const reply: ApiReply = isAdmin ? await admin.request(method, rel, opts) : await botApi(method, rel, { ...opts, token: t.token });
    return {
      method,
      url,
      headers: isAdmin ? { ...headers, cookie } : { ...headers, access_token: t.token },
      body,
      status: reply.status,
      responseBody: reply.body,
    };
  }

  /**
   * Path and parameters of an operation's example (or of its named example `named`), with real
   * IDs, and the chat it needs created first: on the example's channel, held by the bot (a VA
   * writes only into chats it holds).
   */
  async function exampleRequest(o: DocOperation, ids: Record<string, string>, named?: string) {
    const params = (o.op.parameters ?? []).filter((p): p is ParameterObject => 'in' in p);
    const needsChat = params.some((p) => p.name === 'chat_id');
    const channel = (named && POST_MESSAGE_EXAMPLES[named]?.channel) || 'livechat';
    const chatId = needsChat ? (await newChat(t, { channel, team_id: t.botTeam.id, assignee: t.bot.user.loginId })).chat_id : '';
    // A streamed reply's operations need one open in that chat.
    const transid = o.path.includes('{transid}')
      ? (await botApi('POST', `/chats/${chatId}/messages`, { token: t.token, body: { type: 'outbound', stream: true } })).body.response
          .transid
      : '';
    // An approval's operations need a request of that chat.
    const approvalId = o.path.includes('{approval_id}')
      ? (
          await botApi('POST', `/chats/${chatId}/approvals`, {
            token: t.token,
            body: { action: 'refund', summary: 'Refund', expires_in_seconds: 600, team_id: t.humanTeam.id },
          })
        ).body.response.approval_id
      : '';
    const path = o.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === 'chat_id' ? chatId : name === 'transid' ? transid : name === 'approval_id' ? approvalId : ids[name],
    );
    const query = new URLSearchParams();
    const headers: Record<string, string> = {};
    for (const p of params) {
      if (p.example === undefined) continue;
      const value = String(substitute(p.example, stand));
      if (p.in === 'query') query.set(p.name, value);
      if (p.in === 'header')
        headers[p.name] = p.name === 'Idempotency-Key' ? `${value}-${o.op.operationId}${named ? `-${named}` : ''}` : value;
    }
    const content = o.op.requestBody?.content['application/json'];
    const body = content ? substitute(named ? content.examples?.[named]?.value : content.example, stand) : undefined;
    // A reply sent as an event stream: its example is the stream's text.
    const events = o.op.requestBody?.content['text/event-stream'];
    if (events)
      return {
        url: `${path}${query.size ? `?${query}` : ''}`,
        headers: { ...headers, 'content-type': 'text/event-stream' },
        raw: String(events.example),
      };
    return { url: `${path}${query.size ? `?${query}` : ''}`, headers, body };
  }

  it('notices a schema that does not match the service (a deliberately broken document)', async () => {
    const chat = await newChat(t);
    const x = await exchange('GET', `/api/v1/chats/${chat.chat_id}`, {});
    assert.deepEqual(new DocumentValidator(bot).check(x).violations, [], 'the real document accepts the answer');
    const broken = structuredClone(bot) as OpenApiDocument;
    broken.components.schemas.Chat.properties!.chat_id = { type: 'integer' };
    const verdict = new DocumentValidator(broken).check(x);
    assert.ok(
      verdict.violations.some((v) => v.includes('/response/chat_id') && v.includes('integer')),
      verdict.violations.join('\n'),
    );
    // And a request the broken document allows but the service refuses is reported too.
    const widened = structuredClone(bot) as OpenApiDocument;
    const widenedBody = widened.components.schemas.UpdateChatBody;
    delete widenedBody.minProperties;
    const empty = await exchange('PATCH', `/api/v1/chats/${chat.chat_id}`, { team_id: String(t.botTeam.id) }, {});
    assert.ok(
      new DocumentValidator(widened).check(empty).violations.some((v) => v.includes('refused it with 2000')),
      'an allowed request refused for an unstated reason is a violation',
    );
    assert.equal(new DocumentValidator(bot).check(empty).requestAllowed, false, 'the real document says {} is refused');
  });

  it('sends every operation its documented example: allowed by the document, answered 2xx as documented', async () => {
    const validators = { bot: new DocumentValidator(bot), admin: new DocumentValidator(adminDoc) };
    const [{ id: ruleId }] = [
      (await admin.post('/routing-rules', { name: 'Replay rule', conditions: [], team_id: t.botTeam.id })).body.response as { id: number },
    ];
    const team = (await admin.post('/teams', { name: 'Replay team', skills: ['gone'] })).body.response as {
      id: number;
      skills: { id: number }[];
    };
    const assigned = await newChat(t, { assignee: t.bot.user.loginId });
    const [event] = await ctx.db.select({ id: events.id }).from(events).where(eq(events.chatId, assigned.chat_id));
    await ctx.db.update(events).set({ status: 'failed', failedAt: new Date() }).where(eq(events.id, event.id));

    // The run whose chats the examples add, start and read: short turns, so it ends before the file does.
    const run = await admin.post('/replays', { virtual_agent_id: stand.sandboxVa, settle_ms: 0, turn_timeout_ms: 100 });
    runId = (run.body.response as { run_id: string }).run_id;
    const idsFor = (path: string): Record<string, string> => {
      if (path.includes('/replays/')) return { run_id: runId };
      if (path.includes('/teams/')) return { id: String(team.id), skill_id: String(team.skills[0].id) };
      if (path.includes('/users/')) return { id: String(t.agent.id) };
      if (path.includes('/virtual-agents/')) return { id: String(t.bot.user.id) };
      if (path.includes('/routing-rules/')) return { id: String(ruleId) };
      if (path.includes('/events/')) return { id: String(event.id) };
      if (path.includes('/accounts/')) return { id: String(t.account.id) };
      if (path.includes('/assets/')) return { id: String(t.assets.sms.id) };
      return {};
    };
    // Logging out ends the session the others use, and rotating the key revokes the bot's token: both go last.
    const last = ['adminRotateApiKey', 'adminLogout'];
    const all = [...operationsOf(bot), ...operationsOf(adminDoc)].sort(
      (a, b) => last.indexOf(a.op.operationId ?? '') - last.indexOf(b.op.operationId ?? ''),
    );
    const failures: string[] = [];
    let namedSent = 0;
    for (const o of all) {
      // A Server-Sent Events stream does not end: its example is read in test/pull (resume, limits).
      if (o.op.responses?.['200'] && 'content' in o.op.responses['200'] && o.op.responses['200'].content?.['text/event-stream']) continue;
      const names = Object.keys(o.op.requestBody?.content['application/json']?.examples ?? {});
      for (const named of names.length ? names : [undefined]) {
        const req = await exampleRequest(o, idsFor(o.path), named);
        const x = await exchange(o.method, req.url, req.headers, req.body, 'raw' in req ? req.raw : undefined);
        const verdict = (o.path.startsWith('/api/admin') ? validators.admin : validators.bot).check(x);
        const problems = [
          ...(verdict.requestAllowed ? [] : [`the document refuses its own example: ${verdict.requestErrors.join('; ')}`]),
          ...verdict.violations,
          ...(x.status < 300 ? [] : [`answered ${x.status} ${JSON.stringify(x.responseBody)}`]),
        ];
        if (problems.length) failures.push(`${o.op.operationId}${named ? ` (${named})` : ''}: ${problems.join(' | ')}`);
        if (named) namedSent++;
      }
    }
    assert.equal(namedSent, Object.keys(POST_MESSAGE_EXAMPLES).length, 'every named example of postMessage was sent');
    assert.deepEqual(failures, []);
  });
});
