/**
 * An instance's cap on the live streams it holds (EVENT_STREAMS_PER_INSTANCE), against a real
 * server process over HTTP: streams of every surface share it (here the bot's pulled events and the
 * console's chat page), the one past it is refused with 2051 (503, Retry-After, the connection
 * closed) before its route runs, a stream that ends gives its seat back, and a stream its route
 * refuses (a bad cursor) holds none. Without the setting the cap comes from the open-file limit,
 * less the descriptors kept for everything else.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { streamCapacity } from '@/platform/realtime/stream-seats';
import { until } from '../delivery/helpers';
import { type ApiServer, adminCall, adminSignIn, botCreateChat, startApiServer } from '../support/child-process';

const ADMIN = { email: `admin-${randomBytes(3).toString('hex')}@example.test`, password: 'correct horse battery staple 42' };

/** Each test fails, naming itself, rather than hanging on an answer that never comes. */
const BOUNDED = { timeout: 60_000 };

type Opened = { status: number; headers: http.IncomingHttpHeaders; body: string; close: () => void; socketClosed: () => boolean };

/** GETs a stream route; a 200 is held open (its first bytes read), anything else read whole. */
function openStream(url: string, headers: Record<string, string>): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { accept: 'text/event-stream', ...headers }, agent: false });
    req.on('error', reject);
    // An answer (or a 200's first frame) that does not come fails the test, naming the route.
    const late = setTimeout(() => req.destroy(new Error(`GET ${url}: no answer within 10 s`)), 10_000);
    req.on('close', () => clearTimeout(late));
    req.on('response', (res) => {
      let closed = false;
      res.socket.once('close', () => {
        closed = true;
      });
      const socketClosed = () => closed;
      const close = () => req.destroy();
      let body = '';
      res.setEncoding('utf8');
      if (res.statusCode === 200) {
        res.once('data', (chunk: string) => {
          clearTimeout(late);
          resolve({ status: 200, headers: res.headers, body: chunk, close, socketClosed });
        });
        res.on('error', () => {});
        return;
      }
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, close, socketClosed }));
    });
  });
}

describe('the live streams one instance holds', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-stream-seats-'));
  let server: ApiServer | undefined;
  let base = '';
  let cookie = '';
  let token = '';
  let chatId = '';

  before(async () => {
    server = await startApiServer({ dir, tag: 'seats', admin: ADMIN, extraEnv: { EVENT_STREAMS_PER_INSTANCE: '2' } });
    base = server.base;
    cookie = await adminSignIn(base, ADMIN);
    const admin = <T>(method: string, p: string, body?: unknown) => adminCall<T>(base, cookie, method, p, body);
    const team = await admin<{ id: number }>('POST', '/teams', { name: 'Bots', auto_assign: false });
    const asset = await admin<{ id: number }>('POST', '/assets', { channel: 'livechat', name: 'Widget' });
    const va = await admin<{ api_key: string; login_id: string }>('POST', '/virtual-agents', {
      name: 'Seat taker',
      description: 'holds streams',
      delivery_mode: 'pull',
      subscriptions: ['chat.assigned', 'message.received'],
      team_id: team.id,
    });
    const auth = await fetch(`${base}/api/v1/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: va.api_key }),
    });
    token = ((await auth.json()) as { response: { access_token: string } }).response.access_token;
    chatId = await botCreateChat(base, token, { assetId: asset.id, visitor: 'seat-visitor', assignee: va.login_id });
  });

  after(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const pulled = (headers: Record<string, string> = {}) => openStream(`${base}/api/v1/events/stream`, { access_token: token, ...headers });
  const chatPage = () => openStream(`${base}/api/admin/chats/${chatId}/stream`, { cookie });

  it('refuses the stream past the cap with 2051, over every surface, and admits again once one ends', BOUNDED, async () => {
    const first = await pulled();
    assert.equal(first.status, 200);
    const second = await chatPage();
    assert.equal(second.status, 200, "the console's stream shares the instance's seats with the bot's");

    const over = await pulled();
    assert.equal(over.status, 503);
    const refusal = JSON.parse(over.body) as { status_code: number; description: string };
    assert.equal(refusal.status_code, 2051);
    assert.match(refusal.description, /as many live streams as it can/);
    assert.match(refusal.description, /this instance holds 2 live streams \(EVENT_STREAMS_PER_INSTANCE: 2\)$/);
    assert.equal(over.headers['retry-after'], '10');
    assert.equal(over.headers.connection, 'close', 'a refused client does not keep a descriptor with keep-alive');
    await until('the server to close the refused connection', over.socketClosed);
    const overPage = await chatPage();
    assert.equal(overPage.status, 503);

    // One stream ends: its seat comes back (the server sees the client leave a moment later).
    first.close();
    await until('a seat is free again', async () => {
      const again = await pulled();
      if (again.status === 200) {
        again.close();
        return true;
      }
      assert.equal(again.status, 503);
      return false;
    });
    second.close();
  });

  it('holds no seat for a stream its route refuses', BOUNDED, async () => {
    const held = await chatPage();
    assert.equal(held.status, 200);
    // Refused by the route (a cursor this service never gave): answered in the envelope, no seat kept.
    for (let i = 0; i < 3; i++) {
      const bad = await pulled({ 'last-event-id': 'not-a-cursor' });
      assert.equal(bad.status, 400);
      assert.equal((JSON.parse(bad.body) as { status_code: number }).status_code, 2060);
    }
    const second = await pulled();
    assert.equal(second.status, 200, 'the refused opens gave their seats back');
    const third = await pulled();
    assert.equal(third.status, 503);
    held.close();
    second.close();
  });
});

describe('the cap without EVENT_STREAMS_PER_INSTANCE', () => {
  it('is the open-file limit less a tenth, at least 256, kept for the rest', () => {
    const line = fs
      .readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.slice('Max open files'.length).trim().split(/\s+/)[0]);
    assert.ok(soft > 0);
    assert.equal(streamCapacity(), Math.max(1, soft - Math.max(256, Math.ceil(soft / 10))));
  });
});
