/**
 * Replays against a real server process (test/support/api-server-process.ts), driven over HTTP:
 * - the Python example bot (examples/python-bot, pull mode, standard library only) as the sandbox
 *   VA: the same bot twice gives no diff; with BOT_REGRESSION=no-refund-handover the diff names
 *   exactly the chats that mention a refund, at the turn that mentions it; on the replay's events
 *   it stubs its refund tool (it reads the `replay` marker);
 * - a server killed mid-run (SIGKILL) and started again on the same database: the run it left
 *   `running` is marked `interrupted`, with a reason, by the next server.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RecordingLineInput } from '@/contracts/admin/schemas/recording';
import { until } from '../delivery/helpers';
import {
  adminCall,
  adminSignIn,
  apiServerEnv,
  type Proc,
  pythonMissing,
  ROOT,
  SERVER_PROCESS,
  startProcess,
} from '../support/child-process';
import { freePort } from '../support/private-cluster';
import { databaseForServer } from '../support/server-database';

const PYTHON_BOT = path.join(ROOT, 'examples', 'python-bot', 'bot.py');
const ADMIN = { email: `replay-${randomBytes(3).toString('hex')}@example.test`, password: 'correct horse battery staple 46' };
const noPython = pythonMissing();

const line = (id: string, turns: string[]): RecordingLineInput => ({
  format: 'va-chat-recording',
  version: 1,
  id,
  channel: 'api',
  customer: { destination_id: `srv-${id}`, name: 'Replayed customer' },
  turns: turns.map((text) => ({ customer: [{ text }] })),
});
const RECORDING = [
  line('plain', ['hello', 'my order is late', 'thanks']),
  line('refund', ['hello', 'I want a refund for order 12', 'are you there?']),
  line('person', ['hi', 'can I talk to a person?', 'hello?']),
  line('refund-late', ['hi', 'question', 'refund please']),
];

type Run = { run_id: string; status: string; chats_done: number; chats_total: number; chats_failed: number; error: string | null };
type Diff = {
  summary: {
    chats_changed: number;
    handover_changed_chats: number;
    changed: { id: string; first_changed_turn: number; changes: string[] }[];
  };
};

describe('replay against a real server process', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-replay-srv-'));
  let serverEnv: Record<string, string> = {};
  let server: Proc;
  let base = '';
  let cookie = '';
  let dropDatabase = async () => {};
  const children: Proc[] = [];

  async function startServer() {
    server = startProcess(process.execPath, ['--import', 'tsx', SERVER_PROCESS], serverEnv);
    await until('the server listens', () => server.lines.some((l) => l.includes('"listening"')), 120_000);
    cookie = await adminSignIn(base, ADMIN);
  }

  const admin = <T>(method: string, p: string, body?: unknown) => adminCall<T>(base, cookie, method, p, body);

  async function replay(vaId: number, label: string, options: Record<string, number> = {}): Promise<string> {
    const { run_id } = await admin<Run>('POST', '/replays', { virtual_agent_id: vaId, label, settle_ms: 300, concurrency: 4, ...options });
    await admin('POST', `/replays/${run_id}/chats`, { chats: RECORDING });
    await admin('POST', `/replays/${run_id}/start`);
    return run_id;
  }
  async function finished(runId: string) {
    let run: Run | undefined;
    await until(
      `replay ${runId} finished`,
      async () => {
        run = await admin<Run>('GET', `/replays/${runId}`);
        return run.status !== 'running';
      },
      120_000,
    );
    return run as Run;
  }

  before(async () => {
    const database = await databaseForServer(dir, 'replay');
    dropDatabase = database.drop;
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    serverEnv = {
      ...apiServerEnv({ database: database.env, port, admin: ADMIN }),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      // A run shows a sign of life every half second; one silent for 2 s is marked interrupted.
      REPLAY_STALL_SECONDS: '2',
    };
    await startServer();
    // The sandbox copies the live account's team names: the Python bot hands over to Support.
    await admin('POST', '/teams', { name: 'Support', auto_assign: false });
  });
  after(async () => {
    for (const c of [...children, server]) {
      c.child.kill('SIGTERM');
      await c.exited;
    }
    await dropDatabase();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A pull VA of the sandbox and the Python example bot reading its events. */
  async function pythonBot(name: string, regression?: string) {
    const va = await admin<{ id: number; api_key: string; signing_secret: string }>('POST', '/replay/virtual-agents', {
      name,
      delivery_mode: 'pull',
    });
    const bot = startProcess('python3', [PYTHON_BOT], {
      VA_BASE_URL: base,
      VA_API_KEY: va.api_key,
      VA_SIGNING_SECRET: va.signing_secret,
      CURSOR_FILE: path.join(dir, `${va.id}.cursor`),
      HANDOVER_TEAM: 'Support',
      ...(regression && { BOT_REGRESSION: regression }),
    });
    children.push(bot);
    await until(`${name} reads its events`, () => bot.lines.some((l) => l.includes('reading events')), 30_000);
    return { va, bot };
  }

  it('replays the Python example bot twice without a diff and flags its planted regression at the refund turns only', {
    skip: noPython,
  }, async () => {
    const same = await pythonBot('Python same');
    const baseline = await replay(same.va.id, 'python baseline');
    assert.equal((await finished(baseline)).status, 'done');
    const again = await replay(same.va.id, 'python again');
    const run = await finished(again);
    assert.deepEqual([run.status, run.chats_done, run.chats_failed], ['done', RECORDING.length, 0]);
    const noChange = await admin<Diff>('GET', `/replays/${again}/diff?against=${baseline}`);
    assert.equal(noChange.summary.chats_changed, 0, JSON.stringify(noChange.summary));

    // The bot read the replay marker: its refund tool was stubbed, never run, in the replayed chats.
    const logged = same.bot.lines.flatMap((l) => {
      try {
        return [JSON.parse(l) as { msg: string; replay_run_id?: string }];
      } catch {
        return [];
      }
    });
    const stubbed = logged.filter((l) => l.msg === 'refund case stubbed: a replay');
    assert.equal(stubbed.length, 4, 'two refund chats, two runs');
    assert.deepEqual([...new Set(stubbed.map((l) => l.replay_run_id))].sort(), [baseline, again].sort());
    assert.ok(!logged.some((l) => l.msg === 'refund case opened'));

    const regressed = await pythonBot('Python regressed', 'no-refund-handover');
    const candidate = await replay(regressed.va.id, 'python candidate');
    assert.equal((await finished(candidate)).status, 'done');
    const found = await admin<Diff>('GET', `/replays/${candidate}/diff?against=${baseline}`);
    assert.equal(found.summary.chats_changed, 2, JSON.stringify(found.summary));
    assert.equal(found.summary.handover_changed_chats, 2);
    const byId = Object.fromEntries(found.summary.changed.map((c) => [c.id, c]));
    assert.equal(byId.refund.first_changed_turn, 2);
    assert.equal(byId['refund-late'].first_changed_turn, 3);
    assert.ok(byId.refund.changes.includes('handover') && byId['refund-late'].changes.includes('handover'));
  });

  it('marks a run interrupted, with a reason, when its server is killed mid-run and another starts', async () => {
    // A bot that takes every event and never answers: each turn waits for its timeout.
    const silent = http.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const va = await admin<{ id: number }>('POST', '/replay/virtual-agents', {
      name: 'Silent bot',
      webhook_url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/webhook`,
    });
    const runId = await replay(va.id, 'killed mid-run', { turn_timeout_ms: 600_000 });
    assert.equal((await admin<Run>('GET', `/replays/${runId}`)).status, 'running');
    // Alive while its server runs: heartbeats keep it from being marked (3 s > REPLAY_STALL_SECONDS).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    assert.equal((await admin<Run>('GET', `/replays/${runId}`)).status, 'running');

    server.child.kill('SIGKILL');
    await server.exited;
    await startServer();
    const run = await finished(runId);
    silent.closeAllConnections();
    silent.close();
    assert.equal(run.status, 'interrupted');
    assert.match(
      run.error ?? '',
      /^interrupted: the server running it stopped \(no sign of life since \d{4}-\d\d-\d\dT[\d:]+Z, after 0 of 4 chats\); start a new run$/,
    );
    // The diff still reads: the chats never replayed are named as such.
    const diff = await admin<Diff>('GET', `/replays/${runId}/diff`);
    assert.equal(diff.summary.chats_changed, RECORDING.length);
  });
});
