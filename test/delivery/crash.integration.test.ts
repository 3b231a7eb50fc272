import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { after, describe, it } from 'node:test';
import { asc, eq, inArray } from 'drizzle-orm';
import { openPglite, openPostgres } from '@/db/client';
import { deliveryAttempts, events } from '@/db/schema';
import { env } from '@/env';
import { INHERITED_NODE_FLAGS } from '../support/child-process';
import { until } from './helpers';
import { startReceiver } from './receiver';

const CHILD = path.join(import.meta.dirname, 'engine-process.ts');

type Line = Record<string, any>;

/** Starts the engine in a child process; `lines` collects its JSON output. */
function spawnEngine(options: Record<string, unknown>) {
  const child = spawn(process.execPath, [...INHERITED_NODE_FLAGS, '--import', 'tsx', CHILD, JSON.stringify(options)], {
    cwd: process.cwd(),
    env: { ...process.env, DELIVERY_RETRY_DELAYS_MS: '100,200,400,800,1600,3200,6400,12800', DELIVERY_TIMEOUT_MS: '500' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Line[] = [];
  readline.createInterface({ input: child.stdout! }).on('line', (l) => {
    try {
      lines.push(JSON.parse(l));
    } catch {
      // not one of ours
    }
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  return { child, lines, exited };
}

function kill(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}

describe('delivery across a crash', () => {
  const url = env().DATABASE_URL;
  const cleanups: (() => unknown)[] = [];
  after(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('delivers every event, in order, after the engine process is killed with SIGKILL and restarted', { timeout: 300_000 }, async () => {
    // A database of its own, which both engine processes (one after the other) open.
    let target: { dataDir: string } | { databaseUrl: string };
    if (url) {
      const { default: postgres } = await import('postgres');
      const name = `va_crash_${randomBytes(4).toString('hex')}`;
      const admin = postgres(url, { max: 1, onnotice: () => {} });
      await admin.unsafe(`CREATE DATABASE ${name}`);
      cleanups.push(async () => {
        await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      });
      const u = new URL(url);
      u.pathname = `/${name}`;
      target = { databaseUrl: u.toString() };
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-crash-'));
      cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
      target = { dataDir: path.join(dir, 'pglite') };
    }

    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    receiver.setDown(true);

    // 1. The engine runs while the receiver is down; events are written and their attempts fail.
    const first = spawnEngine({ ...target, seed: { webhookUrl: receiver.url, messages: 20 } });
    cleanups.push(() => kill(first.child, 'SIGKILL'));
    const seeded = await until('the first process to write its events', () => first.lines.find((l) => l.seeded)?.seeded, 150_000);
    const expected: string[] = seeded.transactionIds;
    assert.equal(expected.length, 21);
    await until('failing attempts against the receiver that is down', () => receiver.dropped >= 2, 20_000);

    // 2. Killed without any chance to clean up.
    first.child.kill('SIGKILL');
    assert.equal(await first.exited, 'SIGKILL');
    assert.equal(receiver.requests.length, 0);

    // 3. The receiver is back and a new process starts: everything arrives, oldest first.
    receiver.setDown(false);
    const second = spawnEngine(target);
    cleanups.push(() => kill(second.child, 'SIGKILL'));
    await until('every event at the receiver', () => receiver.firstArrivals().length >= expected.length, 60_000);
    second.child.kill('SIGTERM');
    assert.equal(await second.exited, 0);

    assert.deepEqual(receiver.firstArrivals(), expected);
    assert.equal(receiver.requests.length, expected.length, 'each event arrived once');

    // 4. The database agrees: all delivered, the failed attempts before the crash kept.
    const handle = 'databaseUrl' in target ? await openPostgres(target.databaseUrl, { migrate: false }) : await openPglite(target.dataDir);
    try {
      const rows = await handle.db.select().from(events).where(inArray(events.transactionId, expected)).orderBy(asc(events.seq));
      assert.deepEqual(
        rows.map((r) => r.status),
        expected.map(() => 'delivered'),
      );
      const attempts = await handle.db
        .select()
        .from(deliveryAttempts)
        .where(eq(deliveryAttempts.eventId, rows[0].id))
        .orderBy(asc(deliveryAttempts.attemptNumber));
      assert.ok(attempts.length >= 2, `${attempts.length} attempts`);
      assert.ok(attempts.slice(0, -1).every((a) => a.httpStatus === null && a.error));
      assert.equal(attempts.at(-1)!.httpStatus, 200);
    } finally {
      await handle.close();
    }
  });
});
