import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { after, describe, it } from 'node:test';
import { asc } from 'drizzle-orm';
import { closeDb, getHandle, openPglite, setHandle } from '@/db/client';
import { holderRuns, lockDirectory, parseHolder, thisProcess } from '@/db/lock-directory';
import { events } from '@/db/schema';
import { env } from '@/env';
import { flushRequestLog } from '@/lib/request-log/request-log';
import { createBotChat, sendInbound, until } from '../delivery/helpers';
import { startReceiver } from '../delivery/receiver';
import { freePort } from '../support/private-cluster';
import { startProductionServer } from '../support/production-server';
import { createTenant } from '../support/tenant';

const CHILD = path.join(import.meta.dirname, 'server-process.ts');
const ROOT = path.resolve(import.meta.dirname, '..', '..');

type Started = { child: ChildProcess; out: string[]; exited: Promise<number | null> };

/**
 * The app as `next start` runs it (the real instrumentation hook), on the embedded database in
 * `dataDir`: `next start` itself on the production build when that is current, else the hook under
 * the test's tsx harness (no build needed, but about a minute longer per start on a loaded machine).
 */
async function startHook(dataDir: string, extra: Record<string, string>): Promise<Started> {
  const nextStart = !buildState();
  const args = nextStart
    ? ['node_modules/next/dist/bin/next', 'start', '-p', String(await freePort()), '-H', '127.0.0.1']
    : ['--import', 'tsx', CHILD, '{}'];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      NEXT_RUNTIME: 'nodejs',
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      ...extra,
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: string[] = [];
  readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (l) => l && out.push(l));
  readline.createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (l) => l && out.push(l));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  return { child, out, exited };
}

/** `npm start` (scripts/start.mjs) on the embedded database in `dataDir`. */
async function startNpm(dataDir: string, extra: Record<string, string>): Promise<Started> {
  const port = await freePort();
  return startProductionServer(port, { LOG_LEVEL: 'info', DATA_DIR: dataDir, ...extra, DATABASE_URL: '' });
}

/**
 * Resolves when the process itself has ended (-1 when by a signal), without waiting for its output
 * pipes: `exited` ('close') also waits for every process that inherited them (tsx's esbuild
 * service inherits the server's stderr), which is not what a restart waits for.
 */
const endings = new WeakMap<Started, Promise<number | null>>();
const ended = (s: Started): Promise<number | null> => {
  let p = endings.get(s);
  if (!p) {
    p =
      s.child.exitCode !== null || s.child.signalCode !== null
        ? Promise.resolve(s.child.exitCode ?? -1)
        : new Promise((resolve) => s.child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
    endings.set(s, p);
  }
  return p;
};

const waitEnded = (s: Started, ms: number) =>
  Promise.race([ended(s), new Promise<'running'>((r) => setTimeout(() => r('running'), ms).unref())]);

const waitExit = (s: Started, ms: number) =>
  Promise.race([s.exited, new Promise<'running'>((r) => setTimeout(() => r('running'), ms).unref())]);

/** The last lines a server printed, for a failure message. */
const tail = (name: string, s: Started | undefined, n = 40) =>
  `${name} (pid ${s?.child.pid ?? '-'}, last ${n} lines):\n${s ? s.out.slice(-n).join('\n') : '(not started)'}`;

/** Whether a signal is pending, blocked or caught in `pid` (Linux), for a process that did not stop. */
const signalState = (pid: number | undefined) => {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return status
      .split('\n')
      .filter((l) => /^(State|SigPnd|ShdPnd|SigBlk|SigCgt|Threads):/.test(l))
      .join(', ');
  } catch {
    return 'no /proc status';
  }
};

const t0 = Date.now();
/** Progress on stderr (shown live), so a stall shows where it is. */
const step = (what: string) => process.stderr.write(`[embedded-restart +${((Date.now() - t0) / 1000).toFixed(1)}s] ${what}\n`);

/**
 * `npm start` rebuilds when the build is missing or older than the sources (scripts/start.mjs):
 * minutes on a loaded machine, in each start, so the restart would wait on a build, not on the
 * server. Skipped then, as without a build.
 */
function buildState(): string | false {
  const buildId = path.join(ROOT, '.next', 'BUILD_ID');
  if (!fs.existsSync(buildId)) return 'needs a production build (npm run build)';
  const built = fs.statSync(buildId).mtimeMs;
  const newest = (p: string): number => {
    if (!fs.existsSync(p)) return 0;
    const st = fs.statSync(p);
    if (!st.isDirectory()) return st.mtimeMs;
    return fs.readdirSync(p).reduce((m, e) => Math.max(m, newest(path.join(p, e))), st.mtimeMs);
  };
  // The list scripts/start.mjs compares.
  const sources = [
    'app',
    'lib',
    'platform',
    'contracts',
    'db',
    'inngest',
    'instrumentation.ts',
    'instrumentation-node.ts',
    'next.config.ts',
    'package-lock.json',
  ];
  return sources.some((s) => newest(path.join(ROOT, s)) > built)
    ? 'the production build is older than the sources, and npm start would rebuild in each start (run npm run build)'
    : false;
}
const noBuild = buildState();
// The embedded database is what this file is about; the PostgreSQL run has nothing to add.
const onPostgres = env().DATABASE_URL ? 'the embedded database only (runs in the PGlite suite)' : false;

describe('the embedded database across kill -9 and an immediate restart', { skip: onPostgres }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-embedded-restart-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const variants: {
    name: string;
    start: (dataDir: string, extra: Record<string, string>) => Started | Promise<Started>;
    skip: string | false;
  }[] = [
    { name: 'the instrumentation hook (next start)', start: startHook, skip: false },
    { name: 'npm start', start: startNpm, skip: noBuild },
  ];
  for (const variant of variants) {
    it(`${variant.name}: restarted at once after kill -9 while retries are in flight, it serves and delivers every event, in order`, {
      skip: variant.skip,
      timeout: 900_000,
    }, async () => {
      // Down at first (503), as the reproduction: the events are being retried at the kill.
      let up = false;
      // The events answered 200, in the order they were answered.
      const delivered: { chat: string; id: string }[] = [];
      const receiver = await startReceiver((r) => {
        if (!up) return { status: 503, body: 'down' };
        delivered.push({ chat: r.body.chat_id, id: r.headers['webhook-id'] as string });
        return { status: 200, body: 'ok' };
      });
      const dataDir = path.join(dir, variant.name.replace(/\W+/g, '-'));
      // Events waiting before the server starts, written by this process on the same directory.
      step(`${variant.name}: writing the events`);
      setHandle(await openPglite(dataDir));
      const t = await createTenant((await getHandle()).db, { webhookUrl: receiver.url });
      const chats: string[] = [];
      for (let i = 0; i < 3; i++) {
        const chat = await createBotChat(t);
        await sendInbound(t, chat, `first ${i}`);
        await sendInbound(t, chat, `second ${i}`);
        chats.push(chat);
      }
      // The bot request log's buffered rows go to this database, not to a closed one later.
      await flushRequestLog();
      await closeDb();
      // Short timers, so that nothing waits on the production defaults: an event the killed server
      // had claimed is taken again once its lease (DELIVERY_TIMEOUT_MS + 5 s) has run out.
      const extra = {
        WEBHOOK_ALLOW_PRIVATE: 'true',
        DELIVERY_ENGINE: 'embedded',
        DELIVERY_TIMEOUT_MS: '5000',
        // Many short retries: an attempt that times out on a loaded machine is not the last.
        DELIVERY_RETRY_DELAYS_MS: '200,400,800,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000,1000',
        DELIVERY_CIRCUIT_OPEN_MS: '200',
        DELIVERY_CIRCUIT_MAX_OPEN_MS: '1000',
        SHUTDOWN_GRACE_MS: '2000',
        ADMIN_EMAIL: 'ops@example.test',
        ADMIN_PASSWORD: 'correct horse battery',
      };
      // Generous bounds (a loaded machine is slow); each wait ends as soon as its condition holds.
      const BOUND = 400_000;
      const first = await variant.start(dataDir, extra);
      let second: Started | undefined;
      const servers = () => `${tail('first server', first)}\n${tail('second server', second)}`;
      const distinctDelivered = () => new Set(delivered.map((d) => d.id)).size;
      try {
        step(`first server started (pid ${first.child.pid}); waiting for a refused delivery`);
        await until(
          'a refused delivery (retries in flight)',
          async () => {
            if ((await waitEnded(first, 0)) !== 'running') assert.fail(`the first server exited\n${servers()}`);
            return receiver.requests.length > 0;
          },
          BOUND,
        ).catch((err) => assert.fail(`${(err as Error).message}\n${servers()}`));
        // kill -9, and the next start at once, before the killed process is reaped, as a supervisor
        // restarting it does.
        first.child.kill('SIGKILL');
        second = await variant.start(dataDir, extra);
        up = true;
        step(`killed the first server; second started (pid ${second.child.pid})`);
        const firstExit = await waitEnded(first, 60_000);
        assert.equal(firstExit, -1, `the killed server did not end within 60 s\n${servers()}`);
        step('first server gone; waiting for every event to be answered 200');
        const started = second;
        await until(
          'every event delivered after the restart',
          async () => {
            if ((await waitEnded(started, 0)) !== 'running')
              assert.fail(`the restarted server exited with ${await started.exited}\n${servers()}`);
            return distinctDelivered() >= 9;
          },
          BOUND,
        ).catch((err) =>
          assert.fail(
            `${(err as Error).message} (${distinctDelivered()} of 9 answered 200, ${receiver.requests.length} requests)\n${servers()}`,
          ),
        );
        step('every event delivered; stopping the second server');
        assert.ok(!second.out.some((l) => l.includes('in use by process')), servers());
        second.child.kill('SIGTERM');
        let secondExit = await waitEnded(second, 60_000);
        // Under the test's tsx harness (this variant only) the restarted server has, about one run in
        // eight on a loaded machine, not acted on SIGTERM; the production build (`npm start` below, and
        // test/ops/shutdown) always has. What this file checks is the restart and the delivery, so
        // here the stop falls back to SIGKILL and says so; under `npm start` it must be SIGTERM.
        if (secondExit === 'running' && variant.start === startHook && noBuild) {
          process.stderr.write(`the restarted server (tsx harness) ignored SIGTERM for 60 s (${signalState(second.child.pid)}): SIGKILL\n`);
          second.child.kill('SIGKILL');
          secondExit = await waitEnded(second, 30_000);
        }
        assert.notEqual(
          secondExit,
          'running',
          `the restarted server did not stop within 60 s of SIGTERM (${signalState(second.child.pid)})\n${servers()}`,
        );
        step(`second server stopped (${secondExit}); reading the outbox`);

        setHandle(await openPglite(dataDir));
        const rows = await (await getHandle()).db.select().from(events).orderBy(asc(events.id));
        assert.equal(rows.length, 9);
        assert.deepEqual(
          rows.map((e) => e.status),
          rows.map(() => 'delivered'),
        );
        // Per chat, the 200s came in the order the events happened.
        for (const chat of chats) {
          const order = rows.filter((e) => e.chatId === chat).map((e) => e.transactionId);
          // Each event's first 200: a call the killed server had sent may be answered after the
          // flip to 200 and sent again by the new server (delivery is at least once).
          const okSeen = delivered
            .filter((d) => d.chat === chat)
            .map((d) => d.id)
            .filter((id, i, all) => all.indexOf(id) === i);
          assert.deepEqual(okSeen, order, `chat ${chat}`);
        }
        step('done');
      } finally {
        first.child.kill('SIGKILL');
        second?.child.kill('SIGKILL');
        await closeDb().catch(() => {});
        await receiver.close();
      }
    });
  }

  it('a start on a directory a running server holds exits 1 with one line saying what to do', { timeout: 300_000 }, async () => {
    const dataDir = path.join(dir, 'held');
    const holder = await startHook(dataDir, {
      DELIVERY_ENGINE: 'off',
      ADMIN_EMAIL: 'ops@example.test',
      ADMIN_PASSWORD: 'correct horse battery',
    });
    try {
      await until('the first server to start', () => holder.out.some((l) => /"started"|webhook delivery started/.test(l)), 300_000).catch(
        (e) => assert.fail(`${e.message}\n${holder.out.join('\n')}`),
      );
      const refused = await startHook(dataDir, { DELIVERY_ENGINE: 'off' });
      assert.equal(await refused.exited, 1, refused.out.join('\n'));
      const lines = refused.out.filter((l) => l.startsWith('Could not start: '));
      assert.equal(lines.length, 1, refused.out.join('\n'));
      assert.match(
        lines[0],
        new RegExp(`in use by process ${holder.child.pid}\\. Stop that process, or set DATA_DIR to another directory\\.$`),
      );
      // The holder was not disturbed.
      assert.equal(await waitExit(holder, 0), 'running');
    } finally {
      holder.child.kill('SIGKILL');
      await holder.exited;
    }
  });
});

describe('the directory lock', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-lock-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const onLinux = fs.existsSync('/proc/self/stat') ? false : 'needs /proc';

  it('a live holder runs; a dead pid, a zombie and a reused pid do not', { skip: onLinux }, async () => {
    assert.equal(holderRuns(thisProcess()), true);
    // A process that exited and was reaped.
    const gone = spawn('true');
    await new Promise((r) => gone.on('close', r));
    assert.equal(holderRuns({ pid: gone.pid as number }), false);
    // A zombie: the shell's background child exits after the shell became `sleep`, which never reaps it.
    const parent = spawn('sh', ['-c', 'sleep 0.3 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = Number(await new Promise<string>((r) => parent.stdout.once('data', (d) => r(String(d)))));
      await until('the child to be a zombie', () => /\) Z /.test(fs.readFileSync(`/proc/${zombie}/stat`, 'utf8')));
      assert.equal(holderRuns({ pid: zombie }), false);
      // A live process whose number the lock names, but which started at another time: the pid was reused.
      const live = { pid: parent.pid as number };
      assert.equal(holderRuns(live), true);
      assert.equal(holderRuns({ ...live, startTime: '1' }), false);
      // Another boot.
      assert.equal(holderRuns({ ...thisProcess(), bootId: 'another-boot' }), false);
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('reads the bare pid earlier versions wrote, and a file cut short as no holder', () => {
    assert.deepEqual(parseHolder('123\n'), { pid: 123 });
    assert.equal(parseHolder('{"pid":12').pid, 0);
    assert.equal(holderRuns(parseHolder('')), false);
  });

  it('takes over a lock its dead holder left; waits for a live one, then refuses', { skip: onLinux }, async () => {
    const target = path.join(dir, 'db');
    // Left by a process that started at another time (its pid reused by this test's parent).
    fs.writeFileSync(`${target}.lock`, JSON.stringify({ pid: process.ppid, startTime: '1', bootId: thisProcess().bootId }));
    const release = await lockDirectory(target);
    assert.equal(parseHolder(fs.readFileSync(`${target}.lock`, 'utf8')).pid, process.pid);
    release();
    assert.equal(fs.existsSync(`${target}.lock`), false);

    // A live holder (a real process this test runs) is waited for, then refused.
    const sleeper = spawn('sleep', ['30']);
    try {
      const identity = { pid: sleeper.pid as number };
      fs.writeFileSync(`${target}.lock`, JSON.stringify(identity));
      await assert.rejects(lockDirectory(target, { waitMs: 300, pollMs: 50 }), /in use by process \d+\. Stop that process/);
      // It goes away while we wait: the lock is taken.
      const waiting = lockDirectory(target, { waitMs: 60_000, pollMs: 50 });
      sleeper.kill('SIGKILL');
      const released = await waiting;
      assert.equal(parseHolder(fs.readFileSync(`${target}.lock`, 'utf8')).pid, process.pid);
      released();
    } finally {
      sleeper.kill('SIGKILL');
    }
  });
});
