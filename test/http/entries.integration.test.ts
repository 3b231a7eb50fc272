import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { NextRequest } from 'next/server';
import { botApiHandler } from '@/app/api/v1/_routers';
import { answerClientError, serveNode } from '@/platform/http/node-entry';
import { setupTestDatabase } from '../support/db';
import { useEnv } from '../support/env';
import { createTenant, type Tenant } from '../support/tenant';

// The bot API through both entries, on one database: Next's route handler (the function Next
// calls for /api/v1/*) and the node:http entry of `npm start` over a real socket. Each request goes
// to one, then the other; the answers must be the same bytes: status, the headers that matter and
// the body, with only what differs by nature masked (trxid, a fresh token, the moment of a write).

type Sent = { headers?: Record<string, string>; body?: string };
type Seen = { status: number; headers: Record<string, string>; body: string };

const COMPARED = ['content-type', 'allow', 'retry-after', 'rate-limit-limit', 'access_token'];

function mask(text: string): string {
  return text
    .replace(/"(updated_at|created_at|closed_at|expires_at|sent_at)":"[^"]+"/g, '"$1":"<time>"')
    .replace(/"access_token":"[^"]+"/g, '"access_token":"<token>"');
}

function seen(status: number, headers: Headers, body: string): Seen {
  const out: Record<string, string> = {};
  for (const name of COMPARED) {
    const v = headers.get(name);
    if (v !== null) out[name] = name === 'access_token' ? '<token>' : v;
  }
  assert.match(headers.get('trxid') ?? '', /\S/, 'every answer carries a trxid');
  out['rate-limit-remaining'] = headers.get('rate-limit-remaining') ?? '<none>';
  // A countdown in seconds: the two requests may fall either side of a second.
  const reset = headers.get('rate-limit-reset');
  if (reset !== null) out['rate-limit-reset'] = Number(reset) > 0 && Number(reset) <= 60 ? '<1..60>' : reset;
  return { status, headers: out, body: mask(body) };
}

describe('the two entries answer alike', () => {
  const ctx = setupTestDatabase();
  useEnv({ BODY_TIMEOUT_MS: '300', MAX_BODY_BYTES: '4096' });
  let t: Tenant;
  let server: http.Server;
  let port: number;

  before(async () => {
    t = await createTenant(ctx.db);
    server = http.createServer((req, res) => void serveNode(botApiHandler.core, req, res));
    server.on('clientError', answerClientError);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function viaNext(method: string, path: string, sent: Sent): Promise<Seen> {
    const req = new NextRequest(`http://127.0.0.1:${port}/api/v1${path}`, { method, headers: sent.headers, body: sent.body });
    const res = await botApiHandler(req);
    return seen(res.status, res.headers, await res.text());
  }

  async function viaNode(method: string, path: string, sent: Sent): Promise<Seen> {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, { method, headers: sent.headers, body: sent.body });
    return seen(res.status, res.headers, await res.text());
  }

  const mismatches: string[] = [];
  async function both(method: string, path: string, sent: Sent = {}): Promise<Seen> {
    const a = await viaNext(method, path, sent);
    const b = await viaNode(method, path, sent);
    // The second request counted one more against the same budget: the account's, when a token is
    // sent (without one, calls count per client address, which the two entries see differently).
    if (a.headers['rate-limit-remaining'] !== '<none>' && sent.headers?.access_token) {
      assert.equal(Number(b.headers['rate-limit-remaining']), Number(a.headers['rate-limit-remaining']) - 1, `${method} ${path}`);
    }
    delete a.headers['rate-limit-remaining'];
    delete b.headers['rate-limit-remaining'];
    try {
      assert.deepEqual(b, a);
    } catch {
      mismatches.push(`${method} ${path}\n  next: ${JSON.stringify(a)}\n  node: ${JSON.stringify(b)}`);
    }
    return a;
  }

  const json = (token: string | null, body?: unknown, extra: Record<string, string> = {}): Sent => ({
    headers: { ...(token ? { access_token: token } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...extra },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

  it('answers every operation and refusal of the suite with the same bytes', async () => {
    const team = { team_id: String(t.botTeam.id) };
    // Authorization
    assert.equal((await both('POST', '/authorize', json(null, { api_key: t.bot.apiKey }))).status, 200);
    assert.equal((await both('POST', '/authorize', json(null, { api_key: 'vak_nope' }))).status, 401);
    assert.equal((await both('POST', '/authorize', json(null, {}))).status, 400);
    // Identity
    assert.equal((await both('GET', '/teams', json(t.token))).status, 200);
    assert.equal((await both('GET', '/teams', json(null))).status, 400);
    assert.equal((await both('GET', '/teams', json('not-a-token'))).status, 400);
    // Chats. A create with an Idempotency-Key writes once (Next entry); retries replay the stored
    // answer, and the two entries must replay it alike.
    const create = {
      channel: 'sms',
      asset_id: t.assets.sms.id,
      customer: { destination_id: '+15550001111', name: 'Ann' },
      team_id: t.botTeam.id,
      assignee: t.bot.user.loginId,
      tags: ['first'],
    };
    const first = await viaNext('POST', '/chats', json(t.token, create, { 'Idempotency-Key': 'entries-1' }));
    assert.equal(first.status, 201);
    const created = await both('POST', '/chats', json(t.token, create, { 'Idempotency-Key': 'entries-1' }));
    assert.equal(created.status, 201);
    const chatId = JSON.parse(created.body).response.chat_id as string;
    assert.equal(
      (await both('POST', '/chats', json(t.token, { ...create, tags: ['other'] }, { 'Idempotency-Key': 'entries-1' }))).status,
      409,
    );
    assert.equal((await both('POST', '/chats', json(t.token, { channel: 'fax' }))).status, 400);
    assert.equal((await both('GET', '/chats?status=picked&page_size=2', json(t.token))).status, 200);
    assert.equal((await both('GET', '/chats?page_size=many&status=nope', json(t.token))).status, 400);
    assert.equal((await both('GET', `/chats/${chatId}`, json(t.token))).status, 200);
    assert.equal((await both('GET', '/chats/00000000-0000-4000-8000-000000000000', json(t.token))).status, 404);
    // Updates and their refusals.
    assert.equal((await both('PATCH', `/chats/${chatId}`, json(t.token, { tags: ['a', 'b', 'a'] }, team))).status, 200);
    assert.equal((await both('PATCH', `/chats/${chatId}`, json(t.token, { tags: ['a'] }))).status, 400);
    assert.equal((await both('PATCH', `/chats/${chatId}`, json(t.token, { tags: 'a', status: 'lost' }, team))).status, 400);
    const raw = (type: string, body: string): Sent => ({ headers: { access_token: t.token, 'content-type': type, ...team }, body });
    assert.equal((await both('PATCH', `/chats/${chatId}`, raw('application/json', '{"tags": ['))).status, 400);
    assert.equal((await both('PATCH', `/chats/${chatId}`, raw('text/plain', 'tags=x'))).status, 415);
    assert.equal(
      (await both('PATCH', `/chats/${chatId}`, raw('application/json', JSON.stringify({ tags: ['x'.repeat(5000)] })))).status,
      413,
    );
    assert.equal((await both('PATCH', `/chats/${chatId}`, raw('application/json', ''))).status, 400);
    // Messages.
    const reply = json(t.token, { type: 'outbound', text: 'Hello' }, { 'Idempotency-Key': 'entries-reply' });
    assert.equal((await viaNext('POST', `/chats/${chatId}/messages`, reply)).status, 201);
    assert.equal((await both('POST', `/chats/${chatId}/messages`, reply)).status, 201);
    assert.equal((await both('GET', `/chats/${chatId}/messages?page_size=5`, json(t.token))).status, 200);
    // Routing refusals.
    assert.equal((await both('DELETE', '/chats', json(t.token))).status, 405);
    assert.equal((await both('OPTIONS', `/chats/${chatId}`, json(t.token))).status, 405);
    assert.equal((await both('GET', '/nothing-here', json(t.token))).status, 404);
    // Handover last: it takes the chat from the bot, which then may not transfer it again (2043).
    const transfer = json(t.token, { transfer: { teamid: String(t.humanTeam.id), skill_name: 'billing' } });
    assert.equal((await viaNext('PATCH', `/internal/chats/${chatId}`, transfer)).status, 202);
    assert.equal((await both('PATCH', `/internal/chats/${chatId}`, transfer)).status, 403);
    assert.deepEqual(mismatches, []);
  });

  it('answers a slowly sent body with 2015/408 on both entries', async () => {
    const stalled = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"tags": ['));
      },
    });
    const headers = { access_token: t.token, team_id: String(t.botTeam.id), 'content-type': 'application/json' };
    const req = new NextRequest(`http://127.0.0.1:${port}/api/v1/chats/x`, {
      method: 'PATCH',
      headers,
      body: stalled,
      duplex: 'half',
    } as never);
    const viaNextRes = await botApiHandler(req);
    assert.equal(viaNextRes.status, 408);
    assert.deepEqual(JSON.parse(await viaNextRes.text()), {
      status_code: 2015,
      description: 'Request body not received in time: the body did not arrive in full within 300 ms',
      response: null,
    });

    const head = `PATCH /api/v1/chats/x HTTP/1.1\r\nhost: x\r\naccess_token: ${t.token}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"tags": [`;
    const answer = await rawExchange(port, head);
    assert.match(answer, /^HTTP\/1\.1 408 /);
    assert.match(answer, /"status_code":2015/);
  });

  it('answers malformed paths and unknown methods in the envelope on the node:http entry', async () => {
    const bad = await rawExchange(port, 'GET /api/v1/chats/%ZZ HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
    assert.match(bad, /^HTTP\/1\.1 400 /);
    assert.match(bad, /"status_code":2016/);
    const trace = await rawExchange(
      port,
      `TRACE /api/v1/chats HTTP/1.1\r\nhost: x\r\naccess_token: ${t.token}\r\nconnection: close\r\n\r\n`,
    );
    assert.match(trace, /^HTTP\/1\.1 405 /);
    assert.match(trace, /allow: POST, GET/i);
    assert.match(trace, /"status_code":2099/);
    const unknown = await rawExchange(port, 'FOO /api/v1/chats HTTP/1.1\r\nhost: x\r\n\r\n');
    assert.match(unknown, /^HTTP\/1\.1 405 /);
    assert.match(unknown, /"status_code":2099/);
  });
});

/** Writes raw bytes on a new connection and returns all the server sends until it closes the connection. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let got = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => {
      got += d;
    });
    socket.on('end', () => resolve(got));
    socket.on('error', reject);
  });
}
