/**
 * The Python client (clients/python) against the bot API over a real socket (the node:http entry of
 * `npm start`): clients/python/tests/smoke.py authorizes, pulls and verifies an event, replies,
 * streams chunk by chunk and as one event stream, tags, lists and hands the chat over.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { botApiHandler } from '@/app/api/v1/_routers';
import { updateVirtualAgent } from '@/lib/virtual-agents/update-virtual-agent';
import { answerClientError, serveNode } from '@/platform/http/node-entry';
import { setupTestDatabase } from '../support/db';
import { createTenant, type Tenant } from '../support/tenant';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const python = spawnSync('python3', ['-c', 'import sys; print(sys.version_info >= (3, 9))'], { encoding: 'utf8' });
const skip = python.error || python.stdout.trim() !== 'True' ? 'python3 (3.9 or later) is not installed' : false;

describe('the Python client against a running service', { skip }, () => {
  const ctx = setupTestDatabase();
  let t: Tenant;
  let server: http.Server;
  let baseUrl: string;

  before(async () => {
    t = await createTenant(ctx.db, { subscriptions: ['chat.assigned', 'message.received', 'chat.unassigned'] });
    await updateVirtualAgent(ctx.db, { accountId: t.account.id, id: t.bot.user.id, patch: { delivery_mode: 'pull' } });
    server = http.createServer((req, res) => void serveNode(botApiHandler.core, req, res));
    server.on('clientError', answerClientError);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('authorizes, pulls and verifies an event, replies, streams both ways, tags and hands the chat over', async () => {
    const child = spawn('python3', ['clients/python/tests/smoke.py', baseUrl, t.bot.apiKey, t.bot.signingSecret, String(t.humanTeam.id)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill(), 60_000);
      child.on('close', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    assert.equal(code, 0, `smoke.py failed (exit ${code}, killed after 60 s if null):\n${out}\n${err}`);
    const steps = Object.fromEntries(
      out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .map((s) => [s.step, s]),
    );
    assert.ok(steps.list_events.types.includes('message.received'));
    assert.deepEqual([steps.stream_text.text, steps.stream_text.state], ['Chunk by chunk.', 'closed']);
    assert.deepEqual([steps.stream_reply.text, steps.stream_reply.state], ['One stream.', 'closed']);
    assert.deepEqual(steps.list_messages.texts.slice(-3), ['Hi!', 'Chunk by chunk.', 'One stream.']);
    assert.deepEqual(steps.update_chat.tags, ['python']);
    assert.deepEqual([steps.transfer_chat.team_id, steps.transfer_chat.refused], [t.humanTeam.id, 2043]);
  });
});
