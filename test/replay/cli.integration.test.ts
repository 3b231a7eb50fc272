/**
 * `npm run replay` as a person or a CI job runs it: a child process talking over real HTTP to the
 * admin and bot APIs served here (the example bot as the sandbox VA, signed webhooks by the
 * embedded engine). A clean run exits 0; a planted regression with `--fail-on handover` exits 1;
 * bad arguments print the usage and exit 2 without calling anything; a service that cannot be
 * reached, answers 5xx or is not this service ends with one line on stderr and exit 3.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { adminApiHandler } from '@/app/api/admin/_routers';
import { botApiHandler } from '@/app/api/v1/_routers';
import type { RecordingLineInput } from '@/contracts/admin/schemas/recording';
import { resetEnv } from '@/env';
import { startBot } from '@/examples/bot/bot';
import { stopEmbeddedEngine } from '@/lib/delivery/embedded-engine';
import { startDelivery } from '@/lib/delivery/start-delivery';
import { answerClientError, serveNode } from '@/platform/http/node-entry';
import { tenantWithReceiver } from '../delivery/helpers';
import type { Receiver } from '../delivery/receiver';
import { setupTestDatabase } from '../support/db';
import { ADMIN_PASSWORD, signedInAdminOf } from '../support/people';
import { freePort } from '../support/private-cluster';

process.env.DELIVERY_ENGINE = 'embedded';
resetEnv();

const ROOT = path.resolve(import.meta.dirname, '..', '..');
type Ran = { code: number | null; stdout: string; stderr: string };

/** Runs `npm run replay -- …` (tsx scripts/replay.ts) with `env`; resolves when it exits. */
function cli(args: string[], env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/replay.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', ...env } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const line = (id: string, turns: string[]): RecordingLineInput => ({
  format: 'va-chat-recording',
  version: 1,
  id,
  channel: 'api',
  customer: { destination_id: `cli-${id}`, name: 'Replayed customer' },
  turns: turns.map((text) => ({ customer: [{ text }] })),
});

describe('npm run replay', () => {
  after(() => stopEmbeddedEngine());
  const ctx = setupTestDatabase();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'replay-cli-'));
  let receiver: Receiver;
  let server: http.Server;
  let base = '';
  let login: Record<string, string> = {};
  const closers: (() => Promise<void>)[] = [];

  before(async () => {
    let accountId: number;
    ({
      receiver,
      t: {
        account: { id: accountId },
      },
    } = await tenantWithReceiver(ctx.db));
    // Both APIs on one real HTTP server, as the service answers them.
    server = http.createServer((req, res) => {
      const handler = req.url?.startsWith('/api/admin/') ? adminApiHandler : botApiHandler;
      void serveNode(handler.core, req, res).catch(() => res.destroy());
    });
    server.on('clientError', answerClientError);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { email } = await signedInAdminOf(ctx.db, accountId);
    login = { VA_BASE_URL: base, ADMIN_EMAIL: email, ADMIN_PASSWORD };
    await startDelivery();
  });
  after(async () => {
    for (const close of closers) await close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await receiver.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** `sandbox-va` through the CLI, then the example bot started with the credentials it printed. */
  async function sandboxBot(name: string, regression?: 'no-refund-handover') {
    const port = await freePort();
    const made = await cli(['sandbox-va', '--name', name, '--webhook-url', `http://127.0.0.1:${port}/webhook`], login);
    assert.equal(made.code, 0, made.stderr);
    const id = made.stdout.match(/Sandbox VA (\d+)/)?.[1];
    const creds = Object.fromEntries([...made.stdout.matchAll(/(VA_\w+)=(\S+)/g)].map((m) => [m[1], m[2]]));
    assert.ok(id && creds.VA_API_KEY && creds.VA_SIGNING_SECRET, made.stdout);
    const bot = await startBot({
      baseUrl: base,
      apiKey: creds.VA_API_KEY,
      signingSecret: creds.VA_SIGNING_SECRET,
      loginId: creds.VA_LOGIN_ID,
      port,
      handoverTeam: 'Humans',
      regression,
      log: () => {},
    });
    closers.push(bot.close);
    return id;
  }

  it('runs a recording against the example bot, and fails CI on the planted regression with exit 1', async () => {
    const recording = path.join(dir, 'recording.jsonl');
    fs.writeFileSync(
      recording,
      `${[line('plain', ['hello', 'my order is late', 'thanks']), line('refund', ['hello', 'I want a refund', 'hello?'])].map((l) => JSON.stringify(l)).join('\n')}\n`,
    );
    const fast = ['--settle-ms', '150', '--concurrency', '2'];
    const same = await sandboxBot('CLI same');
    const baseline = await cli(['run', '--recording', recording, '--va', same, ...fast, '--out', path.join(dir, 'results.jsonl')], login);
    assert.equal(baseline.code, 0, baseline.stderr);
    const baselineId = baseline.stdout.match(/replay (rpl_[\w-]+)/)?.[1];
    assert.ok(baselineId, baseline.stdout);
    assert.equal(fs.readFileSync(path.join(dir, 'results.jsonl'), 'utf8').trim().split('\n').length, 2);

    const regressed = await sandboxBot('CLI regressed', 'no-refund-handover');
    const diffOut = path.join(dir, 'diff.json');
    const candidate = await cli(
      [
        'run',
        '--recording',
        recording,
        '--va',
        regressed,
        ...fast,
        '--against',
        baselineId,
        '--fail-on',
        'handover',
        '--diff-out',
        diffOut,
      ],
      login,
    );
    assert.equal(candidate.code, 1, candidate.stdout + candidate.stderr);
    assert.match(candidate.stderr, /FAIL: 1 chat\(s\) with a changed handover/);
    assert.match(candidate.stdout, /refund \(line 2\): from turn 2: .*handover/);
    const written = JSON.parse(fs.readFileSync(diffOut, 'utf8')) as { summary: { chats_changed: number } };
    assert.equal(written.summary.chats_changed, 1);

    // The same diff again, by run id, with a threshold it stays within.
    const candidateId = candidate.stdout.match(/replay (rpl_[\w-]+)/)?.[1] ?? '';
    const again = await cli(['diff', candidateId, '--against', baselineId, '--max-changed-chats', '1'], login);
    assert.equal(again.code, 0, again.stderr);
  });

  it('answers bad arguments with the usage and exit 2, before calling the service', async () => {
    const nowhere = { ...login, VA_BASE_URL: 'http://127.0.0.1:1' };
    for (const args of [
      [],
      ['replay-all'],
      ['run', '--bogus'],
      ['run', '--recording', 'x.jsonl'],
      ['diff'],
      ['run', '--va', 'seven', '--recording', 'x'],
      ['diff', 'rpl_1', '--fail-on', 'colour'],
    ]) {
      const ran = await cli(args, nowhere);
      assert.equal(ran.code, 2, `${args.join(' ')}: ${ran.stderr}`);
      assert.match(ran.stderr, /usage: npm run replay|takes a whole number|--fail-on/, args.join(' '));
      assert.doesNotMatch(ran.stderr, /Could not reach|\n\s+at /, args.join(' '));
    }
    const missing = await cli(['run', '--recording', path.join(dir, 'none.jsonl'), '--va', '1'], nowhere);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no recording at/);
  });

  it('says the service cannot be reached, or failed, on stderr with exit 3 and no stack trace', async () => {
    const closed = await freePort();
    const unreachable = await cli(['diff', 'rpl_1'], { ...login, VA_BASE_URL: `http://127.0.0.1:${closed}` });
    assert.equal(unreachable.code, 3, unreachable.stderr);
    assert.match(unreachable.stderr, new RegExp(`Could not reach the service at http://127.0.0.1:${closed} \\(ECONNREFUSED\\)`));

    // A server that fails every call (5xx), and one that is not this service at all.
    const answers = [
      { status: 500, type: 'application/json', body: '{"status_code":5000,"description":"Internal error","response":null}' },
      { status: 502, type: 'text/html', body: '<html>Bad gateway</html>' },
      { status: 200, type: 'text/html', body: '<html>a web page</html>' },
    ];
    for (const answer of answers) {
      const other = http.createServer((_req, res) => res.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body));
      await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
      const ran = await cli(['diff', 'rpl_1'], { ...login, VA_BASE_URL: `http://127.0.0.1:${(other.address() as AddressInfo).port}` });
      other.close();
      assert.equal(ran.code, 3, `${answer.status}: ${ran.stderr}`);
      assert.match(ran.stderr, /HTTP \d{3}|not an answer of this service/);
      assert.doesNotMatch(ran.stderr, /\n\s+at /);
    }

    // The real service refusing a run it does not have: 2110 named, exit 2.
    const unknown = await cli(['diff', 'rpl_nosuchrun'], login);
    assert.equal(unknown.code, 2, unknown.stderr);
    assert.match(unknown.stderr, /HTTP 404: 2110 No such replay run/);
  });
});
