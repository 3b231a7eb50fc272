import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { before, describe, it } from 'node:test';
import { botApi, jsonCall, LiveStreamAnswer } from './api-client';
import { setupTestDatabase } from './db';
import { createTenant, type Tenant } from './tenant';

const ctx = setupTestDatabase();

describe('the test API client and live streams', () => {
  let t: Tenant;
  before(async () => {
    t = await createTenant(ctx.db);
  });

  it('fails at once, naming stream(), when a one-shot in-process call is answered with a live stream', async () => {
    await assert.rejects(botApi('GET', '/events/stream', { token: t.token }), (err: Error) => {
      assert.ok(err instanceof LiveStreamAnswer);
      assert.match(err.message, /\/api\/v1\/events\/stream answered 200 text\/event-stream.*stream\(\)/);
      return true;
    });
    // The same route refused (no key) is an ordinary answer, read whole.
    const refused = await botApi('GET', '/events/stream');
    assert.equal(refused.status, 400);
    assert.equal(typeof (refused.body as any).status_code, 'number');
  });

  it('fails at once over HTTP too, and closes the connection', async () => {
    let closed!: () => void;
    const gone = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const server = http.createServer((req, res) => {
      req.socket.on('close', closed);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': open\n\n'); // and never ends
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      await assert.rejects(jsonCall(new http.Agent(), `http://127.0.0.1:${port}/stream`, 'GET'), LiveStreamAnswer);
      await gone;
    } finally {
      server.close();
    }
  });
});
