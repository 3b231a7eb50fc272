/**
 * npm run bench:api: PATCH /api/v1/chats/{chat_id} against its ceiling and the framework's floor, on
 * PostgreSQL, at 50 connections, all in one run, written to BENCHMARKS.md between
 * `<!-- bench:api:start -->` and `<!-- bench:api:end -->` (nothing else in the file is touched; notes
 * on the figures live in dated sections of docs/benchmarks/notes.md, written by hand).
 *
 *   (a) bench/baseline-server.ts: node:http + postgres.js, same token lookup under the app's token
 *       policy (a checked token remembered TOKEN_CACHE_SECONDS, 10 s by default, on both sides) and
 *       the same UPDATE (the ceiling);
 *   (b) GET /api/health on `next start` of the build (an empty route handler: the framework's floor);
 *   (c) PATCH /api/v1/chats/{id} {"tags": [...]} on `next start`, authenticated, over 1,000 seeded chats;
 *   (d) the same PATCH on `npm start` (scripts/start.mjs): the node:http entry in front of Next;
 *   (e) the same PATCH through ts-rest's own fetch handler with requestMiddleware, errorHandler and
 *       typed middleware context, on node:http (bench/pipeline-server.ts, PIPELINE=tsrest);
 *   (f) the same PATCH through our pipeline on that same server (PIPELINE=ours): (e) vs (f) is the
 *       pipeline alone;
 *   (g) (d) with the bot request log off (BOT_REQUEST_LOG=off): (d) vs (g) is what the log costs;
 *   (h) (d) with limits counted in memory (RATE_LIMIT_STORE=memory): (d) vs (h) is what the limits
 *       shared between instances cost;
 *   (i) (d) with every successful call recorded (BOT_REQUEST_LOG_SAMPLE_RATE=1), not only those about
 *       the default half of the chats: (i) vs (g) is what recording all of them costs;
 *   (j) (a)'s bare server answering what the contract asks, the whole chat, with the app's own
 *       statement and mapping (asked by the header x-bench-answer: chat), the same token policy, and
 *       the same answer body as (d) (checked before the load, timestamps aside): (j) vs (a) is what
 *       the answer costs any server, (d) vs (j) what our pipeline adds to it (rate limits, the
 *       request log, schema validation, trace IDs, metrics, error mapping: none of which (j) does).
 *
 * Every server runs with bench/probe.mjs, which reports per round its event-loop delay (p99) and
 * its GC pauses (count, total).
 *
 * Creates its own database beside DATABASE_URL's (default postgres://postgres@127.0.0.1:5432/postgres)
 * and drops it at the end; runs `next build` only when .next/BUILD_ID is missing or older than the
 * sources; sends HTTP only to 127.0.0.1; stops every process it started.
 * Before each measured round the database is vacuumed (untimed), so no round inherits another's
 * dead rows.
 * Each case is warmed up, then measured in rounds that alternate a to h, each round starting one
 * case later (3 x 5 s each by default), so a burst of load from other processes on a shared machine lands on all of them rather
 * than on one.
 *
 * Then the log's cost apart: BENCH_LOG_PAIRS (24) pairs of BENCH_LOG_PAIR_SECONDS (3) rounds of (d) and
 * (g) back to back (see measureLogPairs).
 *
 * Knobs: BENCH_ROUNDS (3), BENCH_ROUND_SECONDS (5), BENCH_WARMUP (5 s), BENCH_BUILD=auto|always|never,
 * BENCH_CASES (ids of CASES, e.g. `cd`: a partial run prints its cases' table and writes nothing), BENCH_PROFILE=1 (a --cpu-prof of
 * the Next servers in $TMPDIR/va-bench-profiles/), BENCH_WRITE=0 (leave BENCHMARKS.md alone),
 * BENCH_NODE_FLAGS (extra node flags for (d), e.g. `--max-semi-space-size=32`; a run with it writes nothing),
 * BENCH_SHOW=1 (print the servers' own output, not only their errors), BENCH_KEEP_DB=1 (leave the
 * seeded database for a look with psql or pgbench; its name is printed).
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon, { type Result } from 'autocannon';
import postgres from 'postgres';
import { openPostgres } from '@/db/client';
import { chats, customers, messages } from '@/db/schema';
import { env } from '@/env';
import { startNodeFlags } from '@/test/support/production-server';
import { createTenant } from '@/test/support/tenant';
import { writeSection } from './report';
import { freePort, postgresCpu, processCpuMs, waitReady } from './servers';

const ROOT = process.cwd();
const CONNECTIONS = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 5);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const CHATS = 1000;
// The fixture's VA points its webhook at 127.0.0.1:9 (nothing is delivered: DELIVERY_ENGINE=off),
// which the URL policy allows only with this flag; set before env() is first read.
process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
// The app's pool size (DATABASE_POOL_SIZE or its default); the baseline gets the same.
const POOL_SIZE = env().DATABASE_POOL_SIZE;
// How long the app remembers a checked token (TOKEN_CACHE_SECONDS or its default, 10); the bare server the same.
const TOKEN_CACHE_SECONDS = env().TOKEN_CACHE_SECONDS;
const DEADLINE_MS = 600_000;
// The log's cost, measured apart: (d) and (g) in adjacent short rounds, ordered d g g d d g g d ...
const LOG_PAIRS = Number(process.env.BENCH_LOG_PAIRS ?? 24);
const LOG_PAIR_SECONDS = Number(process.env.BENCH_LOG_PAIR_SECONDS ?? 3);
// The bot API's target: `npm start` (d) at 80 % of the bare server (a) or more, with p99 under 30 ms.
const TARGET_RATIO_A = 0.8;
const TARGET_P99_MS = 30;
const PROBE = path.join(ROOT, 'bench', 'probe.mjs');
const ALL_KEYS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'] as const;
/** What asks the bare server for the whole chat, case (j). */
const CHAT_ANSWER_HEADER = { 'x-bench-answer': 'chat' };
const MARK_START = '<!-- bench:api:start -->';
const MARK_END = '<!-- bench:api:end -->';

const baseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const started = Date.now();
const children: ChildProcess[] = [];
let admin: postgres.Sql | undefined;
let benchDb: string | undefined;
let closeSeedDb: (() => Promise<void>) | undefined;

const log = (msg: string) => console.log(`[bench:api ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${msg}`);

type Key = (typeof ALL_KEYS)[number];
type Probe = {
  eldP50: number;
  eldP99: number;
  eldMax: number;
  gcCount: number;
  gcMajor: number;
  gcMs: number;
  gcMaxMs: number;
  heapMb: number;
};
type Target = { key: Key; label: string; server: ChildProcess; opts: Parameters<typeof autocannon>[0] };
type Round = {
  result: Result;
  seconds: number;
  serverCpuMs: number | null;
  pgCpuMs: number;
  /** This process's CPU over the round: autocannon, the load generator. */
  benchCpuMs: number;
  otherCores: number;
  probe: Probe | null;
  /** The cluster's WAL written during the round (pg_stat_wal: only this benchmark writes here). */
  wal: Wal;
  /** Rows the round added to the bot request log (counted after its last batch has landed). */
  logRows: number;
  /** CPU of the backend that writes the log (`va-chat-log`), when it was connected all the round. */
  logBackendCpuMs: number | null;
};
type Wal = { bytes: number; fpi: number; syncs: number };
type Case = { key: Key; label: string; rounds: Round[] };

/** What the cases start their servers with. */
type Setup = {
  dbUrl: URL;
  seed: Seed;
  /** The app's settings for every server of ours. */
  appEnv: Record<string, string>;
  probeFlags: string[];
  profileFlags: string[];
  /** Servers that several cases share, started once: by name, its process and port. */
  shared: Map<string, Promise<{ server: ChildProcess; port: number }>>;
};

/**
 * A case: its id (BENCH_CASES takes ids), its title in the report, and its run function, which
 * starts its server (or joins one it shares), checks it with one real PATCH, and answers what the
 * rounds load it with.
 */
type ApiCase = { id: Key; title: string; run: (s: Setup) => Promise<Omit<Target, 'key' | 'label'>> };

/** `npm start` (scripts/start.mjs) with one setting changed from the defaults. */
const entryCase = (id: Key, title: string, variant: Record<string, string>): ApiCase => ({
  id,
  title,
  run: async (s) => {
    const port = await freePort();
    const extra = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
    const server = startChild(
      `npm-start-${id}`,
      process.execPath,
      [...startNodeFlags(), ...s.probeFlags, ...s.profileFlags, ...extra, path.join(ROOT, 'scripts/start.mjs'), '-H', '127.0.0.1'],
      { ...s.appEnv, ...variant, PORT: String(port) },
    );
    await waitReady(`http://127.0.0.1:${port}/api/health`, server);
    await checkPatch(port, s.seed, true);
    return { server, opts: patchRequests(port, s.seed) };
  },
});

/** bench/pipeline-server.ts with one pipeline on it. */
const pipelineCase = (id: Key, title: string, pipeline: 'tsrest' | 'ours'): ApiCase => ({
  id,
  title,
  run: async (s) => {
    const port = await freePort();
    const server = startChild(`pipeline-${pipeline}`, process.execPath, [...s.probeFlags, '--import', 'tsx', 'bench/pipeline-server.ts'], {
      ...s.appEnv,
      PORT: String(port),
      PIPELINE: pipeline,
    });
    await waitReady(`http://127.0.0.1:${port}/health`, server);
    await checkPatch(port, s.seed, true);
    return { server, opts: patchRequests(port, s.seed) };
  },
});

/** A server several cases share, started by the first of them. */
function sharedServer(s: Setup, name: string, start: () => Promise<{ server: ChildProcess; port: number }>) {
  let server = s.shared.get(name);
  if (!server) {
    server = start();
    s.shared.set(name, server);
  }
  return server;
}

/**
 * (a) and (j) are one process, which answers the whole chat when asked by a header: one pool of
 * connections for both (with every case up at once, a second would pass max_connections 100).
 */
const bareServer = (s: Setup) =>
  sharedServer(s, 'baseline', async () => {
    const port = await freePort();
    const server = startChild('baseline', process.execPath, [...s.probeFlags, '--import', 'tsx', 'bench/baseline-server.ts'], {
      PORT: String(port),
      DATABASE_URL: s.dbUrl.toString(),
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      // The app's token policy, read from the same setting the app reads.
      TOKEN_CACHE_SECONDS: String(TOKEN_CACHE_SECONDS),
      LOG_LEVEL: 'warn',
    });
    await waitReady(`http://127.0.0.1:${port}/health`, server);
    return { server, port };
  });

/** (b) and (c): one `next start`. */
const nextServer = (s: Setup) =>
  sharedServer(s, 'next', async () => {
    const port = await freePort();
    const server = startChild(
      'next',
      process.execPath,
      [
        ...s.probeFlags,
        ...s.profileFlags,
        path.join(ROOT, 'node_modules/next/dist/bin/next'),
        'start',
        '-p',
        String(port),
        '-H',
        '127.0.0.1',
      ],
      s.appEnv,
    );
    await waitReady(`http://127.0.0.1:${port}/api/health`, server);
    await checkPatch(port, s.seed, true);
    return { server, port };
  });

/** The cases, in the order of the report. */
const CASES: ApiCase[] = [
  {
    id: 'a',
    title: 'node:http + postgres.js: token lookup (remembered as the app does) + UPDATE (ceiling)',
    run: async (s) => {
      const { server, port } = await bareServer(s);
      await checkPatch(port, s.seed, false);
      return { server, opts: patchRequests(port, s.seed) };
    },
  },
  {
    id: 'b',
    title: '`next start`: GET /api/health, empty route handler (floor)',
    run: async (s) => {
      const { server, port } = await nextServer(s);
      return { server, opts: { url: `http://127.0.0.1:${port}/api/health` } };
    },
  },
  {
    id: 'c',
    title: '`next start`: PATCH /api/v1/chats/{id} {"tags": [...]}',
    run: async (s) => {
      const { server, port } = await nextServer(s);
      return { server, opts: patchRequests(port, s.seed) };
    },
  },
  entryCase('d', '`npm start` (node:http entry): the same PATCH', {}),
  pipelineCase('e', "ts-rest's own fetch handler on node:http: the same PATCH", 'tsrest'),
  pipelineCase('f', 'our pipeline on that same node:http server: the same PATCH', 'ours'),
  entryCase('g', '(d) with the bot request log off', { BOT_REQUEST_LOG: 'off' }),
  entryCase('h', '(d) with rate limits counted in memory, not shared', { RATE_LIMIT_STORE: 'memory' }),
  entryCase('i', '(d) with every successful call in the request log', { BOT_REQUEST_LOG_SAMPLE_RATE: '1' }),
  {
    id: 'j',
    title:
      "node:http + postgres.js answering the whole chat: token lookup (remembered as the app does) + the app's UPDATE with its chat view, the same answer body as (d) (the contract's floor)",
    run: async (s) => {
      const { server, port } = await bareServer(s);
      await checkPatch(port, s.seed, true, CHAT_ANSWER_HEADER);
      return { server, opts: patchRequests(port, s.seed, CHAT_ANSWER_HEADER) };
    },
  },
];

const LABELS = Object.fromEntries(CASES.map((c) => [c.id, c.title])) as Record<Key, string>;

async function main() {
  const dbHost = new URL(baseUrl).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(dbHost)) {
    throw new Error(`bench:api runs against a local PostgreSQL only (DATABASE_URL host is ${dbHost})`);
  }

  // 1. A fresh database, migrated, seeded.
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

  // 3. The servers up (an idle one costs nothing), each checked with one real request.
  const only = new Set((process.env.BENCH_CASES ?? ALL_KEYS.join('')).split(''));
  const setup: Setup = {
    dbUrl,
    seed,
    appEnv: {
      NODE_ENV: 'production',
      DATABASE_URL: dbUrl.toString(),
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      DELIVERY_ENGINE: 'off',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '100000000',
    },
    probeFlags: ['--import', pathToFileURL(PROBE).href],
    profileFlags: process.env.BENCH_PROFILE === '1' ? ['--cpu-prof', `--cpu-prof-dir=${path.join(os.tmpdir(), 'va-bench-profiles')}`] : [],
    shared: new Map(),
  };
  const targets: Target[] = [];
  for (const c of CASES) if (only.has(c.id)) targets.push({ key: c.id, label: c.title, ...(await c.run(setup)) });
  targets.sort((x, y) => ALL_KEYS.indexOf(x.key) - ALL_KEYS.indexOf(y.key));
  const dTarget = targets.find((t) => t.key === 'd');
  const jTarget = targets.find((t) => t.key === 'j');
  if (dTarget && jTarget) await checkSameAnswer(dTarget, jTarget, seed);

  // 4. Warm-up, then rounds alternating the cases.
  for (const t of targets) {
    log(`(${t.key}) warm-up ${WARMUP} s: ${t.label}`);
    const warm = await autocannon({ ...t.opts, connections: CONNECTIONS, duration: WARMUP });
    if (warm.non2xx || warm.errors)
      log(`(${t.key}) warm-up saw non2xx=${warm.non2xx} errors=${warm.errors} ${JSON.stringify(warm.statusCodeStats)}`);
  }
  const cases: Case[] = targets.map((t) => ({ key: t.key, label: t.label, rounds: [] }));
  for (let r = 1; r <= ROUNDS; r++) {
    // Each round starts one case later than the one before, so no case always follows the same one
    // (a case that runs right after another inherits its leftovers: buffered writes, dead rows).
    for (let j = 0; j < targets.length; j++) {
      const i = (j + r - 1) % targets.length;
      const t = targets[i];
      await settle(dbUrl);
      const round = await measureRound(t, dbUrl);
      cases[i].rounds.push(round);
      log(
        `round ${r}/${ROUNDS} (${t.key}) ${fmt(round.result.requests.total / round.seconds)} req/s, p50 ${round.result.latency.p50} ms, p99 ${round.result.latency.p99} ms, non-2xx ${round.result.non2xx}, errors ${round.result.errors}; server ${perReq(round.serverCpuMs, round.result)} ms CPU/req, PostgreSQL ${perReq(round.pgCpuMs, round.result)} ms CPU/req, autocannon ${perReq(round.benchCpuMs, round.result)} ms CPU/req; event-loop delay p99 ${round.probe?.eldP99.toFixed(1) ?? '?'} ms, GC ${round.probe?.gcCount ?? '?'} pauses ${round.probe?.gcMs.toFixed(0) ?? '?'} ms; ${logAndWalText(round)}; other processes ${round.otherCores.toFixed(2)} cores`,
      );
    }
  }

  // The log's cost, from paired rounds of (d) and (g) (see measureLogPairs).
  const d = targets.find((t) => t.key === 'd');
  const g = targets.find((t) => t.key === 'g');
  const logPairs = d && g && LOG_PAIRS > 0 ? await measureLogPairs(d, g, dbUrl) : null;
  if (logPairs) log(`the log's cost: ${describeLogPairs(logPairs)}`);
  for (const child of [...children]) await stopChild(child);

  // 5. Report; a partial run (BENCH_CASES) is for profiling and only prints its figures.
  const failed = cases.filter((c) => c.rounds.some((r) => r.result.non2xx || r.result.errors || r.result.timeouts));
  if (cases.length === ALL_KEYS.length) {
    const report = await renderReport(cases, logPairs);
    console.log(`\n${report}`);
    if (process.env.BENCH_WRITE !== '0' && !process.env.BENCH_NODE_FLAGS && !failed.length) {
      writeSection(path.join(ROOT, 'BENCHMARKS.md'), report, { start: MARK_START, end: MARK_END });
      log('wrote the bench:api section of BENCHMARKS.md');
    }
  } else {
    console.log(
      `\nBENCH_CASES=${[...only].join('')} (a partial run: the cases' table only, nothing written)\n\n${renderTable(cases).join('\n')}`,
    );
  }
  if (failed.length) {
    throw new Error(
      `non-2xx answers or errors, BENCHMARKS.md not written: ${failed
        .map(
          (c) =>
            `(${c.key}) ${c.rounds.map((r) => `non2xx=${r.result.non2xx} errors=${r.result.errors} timeouts=${r.result.timeouts} ${JSON.stringify(r.result.statusCodeStats)}`).join(' | ')}`,
        )
        .join('; ')}`,
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

// Everything the server bundle can be built from: the project minus tests, benches and tooling.
const NOT_SOURCES = new Set([
  'node_modules',
  '.next',
  '.git',
  '.data',
  'test',
  'e2e',
  'bench',
  'scripts',
  'test-results',
  'playwright-report',
]);

function newestSourceMtime(): number {
  let newest = 0;
  const visit = (p: string, top: boolean) => {
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const e of fs.readdirSync(p)) if (!(top && NOT_SOURCES.has(e))) visit(path.join(p, e), false);
    } else if (!/\.(test\.ts|md)$/.test(p) && !p.endsWith('tsconfig.tsbuildinfo') && !p.endsWith('next-env.d.ts')) {
      newest = Math.max(newest, st.mtimeMs);
    }
  };
  visit(ROOT, true);
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
  log(
    mode === 'always'
      ? 'BENCH_BUILD=always: next build'
      : builtAt
        ? 'sources changed since the last build: next build'
        : 'no build yet: next build',
  );
  for (let attempt = 1; ; attempt++) {
    const code = await nextBuild();
    if (code === 0) break;
    // Parallel work can leave a file mid-edit for a moment; one retry while the time budget allows.
    if (attempt > 1 || Date.now() - started > 90_000) throw new Error(`next build failed (exit ${code})`);
    log('next build failed; retrying in 20 s');
    await new Promise((r) => setTimeout(r, 20_000));
  }
  log('build done');
}

async function nextBuild(): Promise<number | null> {
  // `next build` rewrites tsconfig.json (formatting, an extra include) when it differs from its
  // taste; the benchmark leaves files it does not own as they were (and their mtime, or the next
  // run would think the sources changed).
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
    return await new Promise<number | null>((resolve) => build.once('exit', (c) => resolve(c)));
  } finally {
    if (!fs.readFileSync(tsconfig).equals(before)) {
      fs.writeFileSync(tsconfig, before);
      log('restored tsconfig.json, which next build had rewritten');
    }
    fs.utimesSync(tsconfig, beforeStat.atime, beforeStat.mtime);
  }
}

// ---------------------------------------------------------------------------------------------
// Processes

const probeWaiters = new Map<ChildProcess, ((p: Probe) => void)[]>();

/** What the server's probe saw since the last call (bench/probe.mjs); null if it does not answer. */
function readProbe(child: ChildProcess): Promise<Probe | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), 3000);
    const list = probeWaiters.get(child) ?? [];
    probeWaiters.set(child, list);
    list.push((p) => {
      clearTimeout(timer);
      resolve(p);
    });
    try {
      process.kill(child.pid as number, 'SIGUSR2');
    } catch {
      resolve(null);
    }
  });
}

function startChild(
  name: string,
  cmd: string,
  args: string[],
  env: Record<string, string>,
  showOutput = process.env.BENCH_SHOW === '1',
): ChildProcess {
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
  let pending = '';
  const forward = (chunk: Buffer, toStderr: boolean) => {
    const text = (toStderr ? pending : '') + chunk.toString();
    const lines = text.split('\n');
    if (toStderr) pending = lines.pop() ?? '';
    for (const line of lines) {
      if (toStderr && line.startsWith('VA_PROBE ')) {
        probeWaiters.get(child)?.shift()?.(JSON.parse(line.slice('VA_PROBE '.length)) as Probe);
        continue;
      }
      if (!line.trim() || !(showOutput || toStderr)) continue;
      if (!showOutput && ++errLines > 5) {
        if (errLines === 6) process.stderr.write(`  [${name}] (further stderr lines not shown)\n`);
        continue;
      }
      (toStderr ? process.stderr : process.stdout).write(`  [${name}] ${line.slice(0, 400)}\n`);
    }
  };
  child.stdout?.on('data', (c: Buffer) => forward(c, false));
  child.stderr?.on('data', (c: Buffer) => forward(c, true));
  child.once('exit', () => children.splice(children.indexOf(child), 1));
  return child;
}

async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), sig);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------
// Load

const TAG_SETS = Array.from({ length: 16 }, (_, i) => JSON.stringify({ tags: ['bench', `group-${i % 4}`, `tag-${i}`] }));

function patchRequests(port: number, seed: Seed, extraHeaders: Record<string, string> = {}) {
  // One counter across all connections: consecutive requests touch different chats, so the 50 in
  // flight rarely wait on each other's row lock (as with many bots, each on its own chats).
  let n = 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: [
      {
        method: 'PATCH',
        headers: { access_token: seed.token, team_id: String(seed.teamId), 'content-type': 'application/json', ...extraHeaders },
        setupRequest: (req: object) => {
          const i = n++;
          return { ...req, path: `/api/v1/chats/${seed.chatIds[i % seed.chatIds.length]}`, body: TAG_SETS[i % TAG_SETS.length] };
        },
      },
    ],
  };
}

/** One PATCH before the load, so a broken route fails here with its answer rather than as 50,000 non-2xx. */
async function checkPatch(port: number, seed: Seed, fullView: boolean, extraHeaders: Record<string, string> = {}) {
  const chatId = seed.chatIds[seed.chatIds.length - 1];
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/chats/${chatId}`, {
    method: 'PATCH',
    headers: { access_token: seed.token, team_id: String(seed.teamId), 'content-type': 'application/json', ...extraHeaders },
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

/**
 * (d) and (j) give the same answer body for the same PATCH (the bare server is a fair floor only if
 * it answers what the contract asks): one PATCH of one chat through each, compared whole, with the
 * timestamps that the second write moves (any ISO date-time string) left out.
 */
async function checkSameAnswer(d: Target, j: Target, seed: Seed) {
  const chatId = seed.chatIds[0];
  const answer = async (t: Target, extraHeaders: Record<string, string>) => {
    const res = await fetch(`${t.opts.url}/api/v1/chats/${chatId}`, {
      method: 'PATCH',
      headers: { access_token: seed.token, team_id: String(seed.teamId), 'content-type': 'application/json', ...extraHeaders },
      body: JSON.stringify({ tags: ['same', 'answer'] }),
    });
    return { status: res.status, body: JSON.parse(await res.text()) as unknown };
  };
  const fromJ = await answer(j, CHAT_ANSWER_HEADER);
  const fromD = await answer(d, {});
  const differences: string[] = [];
  const compare = (x: unknown, y: unknown, at: string) => {
    const isTime = (v: unknown) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(v);
    if (isTime(x) && isTime(y)) return;
    if (typeof x === 'object' && x !== null && typeof y === 'object' && y !== null) {
      const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
      for (const k of keys) compare((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], `${at}.${k}`);
      return;
    }
    if (JSON.stringify(x) !== JSON.stringify(y)) differences.push(`${at}: (d) ${JSON.stringify(x)}, (j) ${JSON.stringify(y)}`);
  };
  compare({ status: fromD.status, ...(fromD.body as object) }, { status: fromJ.status, ...(fromJ.body as object) }, 'answer');
  if (differences.length) throw new Error(`(d) and (j) answer the same PATCH differently: ${differences.slice(0, 5).join('; ')}`);
  log('(d) and (j) gave the same answer body (timestamps aside)');
}

/**
 * Before each measured round: the previous case's buffered request-log rows land (they are written
 * within 250 ms), then a VACUUM, so no round inherits the dead row versions of the rounds before it
 * (autovacuum may be off, as on the machines here). Not timed. No CHECKPOINT: one before every
 * round made each round write a full image of every index page it touched first, which a server
 * does once per checkpoint (5 minutes by default), and charged the request log, whose chat index
 * touches a page per chat, 8 % instead of about 2 % (BENCHMARKS.md, 24 Nov 2026 afternoon).
 */
async function settle(dbUrl: URL): Promise<void> {
  await new Promise((r) => setTimeout(r, 500));
  const sql = postgres(dbUrl.toString(), { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe('VACUUM');
  } finally {
    await sql.end();
  }
}

type LogPairs = { d: Round[]; g: Round[] };

/**
 * What the request log costs, measured so that the machine's drift cancels: LOG_PAIRS pairs of
 * LOG_PAIR_SECONDS rounds of (d) and (g) back to back, in the order d g, g d, d g, ... (each case
 * first in half the pairs), each round settled like the others. Rounds of one case 20 s apart
 * differ by more than the 5 % this has to resolve (on a virtual machine whose neighbours come
 * and go); rounds 3 s apart mostly see the same machine.
 */
async function measureLogPairs(d: Target, g: Target, dbUrl: URL): Promise<LogPairs> {
  const out: LogPairs = { d: [], g: [] };
  for (let i = 0; i < LOG_PAIRS; i++) {
    for (const t of i % 2 === 0 ? [d, g] : [g, d]) {
      await settle(dbUrl);
      const round = await measureRound(t, dbUrl, LOG_PAIR_SECONDS);
      (t.key === 'd' ? out.d : out.g).push(round);
      log(
        `log pair ${i + 1}/${LOG_PAIRS} (${t.key}) ${fmt(round.result.requests.total / round.seconds)} req/s, p99 ${round.result.latency.p99} ms; server ${perReq(round.serverCpuMs, round.result)} ms CPU/req, PostgreSQL ${perReq(round.pgCpuMs, round.result)} ms CPU/req; ${logAndWalText(round)}; other processes ${round.otherCores.toFixed(2)} cores`,
      );
    }
  }
  return out;
}

function describeLogPairs(p: LogPairs): string {
  const total = (rounds: Round[]) => rounds.reduce((n, r) => n + r.result.requests.total, 0);
  const rate = (r: Round) => r.result.requests.total / r.seconds;
  const ratios = p.d.map((r, i) => rate(r) / rate(p.g[i])).sort((x, y) => x - y);
  const cpu = (rounds: Round[]) =>
    rounds.every((r) => r.serverCpuMs !== null) ? rounds.reduce((n, r) => n + (r.serverCpuMs ?? 0) + r.pgCpuMs, 0) / total(rounds) : null;
  const [on, off] = [cpu(p.d), cpu(p.g)];
  const cpuText =
    on === null || off === null
      ? ''
      : `; server + PostgreSQL CPU ${on.toFixed(3)} ms/req with it, ${off.toFixed(3)} without (${on >= off ? '+' : ''}${(((on - off) / off) * 100).toFixed(1)} %)`;
  const seconds = (rounds: Round[]) => rounds.reduce((n, r) => n + r.seconds, 0);
  const ratio = (d: Round[], g: Round[]) => total(d) / seconds(d) / (total(g) / seconds(g));
  const [low, high] = pairInterval(p, ratio);
  return `(d)/(g) = **${pct1(ratio(p.d, p.g))}** over ${p.d.length} pairs of ${LOG_PAIR_SECONDS} s rounds (95 % interval ${pct1(low)} to ${pct1(high)}; pair ratios ${pct(ratios[0])} to ${pct(ratios[ratios.length - 1])}, median ${pct(median(ratios))})${cpuText}`;
}

/**
 * How far the pairs' ratio could move by chance: the 2.5th and 97.5th percentiles of the ratio over
 * 2,000 resamples of the pairs (drawn with replacement, a pair kept whole, so the drift the pairs
 * cancel stays cancelled). Seeded, so a run's report can be recomputed.
 */
function pairInterval(p: LogPairs, ratio: (d: Round[], g: Round[]) => number): [number, number] {
  let seed = 0x2545f491;
  const random = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const n = p.d.length;
  const resampled: number[] = [];
  for (let k = 0; k < 2000; k++) {
    const picks = Array.from({ length: n }, () => Math.floor(random() * n));
    resampled.push(
      ratio(
        picks.map((i) => p.d[i]),
        picks.map((i) => p.g[i]),
      ),
    );
  }
  resampled.sort((x, y) => x - y);
  return [resampled[Math.floor(0.025 * resampled.length)], resampled[Math.ceil(0.975 * resampled.length) - 1]];
}

async function measureRound(t: Target, dbUrl: URL, roundSeconds = ROUND_SECONDS): Promise<Round> {
  await readProbe(t.server); // starts the probe's count afresh
  const { rows: logRows0, pid: logPid } = await logRowCount(dbUrl, t.server.pid);
  const server0 = processCpuMs(t.server.pid as number);
  const pg0 = postgresCpu(dbUrl);
  const sys0 = machineCpu();
  const self0 = process.cpuUsage();
  const wal0 = await walStats();
  const t0 = performance.now();
  const result = await autocannon({ ...t.opts, connections: CONNECTIONS, duration: roundSeconds });
  const seconds = (performance.now() - t0) / 1000;
  const wal1 = await walStats();
  const self = process.cpuUsage(self0);
  const sys1 = machineCpu();
  const pg1 = postgresCpu(dbUrl);
  const server1 = processCpuMs(t.server.pid as number);
  const probe = await readProbe(t.server);
  const serverCpuMs = server0 !== null && server1 !== null ? server1 - server0 : null;
  let pgCpuMs = 0;
  for (const [pid, ms] of pg1) pgCpuMs += ms - (pg0.get(pid) ?? 0);
  // Busy time of the machine that is not the server, PostgreSQL or this process: other work on a
  // shared machine, shown so a noisy run can be told from a slow one.
  const busyMs = ((sys1.busy - sys0.busy) / Math.max(1, sys1.total - sys0.total)) * os.cpus().length * seconds * 1000;
  const selfMs = (self.user + self.system) / 1000;
  const otherCores = Math.max(0, busyMs - (serverCpuMs ?? 0) - pgCpuMs - selfMs) / (seconds * 1000);
  const wal = { bytes: wal1.bytes - wal0.bytes, fpi: wal1.fpi - wal0.fpi, syncs: wal1.syncs - wal0.syncs };
  // The round's last rows are written within 250 ms of its last request (untimed).
  await new Promise((r) => setTimeout(r, 600));
  const logRows = (await logRowCount(dbUrl, t.server.pid)).rows - logRows0;
  const logCpu0 = logPid === null ? undefined : pg0.get(logPid);
  const logCpu1 = logPid === null ? undefined : pg1.get(logPid);
  const logBackendCpuMs = logCpu0 !== undefined && logCpu1 !== undefined ? logCpu1 - logCpu0 : null;
  return { result, seconds, serverCpuMs, pgCpuMs, benchCpuMs: selfMs, otherCores, probe, wal, logRows, logBackendCpuMs };
}

/**
 * Rows in the bot request log ((d) must add one per request and (g) none, or the comparison is
 * void), and the pid of the backend that writes them for the server `serverPid`, once it has
 * opened it (named `va-chat-log <host>:<pid>`; (d) and (h) both log, into the same database).
 */
async function logRowCount(dbUrl: URL, serverPid: number | undefined): Promise<{ rows: number; pid: number | null }> {
  const sql = postgres(dbUrl.toString(), { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ n: number; pid: number | null }[]>`
      select (select count(*)::int from bot_requests) as n,
        (select pid from pg_stat_activity where datname = current_database()
          and application_name like ${`va-chat-log %:${serverPid ?? 0}`} limit 1) as pid`;
    return { rows: row.n, pid: row.pid };
  } finally {
    await sql.end();
  }
}

async function walStats(): Promise<Wal> {
  const [row] = await (admin as postgres.Sql)<{ bytes: string; fpi: string; syncs: string }[]>`
    select wal_bytes::text as bytes, wal_fpi::text as fpi, wal_sync::text as syncs from pg_stat_wal`;
  return { bytes: Number(row.bytes), fpi: Number(row.fpi), syncs: Number(row.syncs) };
}

/** A round's request-log rows and WAL per request, and its WAL flushes per second (PATCH commits wait for them). */
function logAndWalText(round: Round): string {
  const n = Math.max(1, round.result.requests.total);
  const backend =
    round.logBackendCpuMs !== null && round.logRows > 0
      ? ` (its backend ${((round.logBackendCpuMs * 1000) / round.logRows).toFixed(1)} µs CPU/row)`
      : '';
  return `log rows ${(round.logRows / n).toFixed(2)}/req${backend}, WAL ${(round.wal.bytes / n / 1024).toFixed(2)} kB/req (${(round.wal.fpi / n).toFixed(3)} page images/req), ${fmt(round.wal.syncs / round.seconds)} flushes/s`;
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

// ---------------------------------------------------------------------------------------------
// Report

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (n: number) => `${(n * 100).toFixed(0)} %`;
const pct1 = (n: number) => `${(n * 100).toFixed(1)} %`;
const perReq = (ms: number | null, r: Result) => (ms === null || !r.requests.total ? 'n/a' : (ms / r.requests.total).toFixed(2));
const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

type Summary = {
  rps: number;
  minRps: number;
  maxRps: number;
  p50: number;
  p99: number;
  worstP99: number;
  requests: number;
  non2xx: number;
  serverCpu: number | null;
  pgCpu: number;
  otherCores: number;
  eldP99: number | null;
  eldMax: number | null;
  gcCount: number | null;
  gcMajor: number | null;
  gcMsPerSecond: number | null;
  gcMaxMs: number | null;
};

function summarise(c: Case): Summary {
  const requests = c.rounds.reduce((s, r) => s + r.result.requests.total, 0);
  const seconds = c.rounds.reduce((s, r) => s + r.seconds, 0);
  const rates = c.rounds.map((r) => r.result.requests.total / r.seconds);
  const serverMs = c.rounds.every((r) => r.serverCpuMs !== null) ? c.rounds.reduce((s, r) => s + (r.serverCpuMs ?? 0), 0) : null;
  const probes = c.rounds.every((r) => r.probe) ? c.rounds.map((r) => r.probe as Probe) : null;
  return {
    rps: requests / seconds,
    minRps: Math.min(...rates),
    maxRps: Math.max(...rates),
    p50: median(c.rounds.map((r) => r.result.latency.p50)),
    p99: median(c.rounds.map((r) => r.result.latency.p99)),
    worstP99: Math.max(...c.rounds.map((r) => r.result.latency.p99)),
    requests,
    non2xx: c.rounds.reduce((s, r) => s + r.result.non2xx, 0),
    serverCpu: serverMs === null ? null : serverMs / requests,
    pgCpu: c.rounds.reduce((s, r) => s + r.pgCpuMs, 0) / requests,
    otherCores: c.rounds.reduce((s, r) => s + r.otherCores * r.seconds, 0) / seconds,
    eldP99: probes ? median(probes.map((p) => p.eldP99)) : null,
    eldMax: probes ? Math.max(...probes.map((p) => p.eldMax)) : null,
    gcCount: probes ? probes.reduce((n, p) => n + p.gcCount, 0) : null,
    gcMajor: probes ? probes.reduce((n, p) => n + p.gcMajor, 0) : null,
    gcMsPerSecond: probes ? probes.reduce((n, p) => n + p.gcMs, 0) / seconds : null,
    gcMaxMs: probes ? Math.max(...probes.map((p) => p.gcMaxMs)) : null,
  };
}

/** The log's cost in CPU (server + PostgreSQL per request), steadier than throughput on a busy machine. */
function logCpu(d: Summary, g: Summary): string {
  if (d.serverCpu === null || g.serverCpu === null) return 'CPU per request not measured';
  const on = d.serverCpu + d.pgCpu;
  const off = g.serverCpu + g.pgCpu;
  return `server + PostgreSQL CPU ${on.toFixed(3)} ms/req with it, ${off.toFixed(3)} without (${on >= off ? '+' : ''}${(((on - off) / off) * 100).toFixed(1)} %)`;
}

const ms = (n: number | null, digits = 2) => (n === null ? 'n/a' : n.toFixed(digits));

/** The table of the cases run, one row each in the order of ALL_KEYS. */
function renderTable(cases: Case[]): string[] {
  const row = (c: Case) => {
    const x = summarise(c);
    return `| (${c.key}) ${LABELS[c.key]} | **${fmt(x.rps)}** | ${fmt(x.minRps)}–${fmt(x.maxRps)} | ${x.p50} | ${x.p99} | ${x.worstP99} | ${x.non2xx} | ${fmt(x.requests)} | ${ms(x.serverCpu)} | ${ms(x.pgCpu)} | ${ms(x.eldP99, 1)} / ${ms(x.eldMax, 0)} | ${x.gcCount ?? 'n/a'} (${x.gcMajor ?? 'n/a'} major) | ${ms(x.gcMsPerSecond, 1)} / ${ms(x.gcMaxMs, 1)} | ${x.otherCores.toFixed(2)} |`;
  };
  return [
    '| case | req/s | rounds | p50 ms | p99 ms | worst p99 | non-2xx | requests | server CPU ms/req | PostgreSQL CPU ms/req | event-loop delay p99 / max ms | GC pauses | GC ms per s / longest ms | other load (cores) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...[...cases].sort((x, y) => ALL_KEYS.indexOf(x.key) - ALL_KEYS.indexOf(y.key)).map(row),
  ];
}

async function renderReport(cases: Case[], logPairs: LogPairs | null): Promise<string> {
  const s = Object.fromEntries(cases.map((c) => [c.key, summarise(c)])) as Record<Key, Summary>;
  const cpuModel = (fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m)?.[1] ?? os.cpus()[0]?.model ?? '?').trim();
  const [{ version: pgVersion }] = await (admin as postgres.Sql)`select version()`;
  const ratio = (k: Key) => s[k].rps / s.a.rps;
  const met = ratio('d') >= TARGET_RATIO_A && s.d.p99 < TARGET_P99_MS;
  const maxOther = Math.max(...ALL_KEYS.map((k) => s[k].otherCores));
  const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

  return [
    MARK_START,
    '## bench:api: PATCH /api/v1/chats/{chat_id}: ceiling, framework floor, both entries, both pipelines',
    '',
    `Run ${new Date().toISOString()} with \`npm run bench:api\` (\`tsx bench/api.ts\`): autocannon 8, ${CONNECTIONS} connections, all on 127.0.0.1; each case warmed up ${WARMUP} s, then measured ${ROUNDS} × ${ROUND_SECONDS} s in rounds alternating (a) to (j), each round starting one case later and preceded by an untimed VACUUM. A fresh PostgreSQL database (migrated; 1 tenant; ${fmt(CHATS)} chats held by the VA in its team, 3 messages each; requests spread over them) is dropped afterwards. Servers: \`DELIVERY_ENGINE=off LOG_LEVEL=warn\`, a rate limit too high to trip, \`DATABASE_POOL_SIZE=${POOL_SIZE}\`${process.env.DATABASE_POOL_SIZE ? '' : ' (the default)'}, the baseline's pool the same size; no extra node flags; otherwise the defaults (the bot request log records failures and the successful calls about half the chats, limits counted in PostgreSQL, a checked token remembered ${TOKEN_CACHE_SECONDS} s). The bare server of (a) and (j) follows the same token policy (a checked token remembered ${TOKEN_CACHE_SECONDS} s, its expiry checked on every use), and (j) gives the same answer body as (d) (checked before the load, timestamps aside).`,
    '',
    `Machine: ${os.cpus().length} CPUs (\`nproc\`), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${cpuModel}; Node ${process.version}; ${String(pgVersion).split(' on ')[0]} on the same machine, over TCP. The servers, PostgreSQL and autocannon share the cores. Load average at the end of the run: ${load}.`,
    '',
    ...renderTable(cases),
    '',
    "req/s over all rounds, with the slowest and fastest round; p50, p99 and event-loop delay p99 the median of the rounds'; CPU per request from /proc (server: the one server process; PostgreSQL: the backends on the benchmark database and the server's background processes); event-loop delay and GC pauses from the server's own perf_hooks (bench/probe.mjs), GC summed over the rounds; (b) and (c) share one server; other load: busy CPU of the machine not used by these nor autocannon.",
    '',
    `- (c)/(a) = **${pct(ratio('c'))}**, (d)/(a) = **${pct(ratio('d'))}**; (c)/(b) = ${pct(s.c.rps / s.b.rps)}, (d)/(b) = ${pct(s.d.rps / s.b.rps)}.`,
    `- Target, (d) ≥ ${pct(TARGET_RATIO_A)} of (a) with p99 < ${TARGET_P99_MS} ms: **${met ? 'met' : 'not met'}**: ${pct(ratio('d'))}, p99 ${s.d.p99} ms (worst round ${s.d.worstP99} ms).`,
    `- The contract's answer on the bare server: (j)/(a) = **${pct(ratio('j'))}** (${ms(s.j.serverCpu)} + ${ms(s.j.pgCpu)} ms server + PostgreSQL CPU per request against (a)'s ${ms(s.a.serverCpu)} + ${ms(s.a.pgCpu)}); what our pipeline adds to that floor: (d)/(j) = **${pct(s.d.rps / s.j.rps)}** (${ms(s.d.serverCpu)} + ${ms(s.d.pgCpu)}). Same token policy, lookup, UPDATE and answer body on both sides; what (j) still does not do, and (d) does: rate limits (counted in PostgreSQL), the bot request log, schema validation of the request, trace IDs, metrics and the error envelope's mapping.`,
    `- Pipelines on the same server: our pipeline (f) ${fmt(s.f.rps)} req/s at ${ms(s.f.serverCpu)} ms CPU/req, ts-rest's own handler (e) ${fmt(s.e.rps)} req/s at ${ms(s.e.serverCpu)} ms CPU/req: (f)/(e) = **${pct(s.f.rps / s.e.rps)}**.`,
    `- What the bot request log costs (failures and the successes about half the chats recorded, the default; budget: at least 95 % of the throughput with the log off): in the rounds above, (d)/(g) = ${pct(s.d.rps / s.g.rps)}, p99 ${s.d.p99} ms with it, ${s.g.p99} ms without, ${logCpu(s.d, s.g)}; measured in adjacent pairs of rounds, ${logPairs ? describeLogPairs(logPairs) : 'not run'}.`,
    `- Recording every successful call instead (BOT_REQUEST_LOG_SAMPLE_RATE=1): (i)/(g) = **${pct(s.i.rps / s.g.rps)}**, p99 ${s.i.p99} ms, ${logCpu(s.i, s.g)}.`,
    `- What limits shared between instances cost (counted in PostgreSQL, the default there): (d)/(h) = **${pct(s.d.rps / s.h.rps)}** of the throughput with limits in memory; p99 ${s.d.p99} ms shared, ${s.h.p99} ms in memory.`,
    ...(maxOther > 0.25
      ? [
          `- Other processes kept up to ${maxOther.toFixed(2)} cores busy during this run: absolute figures are low; the ratios, from alternating rounds, hold better.`,
        ]
      : []),
    MARK_END,
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Cleanup: every child stopped, the database dropped, whatever happened.

async function cleanup() {
  await Promise.all([...children].map((c) => stopChild(c, 5000)));
  if (closeSeedDb) await closeSeedDb().catch(() => {});
  if (admin && benchDb && process.env.BENCH_KEEP_DB === '1') {
    log(`kept ${benchDb} (BENCH_KEEP_DB=1): drop it with DROP DATABASE ${benchDb}`);
  } else if (admin && benchDb) {
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
