import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ApiClient, cookieOf } from '../support/api-client';
import { freePort } from '../support/private-cluster';
import { type ProductionServer, startProductionServer, stopProductionServer, waitForServer } from '../support/production-server';

// A reply sent as one event stream (POST /chats/{id}/messages/stream) is answered at the stream's
// `finish`; a client such as the AI SDK still sends `data: [DONE]` and the body's end after it.
// The connection must then serve the client's next request, on both entries of the build: under
// plain `next start`, the body's web stream used to be cancelled at `finish`, Next stopped reading
// the connection, and the next request on it was never answered (a bot's next reply hung).

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const noBuild = fs.existsSync(path.join(ROOT, '.next', 'BUILD_ID')) ? false : 'needs a production build (npm run build)';
// The servers run on the embedded database whatever DATABASE_URL says: the PostgreSQL pass would repeat this.
const onPostgres = process.env.DATABASE_URL ? 'the servers run on the embedded database (runs in the PGlite suite)' : false;
const ADMIN = { email: 'stream-edges@example.test', password: 'correct horse battery staple' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A bot (pull mode) holding a new livechat chat: its token and the chat's id. */
async function botWithChat(base: string) {
  const admin = new ApiClient('admin', { base });
  const login = await admin.login(ADMIN.email, ADMIN.password);
  assert.equal(login.status, 200, login.raw);
  const post = async (p: string, body: unknown) => {
    const r = await admin.post(p, body, { headers: { origin: base, cookie: cookieOf(login) } });
    assert.equal(r.status, 201, `${p}: ${r.raw}`);
    return r.body.response;
  };
  const team = await post('/teams', { name: 'Stream edges', auto_assign: true });
  const asset = await post('/assets', { channel: 'livechat', name: 'Stream edges' });
  const va = await post('/virtual-agents', {
    name: 'Stream bot',
    description: 'streams its replies',
    webhook_url: 'http://127.0.0.1:9/hook',
    delivery_mode: 'pull',
    subscriptions: ['chat.assigned'],
    team_id: team.id,
  });
  const bot = new ApiClient('bot', { base });
  const token = (await bot.post('/authorize', { api_key: va.api_key })).body.response.access_token as string;
  const chat = await bot.post(
    '/chats',
    {
      channel: 'livechat',
      asset_id: asset.id,
      customer: { destination_id: `stream-edges-${Date.now()}` },
      assignee: va.login_id,
      messages: [{ type: 'inbound', text: 'Where is my parcel?' }],
    },
    { headers: { access_token: token } },
  );
  assert.equal(chat.status, 201, chat.raw);
  return { token, chatId: chat.body.response.chat_id as string };
}

/** A socket to the server, connected; fails (rather than hangs) when it cannot connect in 5 s. */
async function connect(port: number): Promise<net.Socket> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no connection to 127.0.0.1:${port} within 5 s`)), 5_000);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
  socket.on('error', () => {});
  return socket;
}

/** Polls `done` every 10 ms for at most `ms`; the caller asserts on what it then has. */
async function poll(done: () => boolean, ms: number): Promise<void> {
  for (let waited = 0; !done() && waited < ms; waited += 10) await sleep(10);
}

/** An HTTP answer received whole: its Content-Length read, or its last chunk. */
function whole(text: string): boolean {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end));
  return length ? text.length - end - 4 >= Number(length[1]) : text.endsWith('0\r\n\r\n');
}

/**
 * On one socket: a streamed reply whose `[DONE]` and end come `afterMs` after its `finish`, then
 * GET /api/health. Answers the two status lines (the second empty when it never came).
 */
async function replyThenNext(port: number, token: string, chatId: string, afterMs: number): Promise<[string, string]> {
  const socket = await connect(port);
  let text = '';
  socket.on('data', (d) => {
    text += d.toString('latin1');
  });
  const chunk = (t: string) => `${Buffer.byteLength(t).toString(16)}\r\n${t}\r\n`;
  const event = (part: object) => chunk(`data: ${JSON.stringify(part)}\n\n`);
  try {
    socket.write(
      `POST /api/v1/chats/${chatId}/messages/stream HTTP/1.1\r\nHost: x\r\naccess_token: ${token}\r\n` +
        'content-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n',
    );
    for (const part of [{ type: 'start' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'On its way.' }]) {
      socket.write(event(part));
      await sleep(20);
    }
    socket.write(event({ type: 'text-end', id: 't' }) + event({ type: 'finish' }));
    // The answer, whole, before the client's last bytes.
    await poll(() => whole(text), 10_000);
    const first = text.split('\r\n')[0];
    await sleep(afterMs);
    socket.write(chunk('data: [DONE]\n\n'));
    await sleep(5);
    socket.write('0\r\n\r\n');
    text = '';
    await sleep(50);
    socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    await poll(() => text.includes('\r\n\r\n'), 5_000);
    return [first, text.split('\r\n')[0]];
  } finally {
    socket.destroy();
  }
}

/**
 * On one socket: a chunked JSON body past MAX_BODY_BYTES (refused while it is sent), its end once
 * the refusal came, then GET /api/health. Answers the refusal's status line and what became of the
 * next request: answered (its status line), or the connection closed by the server; never a hang.
 */
async function refusedThenNext(port: number): Promise<[string, string]> {
  const socket = await connect(port);
  let text = '';
  let closed = false;
  socket.on('data', (d) => {
    text += d.toString('latin1');
  });
  socket.on('close', () => {
    closed = true;
  });
  try {
    socket.write('POST /api/v1/authorize HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n');
    const chunk = `${(1000).toString(16)}\r\n${'x'.repeat(1000)}\r\n`;
    for (let i = 0; i < 10 && !text; i++) {
      socket.write(chunk);
      await sleep(5);
    }
    await poll(() => whole(text), 10_000);
    const first = text.split('\r\n')[0];
    if (!closed) socket.write('0\r\n\r\n');
    text = '';
    await sleep(50);
    if (!closed) socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    await poll(() => text.includes('\r\n\r\n') || closed, 5_000);
    return [first, text ? text.split('\r\n')[0] : closed ? 'closed' : 'no answer'];
  } finally {
    socket.destroy();
  }
}

for (const entry of [
  { name: 'npm start', next: false },
  { name: 'next start (npm start -- --next)', next: true },
]) {
  describe(`${entry.name}: a connection after a body the route did not read to its end`, { skip: noBuild || onPostgres }, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-stream-edges-'));
    let server: ProductionServer;
    let port: number;
    let bot: { token: string; chatId: string };
    before(async () => {
      port = await freePort();
      server = startProductionServer(
        port,
        {
          DATA_DIR: path.join(dir, 'pglite'),
          DATABASE_URL: '',
          ADMIN_EMAIL: ADMIN.email,
          ADMIN_PASSWORD: ADMIN.password,
          DELIVERY_ENGINE: 'off',
          MAX_BODY_BYTES: '4096',
        },
        undefined,
        { next: entry.next },
      );
      await waitForServer(server);
      bot = await botWithChat(server.base);
    });
    after(async () => {
      if (server) await stopProductionServer(server);
      fs.rmSync(dir, { recursive: true, force: true });
    });

    for (const afterMs of [0, 20, 200]) {
      it(`with [DONE] and the body's end ${afterMs} ms after the answer`, { timeout: 30_000 }, async () => {
        const [reply, next] = await replyThenNext(port, bot.token, bot.chatId, afterMs);
        assert.match(reply, /^HTTP\/1\.1 201 /, `the streamed reply was not answered 201 within 10 s (got "${reply}")`);
        assert.match(next, /^HTTP\/1\.1 200 /, `the next request on the connection was not answered within 5 s (got "${next}")`);
      });
    }

    it('a body refused for its size leaves a connection that answers the next request or is closed, never one that hangs', {
      timeout: 30_000,
    }, async () => {
      const [refused, next] = await refusedThenNext(port);
      assert.match(refused, /^HTTP\/1\.1 413 /, `the body was not refused 413 within 10 s (got "${refused}")`);
      assert.match(
        next,
        /^(HTTP\/1\.1 200 |closed$)/,
        `the connection neither answered the next request nor closed within 5 s (got "${next}")`,
      );
    });
  });
}
