/**
 * npm run bench:api: PATCH /api/v1/chats/{chat_id} against its ceiling and the framework's floor, on
 * PostgreSQL, at 50 connections, all in one run, written to BENCHMARKS.md between
 * `<!-- bench:api:start -->` and `<!-- bench:api:end -->`.
 *
 *   (a) bench/baseline-server.ts: node:http + postgres.js, same token lookup and UPDATE (the ceiling);
 *   (b) GET /api/health on the Next.js build (an empty route handler: the framework's floor);
 *   (c) PATCH /api/v1/chats/{id} {"tags": [...]}, authenticated, over 1,000 seeded chats.
 *
 * Creates its own database beside DATABASE_URL's (default postgres://postgres@127.0.0.1:5432/postgres)
 * and drops it at the end; builds with `next build` only when .next/BUILD_ID is missing or older than
 * the sources (BENCH_BUILD=always|never to override); sends HTTP only to 127.0.0.1.
 * Knobs: BENCH_CASES (e.g. `c`; a partial run writes nothing), BENCH_DURATION (s, default 15), BENCH_WARMUP (s, default 5), BENCH_PROFILE=1 (writes a
 * --cpu-prof of the Next server to $TMPDIR/va-bench-profiles/), BENCH_WRITE=0 (don't touch BENCHMARKS.md).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type Result } from 'autocannon';
import postgres from 'postgres';
import { openPostgres } from '@/db/client';
import { chats, customers, messages } from '@/db/schema';
import { createTenant } from '@/test/support/tenant';

const ROOT = process.cwd();
const CONNECTIONS = 50;
const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const CHATS = 1000;
const POOL_SIZE = 10; // the app's default DATABASE_POOL_SIZE; the baseline gets the same
const DEADLINE_MS = 235_000;
const TARGET_RATIO_B = 0.6;
const TARGET_P99_MS = 150;
const MARK_START = '<!-- bench:api:start -->';
const MARK_END = '<!-- bench:api:end -->';

const baseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const started = Date.now();
const children: ChildProcess[] = [];
let admin: postgres.Sql | undefined;
let benchDb: string | undefined;
let closeSeedDb: (() => Promise<void>) | undefined;

const log = (msg: string) => console.log(`[bench:api ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${msg}`);

type Case = {
  key: 'a' | 'b' | 'c';
  label: string;
  result: Result;
  cpuMsPerReq: number | null;
  pgCpuMsPerReq: number | null;
  machineBusy: number;
  xactsPerReq: number | null;
};

async function main() {
  const dbHost = new URL(baseUrl).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(dbHost)) {
    throw new Error(`bench:api runs against a local PostgreSQL only (DATABASE_URL host is ${dbHost})`);
  }

  // 1. A fresh database, migrated, seeded. The fixture's VA points its webhook at 127.0.0.1:9
  // (nothing is delivered: DELIVERY_ENGINE=off), which the URL policy allows only with this flag.
  process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
  admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  benchDb = `va_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  await admin.unsafe(`CREATE DATABASE ${benchDb}`);
  const dbUrl = new URL(baseUrl);
  dbUrl.pathname = `/${benchDb}`;
  const handle = await openPostgres(dbUrl.toString(), { migrate: true });
  closeSeedDb = handle.close;
  const seed = await seedDatabase(handle.db);
  await handle.close();
  closeSeedDb = undefined;
  log(`database ${benchDb}: migrated, 1 tenant, ${seed.chatIds.length} chats in team ${seed.teamId}`);

  // 2. A current production build.
  await ensureBuild();

  // 3. (a) the baseline server.
  const cases: Case[] = [];
  const only = new Set((process.env.BENCH_CASES ?? 'abc').split(''));
  if (only.has('a')) {
    const basePort = await freePort();
    const baseline = startChild('baseline', process.execPath, ['--import', 'tsx', 'bench/baseline-server.ts'], {
      PORT: String(basePort),
      DATABASE_URL: dbUrl.toString(),
      DATABASE_POOL_SIZE: String(POOL_SIZE),
    });
    await waitReady(`http://127.0.0.1:${basePort}/health`, baseline);
    await checkPatch(basePort, seed, false);
    cases.push(
      await runCase('a', 'node:http + postgres.js: token lookup + UPDATE (ceiling)', baseline, dbUrl, patchRequests(basePort, seed)),
    );
    await stopChild(baseline);
  }

  // 4. (b) and (c) on `next start`.
  const nextPort = await freePort();
  const profileDir = path.join(os.tmpdir(), 'va-bench-profiles');
  const nodeFlags = process.env.BENCH_PROFILE === '1' ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const next = startChild(
    'next',
    process.execPath,
    [...nodeFlags, path.join(ROOT, 'node_modules/next/dist/bin/next'), 'start', '-p', String(nextPort), '-H', '127.0.0.1'],
    {
      NODE_ENV: 'production',
      DATABASE_URL: dbUrl.toString(),
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      DELIVERY_ENGINE: 'off',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '100000000',
    },
  );
  await waitReady(`http://127.0.0.1:${nextPort}/api/health`, next);
  await checkPatch(nextPort, seed, true);
  if (only.has('b'))
    cases.push(
      await runCase('b', 'Next.js: GET /api/health, empty route handler (floor)', next, dbUrl, {
        url: `http://127.0.0.1:${nextPort}/api/health`,
      }),
    );
  if (only.has('c'))
    cases.push(await runCase('c', 'Next.js: PATCH /api/v1/chats/{id} {"tags": [...]}', next, dbUrl, patchRequests(nextPort, seed)));
  await stopChild(next);

  // 5. Report (a partial run, BENCH_CASES, is for profiling and only prints its figures).
  if (cases.length < 3) return;
  const report = await renderReport(cases);
  console.log(`\n${report}`);
  if (process.env.BENCH_WRITE !== '0') {
    writeSection(path.join(ROOT, 'BENCHMARKS.md'), report);
    log('wrote the bench:api section of BENCHMARKS.md');
  }
  const bad = cases.filter((c) => c.result.non2xx || c.result.errors || c.result.timeouts);
  if (bad.length) {
    throw new Error(
      `non-2xx answers or errors: ${bad.map((c) => `(${c.key}) non2xx=${c.result.non2xx} errors=${c.result.errors} timeouts=${c.result.timeouts} ${JSON.stringify(c.result.statusCodeStats)}`).join('; ')}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Seeding

type Seed = { token: string; teamId: number; chatIds: string[] };

async function seedDatabase(db: Awaited<ReturnType<typeof openPostgres>>['db']): Promise<Seed> {
  const t = await createTenant(db);
  const accountId = t.account.id;
  const custRows = await db
    .insert(customers)
    .values(
      Array.from({ length: CHATS }, (_, i) => ({
        accountId,
        channel: 'sms' as const,
        destinationId: `+1555${String(i).padStart(7, '0')}`,
        name: `Customer ${i}`,
      })),
    )
    .returning({ id: customers.id });
  const chatIds = custRows.map(() => crypto.randomUUID());
  // Chats the VA holds, in its team, each with a short transcript (the answer carries the latest 20).
  await db.insert(chats).values(
    custRows.map((c, i) => ({
      id: chatIds[i],
      accountId,
      teamId: t.botTeam.id,
      status: 'picked' as const,
      channel: 'sms' as const,
      assetId: t.assets.sms.id,
      customerId: c.id,
      assigneeId: t.bot.user.id,
      tags: ['new'],
    })),
  );
  const base = Date.now() - 60_000;
  await db.insert(messages).values(
    chatIds.flatMap((chatId, i) =>
      [0, 1, 2].map((k) => ({
        chatId,
        accountId,
        transid: crypto.randomUUID(),
        type: k === 1 ? ('outbound' as const) : ('inbound' as const),
        body: { text: k === 1 ? 'How can I help?' : `Message ${k} of chat ${i}` },
        authorLoginId: k === 1 ? t.bot.user.loginId : null,
        sentAt: new Date(base + k * 1000),
      })),
    ),
  );
  return { token: t.token, teamId: t.botTeam.id, chatIds };
}

// ---------------------------------------------------------------------------------------------
// Build

const SOURCES = [
  'app',
  'lib',
  'contracts',
  'db',
  'next.config.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'instrumentation.ts',
  'proxy.ts',
  'middleware.ts',
];

function newestSourceMtime(): number {
  let newest = 0;
  const visit = (p: string) => {
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const e of fs.readdirSync(p)) visit(path.join(p, e));
    } else if (!p.endsWith('.test.ts')) {
      newest = Math.max(newest, st.mtimeMs);
    }
  };
  for (const s of SOURCES) visit(path.join(ROOT, s));
  return newest;
}

async function ensureBuild() {
  const mode = process.env.BENCH_BUILD ?? 'auto';
  const buildId = path.join(ROOT, '.next', 'BUILD_ID');
  const builtAt = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
  const stale = builtAt < newestSourceMtime();
  if (mode === 'never' || (mode === 'auto' && !stale)) {
    if (!builtAt) throw new Error('no .next build and BENCH_BUILD=never');
    log(`using the existing build (${stale ? 'STALE, BENCH_BUILD=never' : 'newer than the sources'})`);
    return;
  }
  log(builtAt ? 'sources changed since the last build: next build' : 'no build yet: next build');
  // `next build` rewrites tsconfig.json (formatting, an extra include) when it differs from its
  // taste; the benchmark must leave files it does not own as they were.
  const tsconfig = path.join(ROOT, 'tsconfig.json');
  const before = fs.readFileSync(tsconfig);
  const beforeStat = fs.statSync(tsconfig);
  try {
    const build = startChild(
      'build',
      process.execPath,
      [path.join(ROOT, 'node_modules/next/dist/bin/next'), 'build'],
      { NODE_ENV: 'production' },
      true,
    );
    const code = await new Promise<number | null>((resolve) => build.once('exit', (c) => resolve(c)));
    if (code !== 0) throw new Error(`next build failed (exit ${code}); if another engineer's files are mid-edit, retry in a minute`);
  } finally {
    if (!fs.readFileSync(tsconfig).equals(before)) {
      fs.writeFileSync(tsconfig, before);
      log('restored tsconfig.json, which next build had rewritten');
    }
    fs.utimesSync(tsconfig, beforeStat.atime, beforeStat.mtime);
  }
  log('build done');
}

// ---------------------------------------------------------------------------------------------
// Processes

function startChild(name: string, cmd: string, args: string[], env: Record<string, string>, inheritOutput = false): ChildProcess {
  const child = spawn(cmd, args, {
    cwd: ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
    // Own process group, so stopping it also stops anything it started.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  // Errors are shown, but only the first few: when autocannon stops, the requests it had in flight
  // are aborted, and the server logs each one.
  let errLines = 0;
  const forward = (chunk: Buffer, to: NodeJS.WriteStream) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line.trim() || !(inheritOutput || to === process.stderr)) continue;
      if (to === process.stderr && !inheritOutput && ++errLines > 5) {
        if (errLines === 6) to.write(`  [${name}] (further stderr lines not shown)\n`);
        continue;
      }
      to.write(`  [${name}] ${line.slice(0, 400)}\n`);
    }
  };
  child.stdout?.on('data', (c: Buffer) => forward(c, process.stdout));
  child.stderr?.on('data', (c: Buffer) => forward(c, process.stderr));
  child.once('exit', () => children.splice(children.indexOf(child), 1));
  return child;
}

async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

async function waitReady(url: string, child: ChildProcess, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${url}: server exited with ${child.exitCode} before it was ready`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready in ${timeoutMs / 1000} s`);
}

// ---------------------------------------------------------------------------------------------
// Load

const TAG_SETS = Array.from({ length: 16 }, (_, i) => JSON.stringify({ tags: ['bench', `group-${i % 4}`, `tag-${i}`] }));

function patchRequests(port: number, seed: Seed) {
  // One counter across all connections: consecutive requests touch different chats, so the 50 in
  // flight rarely wait on each other's row lock (as with many bots, each on its own chats).
  let n = 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: [
      {
        method: 'PATCH',
        headers: { access_token: seed.token, team_id: String(seed.teamId), 'content-type': 'application/json' },
        setupRequest: (req: object) => {
          const i = n++;
          return { ...req, path: `/api/v1/chats/${seed.chatIds[i % seed.chatIds.length]}`, body: TAG_SETS[i % TAG_SETS.length] };
        },
      },
    ],
  };
}

/** One PATCH before the load, so a broken route fails here with its answer rather than as 50,000 non-2xx. */
async function checkPatch(port: number, seed: Seed, fullView: boolean) {
  const chatId = seed.chatIds[seed.chatIds.length - 1];
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/chats/${chatId}`, {
    method: 'PATCH',
    headers: { access_token: seed.token, team_id: String(seed.teamId), 'content-type': 'application/json' },
    body: JSON.stringify({ tags: ['check', 'check', 'bench'] }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`PATCH check on :${port} answered ${res.status}: ${text}`);
  const body = JSON.parse(text);
  const chat = body.response;
  if (body.status_code !== 4304 || JSON.stringify(chat.tag) !== '["check","bench"]')
    throw new Error(`PATCH check on :${port}: unexpected ${text}`);
  if (
    fullView &&
    (chat.chat_id !== chatId || chat.messages?.length !== 3 || chat.team_id !== seed.teamId || !chat.customer?.destination_id)
  ) {
    throw new Error(`PATCH check on :${port}: not the full chat view: ${text}`);
  }
}

async function runCase(
  key: Case['key'],
  label: string,
  server: ChildProcess,
  dbUrl: URL,
  opts: Parameters<typeof autocannon>[0],
): Promise<Case> {
  log(`(${key}) ${label}: warm-up ${WARMUP} s`);
  const warm = await autocannon({ ...opts, connections: CONNECTIONS, duration: WARMUP });
  if (warm.non2xx || warm.errors)
    log(`(${key}) warm-up saw non2xx=${warm.non2xx} errors=${warm.errors} ${JSON.stringify(warm.statusCodeStats)}`);
  log(`(${key}) measuring ${DURATION} s at ${CONNECTIONS} connections`);
  const cpu0 = processCpuMs(server.pid!);
  const pg0 = postgresCpuMs();
  const sys0 = machineCpu();
  const x0 = await committedXacts(dbUrl);
  const result = await autocannon({ ...opts, connections: CONNECTIONS, duration: DURATION });
  const cpu1 = processCpuMs(server.pid!);
  const pg1 = postgresCpuMs();
  const sys1 = machineCpu();
  const x1 = await committedXacts(dbUrl);
  const total = result.requests.total;
  const c: Case = {
    key,
    label,
    result,
    cpuMsPerReq: cpu0 !== null && cpu1 !== null && total ? (cpu1 - cpu0) / total : null,
    pgCpuMsPerReq: total ? (pg1 - pg0) / total : null,
    machineBusy: (sys1.busy - sys0.busy) / Math.max(1, sys1.total - sys0.total),
    // Minus the two reads of the counter itself.
    xactsPerReq: total ? Math.max(0, x1 - x0 - 2) / total : null,
  };
  log(
    `(${key}) ${fmt(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}, server CPU ${c.cpuMsPerReq?.toFixed(3)} ms/req, PostgreSQL CPU ${c.pgCpuMsPerReq?.toFixed(3)} ms/req`,
  );
  return c;
}

/** utime + stime of a process, in ms (Linux). */
function processCpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

/**
 * CPU of every PostgreSQL process on the machine, in ms: the pool's backends live through a run, so
 * the difference over a run is what the server made PostgreSQL do (plus any other session's work).
 */
function postgresCpuMs(): number {
  let sum = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      sum += processCpuMs(Number(pid)) ?? 0;
    } catch {
      // exited meanwhile
    }
  }
  return sum;
}

function machineCpu(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const cpu of os.cpus()) {
    const t = cpu.times;
    busy += t.user + t.nice + t.sys + t.irq;
    total += t.user + t.nice + t.sys + t.irq + t.idle;
  }
  return { busy, total };
}

async function committedXacts(dbUrl: URL): Promise<number> {
  const [row] = await admin!`select xact_commit::bigint as n from pg_stat_database where datname = ${dbUrl.pathname.slice(1)}`;
  // Statistics are flushed by backends at most every second or so; close enough over 15 s.
  return Number(row?.n ?? 0);
}

// ---------------------------------------------------------------------------------------------
// Report

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (n: number) => `${(n * 100).toFixed(0)} %`;

async function renderReport(cases: Case[]): Promise<string> {
  const by = Object.fromEntries(cases.map((c) => [c.key, c])) as Record<Case['key'], Case>;
  const rps = (k: Case['key']) => by[k].result.requests.average;
  const rCB = rps('c') / rps('b');
  const rCA = rps('c') / rps('a');
  const p99 = by.c.result.latency.p99;
  const cpuModel = (fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m)?.[1] ?? os.cpus()[0]?.model ?? '?').trim();
  const [{ version: pgVersion }] = await admin!`select version()`;
  const cpu = (c: Case) => (c.cpuMsPerReq === null ? 'n/a' : c.cpuMsPerReq.toFixed(2));
  const row = (c: Case) =>
    `| (${c.key}) ${c.label} | ${fmt(c.result.requests.average)} | ${c.result.latency.p50} | ${c.result.latency.p99} | ${c.result.non2xx} | ${fmt(c.result.requests.total)} | ${cpu(c)} | ${c.pgCpuMsPerReq === null ? 'n/a' : c.pgCpuMsPerReq.toFixed(2)} | ${pct(c.machineBusy)} |`;
  const notesFile = path.join(ROOT, 'bench', 'api-notes.md');
  const notes = fs.existsSync(notesFile) ? fs.readFileSync(notesFile, 'utf8').trim() : '';
  const appCpu = by.c.cpuMsPerReq !== null && by.b.cpuMsPerReq !== null ? by.c.cpuMsPerReq - by.b.cpuMsPerReq : null;

  return [
    MARK_START,
    '## bench:api: PATCH /api/v1/chats/{chat_id} against its ceiling and the framework floor',
    '',
    `Run ${new Date().toISOString()} with \`npm run bench:api\` (\`tsx bench/api.ts\`): autocannon 8, ${CONNECTIONS} connections, ${WARMUP} s warm-up then ${DURATION} s per case, all on 127.0.0.1; a fresh PostgreSQL database (migrated, 1 tenant, ${CHATS} chats of the VA's team with 3 messages each) dropped afterwards; \`next start\` of a production build with \`DELIVERY_ENGINE=off LOG_LEVEL=warn\`, a rate limit too high to trip, \`DATABASE_POOL_SIZE=${POOL_SIZE}\` (the default; the baseline uses the same pool size).`,
    '',
    `Machine: ${os.cpus().length} CPUs (\`nproc\`), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${cpuModel}; Node ${process.version}; ${String(pgVersion).split(' on ')[0]} on the same machine. The server, PostgreSQL and autocannon share the ${os.cpus().length} cores.`,
    '',
    '| case | req/s | p50 ms | p99 ms | non-2xx | requests | server CPU ms/req | PostgreSQL CPU ms/req | machine CPU busy |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    row(by.a),
    row(by.b),
    row(by.c),
    '',
    `- (c)/(b) = **${pct(rCB)}** (target ≥ ${pct(TARGET_RATIO_B)}: **${rCB >= TARGET_RATIO_B ? 'met' : 'NOT met'}**); (c)/(a) = **${pct(rCA)}**.`,
    `- (c) p99 = **${p99} ms** (target < ${TARGET_P99_MS} ms: **${p99 < TARGET_P99_MS ? 'met' : 'NOT met'}**).`,
    `- Server CPU per request (utime+stime of the server process / requests): (a) ${cpu(by.a)} ms, (b) ${cpu(by.b)} ms, (c) ${cpu(by.c)} ms; (c) − (b), our code plus ts-rest, zod and Drizzle above the empty route: ${appCpu === null ? 'n/a' : `${appCpu.toFixed(2)} ms`}.`,
    `- Committed PostgreSQL transactions per request: (a) ${by.a.xactsPerReq?.toFixed(2) ?? 'n/a'}, (c) ${by.c.xactsPerReq?.toFixed(2) ?? 'n/a'}.`,
    '',
    notes,
    MARK_END,
  ].join('\n');
}

/** Replaces this benchmark's section, or appends it; every other section is left as it was. */
function writeSection(file: string, section: string) {
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
  const start = current.indexOf(MARK_START);
  const end = current.indexOf(MARK_END);
  let next: string;
  if (start !== -1 && end > start) {
    next = current.slice(0, start) + section + current.slice(end + MARK_END.length);
  } else {
    next = `${current.replace(/\n*$/, '\n\n')}${section}\n`;
  }
  fs.writeFileSync(file, next);
}

// ---------------------------------------------------------------------------------------------
// Cleanup: every child stopped, the database dropped, whatever happened.

async function cleanup() {
  await Promise.all([...children].map((c) => stopChild(c, 5000)));
  if (closeSeedDb) await closeSeedDb().catch(() => {});
  if (admin && benchDb) {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${benchDb} WITH (FORCE)`).catch((err) => console.error(`could not drop ${benchDb}:`, err));
    log(`dropped ${benchDb}`);
  }
  await admin?.end({ timeout: 2 }).catch(() => {});
}

let cleaning = false;
const finish = (code: number) => {
  if (cleaning) return;
  cleaning = true;
  cleanup().finally(() => {
    log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    process.exit(code);
  });
};
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => finish(130));
setTimeout(() => {
  console.error(`bench:api: over ${DEADLINE_MS / 1000} s, giving up`);
  finish(1);
}, DEADLINE_MS).unref();

main().then(
  () => finish(0),
  (err) => {
    console.error('bench:api failed:', err instanceof Error ? err.message : err);
    finish(1);
  },
);
