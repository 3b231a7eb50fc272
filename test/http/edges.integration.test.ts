import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { hasDotSegment } from '@/platform/http/dot-segments';
import { COMMON_SECURITY_HEADERS } from '@/platform/security/headers';
import { until } from '../delivery/helpers';
import { freePort } from '../support/private-cluster';
import { type ProductionServer, startProductionServer } from '../support/production-server';

// The HTTP edges of `npm start`'s server, probed over raw sockets (node:net) as a client or an
// attacker would: bodies over the limit sent chunked, dot segments, slow headers and bodies on
// every path, answers written on the socket, odd methods on pages.

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const noBuild = fs.existsSync(path.join(ROOT, '.next', 'BUILD_ID')) ? false : 'needs a production build (npm run build)';

type Raw = { status: number; head: Record<string, string>; body: string; error: string | null; sent: number };

/** Sends `request`, then each of `parts` `everyMs` apart while the socket is open; resolves when the server closes it. */
function raw(port: number, request: string, parts: string[] = [], everyMs = 0): Promise<Raw> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let error: string | null = null;
    socket.on('data', (d) => {
      text += d.toString('latin1');
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on('close', () => {
      const [headText, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = headText.split('\r\n');
      const head: Record<string, string> = {};
      for (const line of lines) head[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
      resolve({ status: Number(statusLine.split(' ')[1]), head, body: rest.join('\r\n\r\n'), error, sent: i });
    });
    socket.write(request);
    let i = 0;
    const next = () => {
      // Stop feeding once the server has answered: it has cut the request off.
      if (i >= parts.length || socket.destroyed || text) return;
      socket.write(parts[i++]);
      setTimeout(next, everyMs);
    };
    setTimeout(next, everyMs);
  });
}

function assertEnvelope(r: Raw, status: number, code: number) {
  assert.equal(r.status, status, JSON.stringify(r));
  assert.equal(JSON.parse(r.body.replace(/^[0-9a-f]+\r\n|\r\n0\r\n$/g, '')).status_code, code, r.body);
  for (const name of Object.keys(COMMON_SECURITY_HEADERS))
    assert.ok(r.head[name.toLowerCase()], `${name} missing: ${JSON.stringify(r.head)}`);
  assert.match(r.head['content-security-policy'] ?? '', /frame-ancestors 'none'/);
}

describe('dot segments', () => {
  it('finds them however they are encoded, and only them', () => {
    for (const p of [
      '/api/v1/%2e%2e/admin/me',
      '/api/v1/%2E%2E/admin/me',
      '/api/v1/..%2fadmin/me',
      '/api/v1/%252e%252e/admin/me',
      '/a/./b',
      '/a/..',
      '/api/v1/%2e%2e%5cadmin',
      '/a/%25252e%25252e/b',
    ])
      assert.equal(hasDotSegment(p), true, p);
    for (const p of ['/api/v1/chats', '/api/v1/chats/a..b', '/a/.well-known', '/a/%2e%2e%2e', '/a/%ZZ'])
      assert.equal(hasDotSegment(p), false, p);
  });
});

// Its server runs on the embedded database whatever DATABASE_URL says (the edges are the HTTP
// server's): the PostgreSQL pass would only repeat the PGlite pass's run.
const onPostgres = process.env.DATABASE_URL ? 'the server runs on the embedded database (runs in the PGlite suite)' : false;

describe('npm start: the HTTP edges', { skip: noBuild || onPostgres }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-edges-'));
  let server: ProductionServer;
  let port: number;
  before(async () => {
    port = await freePort();
    server = startProductionServer(port, {
      DATA_DIR: path.join(dir, 'pglite'),
      DATABASE_URL: '',
      ADMIN_EMAIL: 'edges@example.test',
      ADMIN_PASSWORD: 'correct horse battery staple',
      DELIVERY_ENGINE: 'off',
      MAX_BODY_BYTES: '4096',
      HEADERS_TIMEOUT_MS: '1500',
      BODY_TIMEOUT_MS: '1500',
      LOG_LEVEL: 'info',
    });
    await until('the server to listen', () => server.out.some((l) => l.startsWith('Ready on')), 600_000);
  });
  after(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('F1: a chunked body over MAX_BODY_BYTES to /api/v1 is answered 413 2008, not reset, and nothing is logged as an error', async () => {
    const chunk = `${(1000).toString(16)}\r\n${'x'.repeat(1000)}\r\n`;
    const r = await raw(
      port,
      'POST /api/v1/authorize HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n',
      Array.from({ length: 20 }, () => chunk),
      5,
    );
    assert.equal(r.error, null, JSON.stringify(r));
    assertEnvelope(r, 413, 2008);
    assert.ok(!server.out.some((l) => l.includes('"level":"error"')), server.out.join('\n'));
  });

  it('F3: encoded dot segments are refused 400 2016 under /api/v1 and elsewhere', async () => {
    for (const p of [
      '/api/v1/%2e%2e/admin/me',
      '/api/v1/%2E%2E/admin/me',
      '/api/v1/..%2fadmin/me',
      '/api/v1/%252e%252e/admin/me',
      '/api/v1/%2e%2e/%2e%2e/api/health',
      '/admin/%2e%2e/api/metrics',
    ]) {
      assertEnvelope(await raw(port, `GET ${p} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`), 400, 2016);
    }
  });

  it('a path that is not valid percent-encoding is 400 2016 on pages and assets as on the APIs, never a 500', async () => {
    for (const p of [
      '/admin/chats/%E0%A4%A',
      '/admin/chats/%ZZ',
      '/admin/virtual-agents/%E0%A4',
      '/docs/guide/%FF',
      '/chat/%E0%A4%A',
      '/%',
      '/widget/chat.js%',
      '/api/v1/chats/%E0%A4%A',
      '/api/admin/chats/%E0%A4%A',
    ]) {
      assertEnvelope(await raw(port, `GET ${p} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`), 400, 2016);
    }
  });

  it('F4: headers sent slowly on any path, and a slow body to the admin API, are cut off with 408 2015', async () => {
    for (const target of ['/admin/login', '/api/health', '/api/v1/teams']) {
      const slow = await raw(
        port,
        `GET ${target} HTTP/1.1\r\nHost: x\r\n`,
        Array.from({ length: 60 }, (_, i) => `X-Slow-${i}: 1\r\n`),
        250,
      );
      assertEnvelope(slow, 408, 2015);
    }
    const body = await raw(
      port,
      'POST /api/admin/login HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n',
      Array.from({ length: 100 }, () => ' '),
      250,
    );
    // Cut off after BODY_TIMEOUT_MS (1.5 s here) though Next serves the path and the server's own
    // request limit is longer (for the bot API's streamed replies): not after the sender gave up.
    assertEnvelope(body, 408, 2015);
    assert.ok(body.sent < 100, `answered while the body was still arriving, not after its ${body.sent} parts`);
    assert.ok(!server.out.some((l) => l.includes('"level":"error"')), server.out.join('\n'));
  });

  it('F5: answers written on the socket (400, 405) and redirects carry the security headers', async () => {
    assertEnvelope(await raw(port, 'GET / HTTP/1.1\r\nHost x\r\n\r\n'), 400, 2016);
    assertEnvelope(await raw(port, 'FOO / HTTP/1.1\r\nHost: x\r\n\r\n'), 405, 2099);
    const redirect = await raw(port, 'GET /admin/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.equal(redirect.status, 308, JSON.stringify(redirect));
    for (const name of Object.keys(COMMON_SECURITY_HEADERS))
      assert.ok(redirect.head[name.toLowerCase()], `${name} missing on the redirect`);
  });

  it('TRACE on pages and on any path is 405 2099 in the envelope, never a 500', async () => {
    for (const p of ['/', '/admin/login', '/api/health', '/api/v1/chats', '/docs']) {
      const r = await raw(port, `TRACE ${p} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      assertEnvelope(r, 405, 2099);
      assert.ok(r.head.allow, p);
    }
  });
});
