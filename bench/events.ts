/**
 * npm run bench:events: webhook delivery by the embedded engine on PostgreSQL, against a bare
 * claim-and-POST loop (its ceiling), written to BENCHMARKS.md between `<!-- bench:events:start -->`
 * and `<!-- bench:events:end -->`.
 *
 *   (a) latency: inbound messages POSTed over HTTP to the production server (`npm start` of the
 *       build, its embedded engine delivering) at a steady moderate rate over 100 chats; time from
 *       the start of the HTTP request to the event's arrival at the receiver (p50/p99);
 *   (b) sustained deliveries/s: a backlog over 100 chats drained by the engine, receiver answering at once;
 *   (c) the same with a receiver that takes 200 ms per request;
 *   (e) latency as (a) while another tenant's VA has 300 chats' events at an endpoint that never answers;
 *   (d) ceiling: the same backlog as (b) drained by a bare loop doing the work the engine must do in
 *       the engine's shape (postgres.js, claims of up to 32 with FOR UPDATE SKIP LOCKED, the app's
 *       body and Standard Webhooks signature, node:http keep-alive POSTs, the attempt rows and the
 *       events' state written by one writer in batches of up to 200, as the engine records them),
 *       with no per-chat order, chaining, address check, retries or circuit (see bareLoop);
 *   (d0) the bare loop without signing or attempt rows (claim, POST, mark delivered): not a ceiling,
 *       it skips required work; (d0) vs (d) is what that work costs. (b), (d) and (d0) alternate
 *       over three rounds.
 *   (f) one VA's backlog over BENCH_BACKLOG_CHATS chats (2,000) × 10 events, drained whole by the
 *       engine, by graphile-worker 0.18 doing the same job (bench/events-backlog.ts; one run per
 *       concurrency in BENCH_PEER_CONCURRENCY, default `24,64`) and by the bare loop of (d), in
 *       BENCH_BACKLOG_ROUNDS (3) rounds whose order alternates; each drain's arrivals are checked
 *       (all, once, each chat in order, signatures) and, for the engine and the peer, the database
 *       (delivered, one attempt row each);
 *   (g) four VAs (tenants) with a quarter of that backlog each, written at the same times, drained at
 *       once by the engine: each VA's share of the deliveries while all still had events waiting.
 *
 * The receiver is a node:http server in a child process on 127.0.0.1 (it stamps arrivals and reports
 * them over IPC), so it does not share the engine's event loop. (a) and (e) need the production
 * build (`npm run build`; scripts/start.mjs builds it when missing or stale). Creates its own database beside
 * DATABASE_URL's (default postgres://postgres@127.0.0.1:5432/postgres) and drops it at the end.
 * Knobs: BENCH_WRITE=0 (don't touch BENCHMARKS.md), BENCH_LATENCY_RATE (msg/s, default 50),
 * BENCH_LATENCY_SECONDS (default 20), BENCH_WINDOW_SECONDS (throughput window per round, default 6),
 * BENCH_PARTS=backlog ((f) and (g) only, no server build, printed and not written),
 * BENCH_PARTS=throughput ((b), (c), (d), (d0) only, no server build, printed and not written),
 * BENCH_BACKLOG_CASES (which drains of (f) and (g) run, of `ours,peer,bare,share`; all by default,
 * and with fewer the report shows rates and checks only), BENCH_PEER_OPTIONS (JSON of the peer's
 * PeerOptions other than its concurrency, e.g. `{"localQueueSize":-1}`, to measure its tuning).
 * graphile-worker declares Node >= 22.18 but runs on the Node 20 the project uses (checked with 0.18.0).
 */

import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { readBody } from '@/test/support/api-client';
import { nowMs } from '@/test/support/clock';
import { startProductionServer, stopProductionServer, waitForServer } from '@/test/support/production-server';
import { quantile } from '@/test/support/stats';
import type { Tenant } from '@/test/support/tenant';
import {
  type Arrival,
  type ArrivalCheck,
  checkArrivals,
  checkDatabase,
  cloneChats,
  describePeerStats,
  enqueuePeerJobs,
  insertBacklogs,
  makeVerifier,
  PEER_POOL_MAX,
  type PeerStats,
  startPeer,
} from './events-backlog';
import { writeSection } from './report';
import { freePort, processCpuMs } from './servers';

// ---------------------------------------------------------------------------------------------
// The receiver (child process)

function runReceiver() {
  let delayMs = 0;
  let buffer: Arrival[] = [];
  const verifier = makeVerifier();
  const server = http.createServer((req, res) => {
    void readBody(req).then((raw) => {
      const at = nowMs();
      const key = /"text":"(k-\d+)"/.exec(raw)?.[1] ?? null;
      const chatId = /"chat_id":"([^"]+)"/.exec(raw)?.[1] ?? null;
      const ord = /"text":"backlog message (\d+)"/.exec(raw)?.[1];
      const p = req.url ?? '';
      const sig = verifier.check(p, raw, req.headers);
      buffer.push([String(req.headers['webhook-id'] ?? ''), key, at, p, sig, chatId, ord === undefined ? null : Number(ord)]);
      const reply = () => res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok');
      if (delayMs) setTimeout(reply, delayMs);
      else reply();
    });
  });
  server.keepAliveTimeout = 30_000;
  const flush = setInterval(() => {
    if (buffer.length) {
      process.send!({ arrivals: buffer });
      buffer = [];
    }
  }, 20);
  process.on('message', (m: { delayMs?: number; secrets?: Record<string, string> }) => {
    if (typeof m.delayMs === 'number') delayMs = m.delayMs;
    if (m.secrets) verifier.set(m.secrets);
  });
  process.on('disconnect', () => {
    clearInterval(flush);
    server.close();
    process.exit(0);
  });
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
}

// ---------------------------------------------------------------------------------------------
// The benchmark

const ROOT = process.cwd();
const CHATS = 100;
const LATENCY_RATE = Number(process.env.BENCH_LATENCY_RATE ?? 50);
const LATENCY_SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 20);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_SECONDS ?? 6) * 1000;
const ROUNDS = 3;
const WARMUP_MS = 1_000;
const CEILING_IN_FLIGHT = 128; // the engine's default DELIVERY_MAX_IN_FLIGHT_PER_VA: what one VA may have in flight
const CEILING_BATCH = 32; // the engine's default claim size
const POOL_SIZE = 10; // the app's default DATABASE_POOL_SIZE; the ceiling gets the same
const PER_VA = 128; // the engine's default DELIVERY_MAX_IN_FLIGHT_PER_VA
const CONCURRENCY = 256; // the engine's default DELIVERY_CONCURRENCY
const HANGING_CHATS = 300; // (e): the neighbour's backlog at an endpoint that never answers
const DELIVERY_TIMEOUT_S = 5; // the default DELIVERY_TIMEOUT_MS
const DEADLINE_MS = 1_500_000;
// The backlog cases: one VA's backlog over many chats, and several VAs' at once.
const BACKLOG_CHATS = Number(process.env.BENCH_BACKLOG_CHATS ?? 2_000);
const BACKLOG_PER_CHAT = 10;
const BACKLOG_ROUNDS = Number(process.env.BENCH_BACKLOG_ROUNDS ?? 3);
const PEER_CONCURRENCY = (process.env.BENCH_PEER_CONCURRENCY ?? '24,64').split(',').map(Number);
const PEER_OPTIONS = JSON.parse(process.env.BENCH_PEER_OPTIONS ?? '{}') as Partial<import('./events-backlog').PeerOptions>;
/**
 * Which drains of (f) and (g) run: `ours`, `peer`, `bare`, `share` ((g)) by default; `transport` (the bare
 * loop without signing or attempt rows) on request. For tuning one of them.
 */
const BACKLOG_CASES = new Set((process.env.BENCH_BACKLOG_CASES ?? 'ours,peer,bare,share').split(',').map((c) => c.trim()));
const SHARE_VAS = 4;
const SHARE_CHATS = BACKLOG_CHATS / SHARE_VAS;
const TARGET_PEER_RATIO = 2;
/** Longest wait for one drain of (f) or (g). */
const DRAIN_TIMEOUT_MS = Number(process.env.BENCH_DRAIN_TIMEOUT_SECONDS ?? 300) * 1000;
const TARGET_BARE_RATIO = 0.9;
const TARGET_SHARE_SPREAD = 0.2;
const TARGET_AFTER_P99_MS = 10;
/** `backlog`: the backlog cases alone (no server build, nothing written). */
const ONLY_BACKLOG = process.env.BENCH_PARTS === 'backlog';
/** `throughput`: (b), (c), (d) and (d0) alone (no server build, nothing written). */
const ONLY_THROUGHPUT = process.env.BENCH_PARTS === 'throughput';
const TARGET_RATIO = 0.5;
const TARGET_P50_MS = 20;
const TARGET_P99_MS = 100;
const MARK_START = '<!-- bench:events:start -->';
const MARK_END = '<!-- bench:events:end -->';

const baseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const started = Date.now();
const loadAtStart = os.loadavg()[0];
const log = (msg: string) => console.log(`[bench:events ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${msg}`);

let receiver: ChildProcess | undefined;
let adminSql: import('postgres').Sql | undefined;
let benchDb: string | undefined;
const closers: (() => Promise<unknown>)[] = [];

async function cleanup() {
  for (const close of closers.splice(0).reverse()) await close().catch((err) => console.error(err));
  receiver?.disconnect();
  if (adminSql && benchDb) await adminSql.unsafe(`DROP DATABASE IF EXISTS ${benchDb} WITH (FORCE)`).catch(() => {});
  await adminSql?.end();
  adminSql = undefined;
}

type Throughput = { label: string; delivered: number; perSecond: number; windowMs: number; cpuMsPerDelivery: number; drained: boolean };

/** What the cases run against: the bench database, one tenant whose VA has CHATS chats, and the receiver. */
type Setup = {
  db: import('@/db/client').Db;
  sql: import('postgres').Sql;
  dbUrl: URL;
  t: Awaited<ReturnType<typeof import('@/test/support/tenant').createTenant>>;
  chatIds: string[];
  /** Every arrival the receiver reported (cases empty it before they count). */
  arrivals: Arrival[];
  port: number;
  webhookUrl: string;
  setDelay: (delayMs: number) => void;
  app: {
    startEmbeddedEngine: typeof import('@/lib/delivery/embedded-engine').startEmbeddedEngine;
    stopEmbeddedEngine: typeof import('@/lib/delivery/embedded-engine').stopEmbeddedEngine;
    createTenant: typeof import('@/test/support/tenant').createTenant;
    botApi: typeof import('@/test/support/api-client').botApi;
  };
};

/** What the cases measure, for the report. */
type Results = {
  latency: Latency;
  withNeighbour: Latency;
  engineFastRounds: Throughput[];
  engineSlow: Throughput;
  ceilingRounds: Throughput[];
  transportRounds: Throughput[];
  rounds: BacklogRound[];
  share: BacklogResults['share'];
};

/** A case: whether this run includes it, and what it measures. */
type Case = { name: string; runs: () => boolean; run: (s: Setup) => Promise<Partial<Results>> };

/** The cases, in the order they run. */
const CASES: Case[] = [
  { name: '(a) latency, and (e) beside a hanging neighbour', runs: () => !ONLY_BACKLOG && !ONLY_THROUGHPUT, run: latencyCases },
  { name: '(b), (c), (d), (d0) throughput: one backlog drained four ways', runs: () => !ONLY_BACKLOG, run: throughputCases },
  { name: "(f) one VA's backlog: ours, the peer, the bare loop", runs: () => !ONLY_THROUGHPUT, run: backlogRounds },
  { name: '(g) several VAs at once', runs: () => !ONLY_THROUGHPUT && BACKLOG_CASES.has('share'), run: shareCase },
];

async function main() {
  const dbHost = new URL(baseUrl).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(dbHost)) {
    throw new Error(`bench:events runs against a local PostgreSQL only (DATABASE_URL host is ${dbHost})`);
  }
  const deadline = setTimeout(() => {
    console.error(`bench:events: over ${DEADLINE_MS / 1000} s, giving up`);
    void cleanup().then(() => process.exit(1));
  }, DEADLINE_MS);
  deadline.unref();

  const s = await setUp();
  const r: Partial<Results> = {};
  for (const c of CASES) if (c.runs()) Object.assign(r, await c.run(s));
  const backlog: BacklogResults = { rounds: r.rounds ?? [], share: r.share ?? null };

  // Report.
  if (ONLY_BACKLOG) {
    console.log(`\n${renderBacklog(backlog)}`);
    return;
  }
  if (ONLY_THROUGHPUT) {
    console.log(`\n${renderThroughput(r as Results)}`);
    return;
  }
  const report = await renderReport({ ...(r as Results), backlog });
  console.log(`\n${report}`);
  if (process.env.BENCH_WRITE !== '0') {
    writeSection(path.join(ROOT, 'BENCHMARKS.md'), report, { start: MARK_START, end: MARK_END });
    log('wrote the bench:events section of BENCHMARKS.md');
  }
}

/** The settings, a fresh database, the receiver, and a tenant whose VA holds CHATS chats. */
async function setUp(): Promise<Setup> {
  // The app reads its settings once: set them before anything calls env().
  Object.assign(process.env, {
    WEBHOOK_ALLOW_PRIVATE: 'true',
    DELIVERY_ENGINE: 'off',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    DATABASE_POOL_SIZE: String(POOL_SIZE),
  });
  delete process.env.DELIVERY_RETRY_DELAYS_MS;
  const { default: postgres } = await import('postgres');
  const { openPostgres, setHandle } = await import('@/db/client');
  const { startEmbeddedEngine, stopEmbeddedEngine } = await import('@/lib/delivery/embedded-engine');
  const { createTenant } = await import('@/test/support/tenant');
  const { botApi } = await import('@/test/support/api-client');

  // 1. A fresh database and the receiver.
  adminSql = postgres(baseUrl, { max: 1, onnotice: () => {} });
  benchDb = `va_bench_events_${process.pid}_${randomBytes(3).toString('hex')}`;
  await adminSql.unsafe(`CREATE DATABASE ${benchDb}`);
  const dbUrl = new URL(baseUrl);
  dbUrl.pathname = `/${benchDb}`;
  const handle = await openPostgres(dbUrl.toString(), { migrate: true });
  closers.push(handle.close);
  setHandle(handle);
  const db = handle.db;
  const sql = postgres(dbUrl.toString(), { max: POOL_SIZE, onnotice: () => {} });
  closers.push(() => sql.end({ timeout: 5 }));

  const arrivals: Arrival[] = [];
  receiver = fork(import.meta.filename, ['--receiver'], { stdio: 'inherit' });
  const port = await new Promise<number>((resolve) =>
    receiver!.on('message', (m: { port?: number; arrivals?: Arrival[] }) => {
      if (m.port) resolve(m.port);
      if (m.arrivals) arrivals.push(...m.arrivals);
    }),
  );
  const setDelay = (delayMs: number) => receiver!.send({ delayMs });
  const webhookUrl = `http://127.0.0.1:${port}/hook`;

  const t = await createTenant(db, { webhookUrl });
  const chatIds = await openSmsChats(t, CHATS, '+1555');
  log(`database ${benchDb}: migrated, 1 tenant, ${CHATS} chats assigned to its VA; receiver on 127.0.0.1:${port}`);

  const [{ signing_secret: secret }] = await sql<{ signing_secret: string }[]>`
    select signing_secret from virtual_agents where user_id = ${t.bot.user.id}`;
  receiver.send({ secrets: { '/hook': secret } });
  return {
    db,
    sql,
    dbUrl,
    t,
    chatIds,
    arrivals,
    port,
    webhookUrl,
    setDelay,
    app: { startEmbeddedEngine, stopEmbeddedEngine, createTenant, botApi },
  };
}

/** (a) Latency at a steady rate through the production server; (e) the same beside a neighbour whose endpoint hangs. */
async function latencyCases({ db, dbUrl, t, chatIds, arrivals, app: { createTenant } }: Setup): Promise<Partial<Results>> {
  // 2. (a) Latency at a steady rate through the production server: HTTP in, its engine out.
  const server = await startServer(dbUrl.toString());
  const httpApi = serverApi(server.base);
  await waitFor('the chat.assigned events', () => arrivals.length >= CHATS, 30_000);
  // A fresh server loads each route's code on its first call and has not been optimised yet: five
  // seconds of the same traffic first, not measured.
  await measureLatency(httpApi, t.token, chatIds, arrivals, 5);
  arrivals.length = 0;
  const latency = await measureLatency(httpApi, t.token, chatIds, arrivals);
  log(
    `(a) latency: p50 ${latency.p50.toFixed(1)} ms, p99 ${latency.p99.toFixed(1)} ms over ${latency.samples} messages at ${LATENCY_RATE}/s`,
  );

  // (e) The same latency while another tenant's VA has a backlog at an endpoint that never answers.
  const hanging = http.createServer(() => {});
  const hangingConnections = new Set<import('node:net').Socket>();
  hanging.on('connection', (socket) => {
    hangingConnections.add(socket);
    socket.on('close', () => hangingConnections.delete(socket));
  });
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    hanging.closeAllConnections();
    await new Promise<void>((resolve) => hanging.close(() => resolve()));
  });
  const neighbour = await createTenant(db, { webhookUrl: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook` });
  await openSmsChats(neighbour, HANGING_CHATS, '+1666');
  arrivals.length = 0;
  await waitFor('calls hanging at the neighbour', () => hangingConnections.size > 0, 30_000);
  const withNeighbour = await measureLatency(httpApi, t.token, chatIds, arrivals);
  const neighbourCalls = hangingConnections.size;
  await server.stop();
  hanging.closeAllConnections();
  log(
    `(e) latency with a hanging neighbour: p50 ${withNeighbour.p50.toFixed(1)} ms, p99 ${withNeighbour.p99.toFixed(1)} ms (${neighbourCalls} calls hanging at the end)`,
  );

  return { latency, withNeighbour };
}

/** (b), (c), (d): the same backlog shape drained by the engine (fast and slow receiver) and by the bare loop. */
async function throughputCases({ db, sql, t, chatIds, arrivals, webhookUrl, setDelay, app }: Setup): Promise<Partial<Results>> {
  const { startEmbeddedEngine, stopEmbeddedEngine } = app;
  const backlog = async (perChat: number) => {
    await sql`truncate delivery_attempts, events`;
    const total = await insertBacklog(sql, { accountId: t.account.id, vaId: t.bot.user.id, chatIds, perChat });
    await sql`analyze events`;
    arrivals.length = 0;
    return total;
  };

  // The machine may be shared: (b) and (d) alternate over ROUNDS rounds, so a burst of other work
  // does not land on one side only; the report gives the median of each and of the round ratios.
  const fastBacklog = 400;
  const engineFastRounds: Throughput[] = [];
  const ceilingRounds: Throughput[] = [];
  const transportRounds: Throughput[] = [];
  const sides = [
    async (round: number) => {
      const total = await backlog(fastBacklog);
      const engine = await measureDrain(`(b) embedded engine, round ${round}`, total, arrivals, async () => {
        await startEmbeddedEngine({ db });
        return stopEmbeddedEngine;
      });
      await checkAllDelivered(sql, engine);
      engineFastRounds.push(engine);
    },
    async (round: number) => {
      const total = await backlog(fastBacklog);
      const ceiling = await measureDrain(`(d) ceiling, round ${round}`, total, arrivals, async () => bareLoop(sql, 'full'));
      await checkAttempts(sql, ceiling);
      ceilingRounds.push(ceiling);
    },
    async (round: number) => {
      const total = await backlog(fastBacklog);
      transportRounds.push(
        await measureDrain(`(d0) transport only, round ${round}`, total, arrivals, async () => bareLoop(sql, 'transport', webhookUrl)),
      );
    },
  ];
  // The order alternates too (b d d0, d0 d b, ...): no side always runs first after a fresh backlog.
  for (let round = 1; round <= ROUNDS; round++) for (const side of round % 2 ? sides : [...sides].reverse()) await side(round);

  setDelay(200);
  const slowTotal = await backlog(60);
  const engineSlow = await measureDrain('(c) embedded engine, receiver takes 200 ms', slowTotal, arrivals, async () => {
    await startEmbeddedEngine({ db });
    return stopEmbeddedEngine;
  });
  setDelay(0);
  return { engineFastRounds, engineSlow, ceilingRounds, transportRounds };
}

/**
 * (f) One VA's backlog of BACKLOG_CHATS chats × 10 drained by the engine (defaults), by
 * graphile-worker doing the same job (each concurrency of PEER_CONCURRENCY) and by the bare loop,
 * in rounds whose order alternates.
 */
async function backlogRounds(s: Setup): Promise<Partial<Results>> {
  const { db, sql, dbUrl, t, chatIds, arrivals, port } = s;
  const { startEmbeddedEngine, stopEmbeddedEngine } = s.app;
  const clones = await cloneChats(sql, { templateChatId: chatIds[0], n: BACKLOG_CHATS, prefix: 'bench-backlog-' });
  const single = [{ accountId: t.account.id, vaId: t.bot.user.id, chatIds: clones }];
  const allCases: { name: string; kind: 'ours' | 'peer' | 'bare' | 'transport'; concurrency?: number; perVa?: number }[] = [
    { name: 'ours', kind: 'ours' },
    ...PEER_CONCURRENCY.map((c) => ({ name: `graphile-worker c${c}`, kind: 'peer' as const, concurrency: c })),
    { name: 'bare loop', kind: 'bare' },
    { name: 'bare transport only', kind: 'transport' },
  ];
  const cases = allCases.filter((c) => BACKLOG_CASES.has(c.kind));
  const rounds: BacklogRound[] = [];
  for (let round = 1; round <= BACKLOG_ROUNDS; round++) {
    const order = round % 2 ? cases : [...cases].reverse();
    const results: Record<string, Drain> = {};
    for (const c of order) {
      const total = await resetBacklogs(s, single);
      if (c.kind === 'peer') await enqueuePeerJobs(dbUrl.toString(), sql);
      const label = `(f) ${c.name}, round ${round}`;
      let claims: number | undefined;
      let overlaps: number | undefined;
      let peerStats: PeerStats | undefined;
      const drain = await measureFullDrain(label, total, arrivals, async () => {
        if (c.kind === 'ours') {
          const engine = await startEmbeddedEngine({ db, perVa: c.perVa });
          return async () => {
            claims = engine.stats.claims;
            await stopEmbeddedEngine();
          };
        }
        if (c.kind === 'peer') {
          const peer = await startPeer(dbUrl.toString(), { ...PEER_OPTIONS, concurrency: c.concurrency ?? 24 });
          return async () => {
            await peer.stop();
            overlaps = peer.overlaps;
            peerStats = peer.stats;
          };
        }
        if (c.kind === 'bare') return bareLoop(sql, 'full');
        return bareLoop(sql, 'transport', `http://127.0.0.1:${port}/bare`);
      });
      drain.check = checkArrivals(arrivals, total);
      if (c.kind !== 'transport') drain.db = await checkDatabase(sql);
      drain.claims = claims;
      drain.overlaps = overlaps;
      drain.peerStats = peerStats;
      log(`${label}: ${describeCheck(drain)}`);
      results[c.name] = drain;
    }
    rounds.push({ round, results });
  }

  return { rounds };
}

/** Empties the events and writes each VA's backlog; answers how many events there are. */
async function resetBacklogs(s: Setup, backlogs: { accountId: number; vaId: number; chatIds: string[] }[]) {
  await s.sql`truncate delivery_attempts, events`;
  const total = await insertBacklogs(s.sql, backlogs, BACKLOG_PER_CHAT);
  await s.sql`analyze events`;
  s.arrivals.length = 0;
  return total;
}

/**
 * (g) SHARE_VAS VAs (tenants) with a backlog each at once, drained by the engine: each VA's share of
 * the deliveries while all still had events waiting.
 */
async function shareCase(s: Setup): Promise<Partial<Results>> {
  const { db, sql, arrivals, port } = s;
  const { startEmbeddedEngine, stopEmbeddedEngine, createTenant, botApi } = s.app;
  // (g) Several VAs at once, each its own tenant and address.
  const vas: { accountId: number; vaId: number; chatIds: string[]; path: string }[] = [];
  const secrets: Record<string, string> = {};
  for (let i = 0; i < SHARE_VAS; i++) {
    const p = `/va${i + 1}`;
    const tenant = await createTenant(db, { webhookUrl: `http://127.0.0.1:${port}${p}` });
    const [row] = await sql<{ signing_secret: string }[]>`
      select signing_secret from virtual_agents where user_id = ${tenant.bot.user.id}`;
    secrets[p] = row.signing_secret;
    const created = await botApi('POST', '/chats', {
      token: tenant.token,
      body: {
        channel: 'sms',
        asset_id: tenant.assets.sms.id,
        customer: { destination_id: `+1777${i}000000` },
        assignee: tenant.bot.user.loginId,
      },
    });
    if (created.status !== 201) throw new Error(`POST /chats: ${created.status} ${JSON.stringify(created.body)}`);
    const ids = await cloneChats(sql, { templateChatId: created.body.response.chat_id, n: SHARE_CHATS, prefix: `bench-share-${i + 1}-` });
    vas.push({ accountId: tenant.account.id, vaId: tenant.bot.user.id, chatIds: ids, path: p });
  }
  receiver!.send({ secrets });
  const total = await resetBacklogs(s, vas);
  let shareClaims = 0;
  const shareDrain = await measureFullDrain(`(g) ${SHARE_VAS} VAs at once`, total, arrivals, async () => {
    const engine = await startEmbeddedEngine({ db });
    return async () => {
      shareClaims = engine.stats.claims;
      await stopEmbeddedEngine();
    };
  });
  shareDrain.check = checkArrivals(arrivals, total);
  shareDrain.db = await checkDatabase(sql);
  shareDrain.claims = shareClaims;
  // Shares while every VA still had events waiting: up to the first VA's last arrival.
  const lastOf = new Map<string, number>();
  for (const a of arrivals) lastOf.set(a[3], Math.max(lastOf.get(a[3]) ?? 0, a[2]));
  const until = Math.min(...vas.map((v) => lastOf.get(v.path) ?? 0));
  const counts = vas.map((v) => arrivals.filter((a) => a[3] === v.path && a[2] <= until).length);
  const sum = counts.reduce((x, y) => x + y, 0);
  const shares = counts.map((n) => n / sum);
  log(`(g) shares ${shares.map((x) => `${(x * 100).toFixed(1)} %`).join(' / ')}; ${describeCheck(shareDrain)}`);
  return { share: { drain: shareDrain, shares, window: until - shareDrain.startedAt } };
}

type Drain = Throughput & {
  startedAt: number;
  /** CPU of the database's backends for the bench database, per delivery. */
  pgCpuMsPerDelivery: number;
  /** Longest silence between two arrivals, ms. */
  maxGapMs: number;
  check?: ArrivalCheck;
  db?: { notDelivered: number; notOneAttempt: number };
  claims?: number;
  /** The peer: times it ran two jobs of one chat at once. */
  overlaps?: number;
  /** The peer: task errors (retried out of order), empty fetches, batch fetches, task time. */
  peerStats?: PeerStats;
};
type BacklogRound = { round: number; results: Record<string, Drain> };
type BacklogResults = { rounds: BacklogRound[]; share: { drain: Drain; shares: number[]; window: number } | null };

function describeCheck(d: Drain): string {
  const c = d.check;
  const parts = c
    ? [
        `${c.arrived}/${c.expected} arrived`,
        `${c.duplicates} duplicates`,
        `${c.reordered} out of order`,
        `${c.badSignatures} bad signatures`,
        `${c.unsigned} unsigned`,
      ]
    : [];
  if (d.db) parts.push(`${d.db.notDelivered} not delivered`, `${d.db.notOneAttempt} without exactly one attempt`);
  if (d.claims !== undefined) parts.push(`${d.claims} claims`);
  if (d.overlaps !== undefined) parts.push(`${d.overlaps} jobs started while another of their chat ran`);
  if (d.peerStats !== undefined) parts.push(describePeerStats(d.peerStats));
  return `${parts.join(', ')}; longest silence ${Math.round(d.maxGapMs)} ms`;
}

/** Starts a drain and waits for the whole backlog to arrive; the rate is over the whole drain. */
async function measureFullDrain(
  label: string,
  total: number,
  arrivals: Arrival[],
  start: () => Promise<() => Promise<void>>,
): Promise<Drain> {
  const cpu0 = process.cpuUsage();
  const pg0 = await backendsCpuMs();
  const t0 = nowMs();
  const stop = await start();
  // Every event once (a duplicate does not count), or give up after DRAIN_TIMEOUT_MS and say so.
  const unique = new Set<string>();
  let seen = 0;
  const end = Date.now() + DRAIN_TIMEOUT_MS;
  while (unique.size < total && Date.now() < end) {
    for (; seen < arrivals.length; seen++) unique.add(arrivals[seen][0]);
    if (unique.size < total) await new Promise((r) => setTimeout(r, 10));
  }
  const drained = unique.size >= total;
  if (!drained) log(`${label}: ${unique.size} of ${total} arrived in ${DRAIN_TIMEOUT_MS / 1000} s; stopped there`);
  // A drain that did not finish is rated over the whole wait.
  const last = drained ? arrivals[arrivals.length - 1][2] : nowMs();
  // Before the stop: the peer closes its pool on stopping, and a closed backend's CPU is gone.
  const pg1 = await backendsCpuMs();
  await stop();
  const cpu = process.cpuUsage(cpu0);
  let pgCpuMs = 0;
  for (const [pid, ms] of pg1) pgCpuMs += ms - (pg0.get(pid) ?? 0);
  const times = arrivals.map((a) => a[2]).sort((a, b) => a - b);
  let maxGapMs = times[0] - t0;
  for (let i = 1; i < times.length; i++) maxGapMs = Math.max(maxGapMs, times[i] - times[i - 1]);
  const windowMs = Math.max(1, last - t0);
  const perSecond = (unique.size * 1000) / windowMs;
  const cpuMsPerDelivery = (cpu.user + cpu.system) / 1000 / Math.max(1, arrivals.length);
  const pgCpuMsPerDelivery = pgCpuMs / Math.max(1, arrivals.length);
  log(
    `${label}: ${Math.round(perSecond)} deliveries/s (${unique.size} events in ${(windowMs / 1000).toFixed(1)} s); CPU ms per delivery: bench process ${cpuMsPerDelivery.toFixed(3)}, PostgreSQL ${pgCpuMsPerDelivery.toFixed(3)}`,
  );
  return {
    label,
    delivered: unique.size,
    perSecond,
    windowMs,
    cpuMsPerDelivery,
    pgCpuMsPerDelivery,
    drained,
    startedAt: t0,
    maxGapMs,
  };
}

/**
 * CPU time so far of each PostgreSQL backend serving the bench's database (by pid, from /proc): the
 * database's share of a drain's cost. Empty where /proc cannot be read.
 */
async function backendsCpuMs(): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (!adminSql || !benchDb) return out;
  const rows = await adminSql<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${benchDb}`;
  for (const { pid } of rows) {
    const ms = processCpuMs(pid);
    if (ms !== null) out.set(pid, ms);
  }
  return out;
}

async function waitFor(what: string, check: () => boolean, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

type Latency = {
  samples: number;
  p50: number;
  p99: number;
  max: number;
  afterP50: number;
  afterP99: number;
  postP50: number;
  postP99: number;
};

type Api = (method: string, path: string, opts: { token: string; body: unknown }) => Promise<{ status: number; body: unknown }>;

/** The bot API of a running server over HTTP (fetch keeps connections alive). */
function serverApi(base: string): Api {
  return async (method, apiPath, { token, body }) => {
    const res = await fetch(`${base}/api/v1${apiPath}`, {
      method,
      headers: { access_token: token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
}

/**
 * `npm start` of the production build (scripts/start.mjs) on the bench's database, its embedded
 * engine on, on a free port; resolves when it answers.
 */
async function startServer(databaseUrl: string): Promise<{ base: string; stop: () => Promise<void> }> {
  const server = startProductionServer(
    await freePort(),
    // The server's own default log level (the shared helper's is `warn`).
    { DATABASE_URL: databaseUrl, DELIVERY_ENGINE: 'embedded', LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', NEXT_TELEMETRY_DISABLED: '1' },
    (line) => console.log(line),
    { keepOutput: false },
  );
  const stop = () => stopProductionServer(server);
  closers.push(stop);
  await waitForServer(server, 180_000);
  return { base: server.base, stop };
}

async function measureLatency(
  botApi: Api,
  token: string,
  chatIds: string[],
  arrivals: Arrival[],
  seconds = LATENCY_SECONDS,
): Promise<Latency> {
  const warmup = LATENCY_RATE; // one second's worth, not measured
  const count = warmup + LATENCY_RATE * seconds;
  const sentAt = new Map<string, number>();
  const answeredAt = new Map<string, number>();
  const postMs: number[] = [];
  const posts: Promise<void>[] = [];
  const t0 = nowMs() + 50;
  for (let i = 0; i < count; i++) {
    // Open loop: each message leaves at its scheduled time, whatever happened to the previous one.
    const wait = t0 + (i * 1000) / LATENCY_RATE - nowMs();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const key = `k-${i}`;
    const start = nowMs();
    sentAt.set(key, start);
    posts.push(
      botApi('POST', `/chats/${chatIds[i % chatIds.length]}/messages`, { token, body: { type: 'inbound', text: key } }).then((r) => {
        if (r.status !== 201) throw new Error(`POST message: ${r.status} ${JSON.stringify(r.body)}`);
        const end = nowMs();
        answeredAt.set(key, end);
        if (i >= warmup) postMs.push(end - start);
      }),
    );
  }
  await Promise.all(posts);
  const arrived = () => arrivals.filter((a) => a[1] !== null && sentAt.has(a[1])).length;
  await waitFor('every message event at the receiver', () => arrived() >= count, 30_000);
  const lat: number[] = [];
  const after: number[] = [];
  for (const [, key, at] of arrivals) {
    if (key === null || Number(key.slice(2)) < warmup) continue;
    const start = sentAt.get(key);
    const answered = answeredAt.get(key);
    if (start !== undefined) lat.push(at - start);
    if (answered !== undefined) after.push(at - answered);
  }
  return {
    samples: lat.length,
    p50: quantile(lat, 0.5),
    p99: quantile(lat, 0.99),
    max: Math.max(...lat),
    afterP50: quantile(after, 0.5),
    afterP99: quantile(after, 0.99),
    postP50: quantile(postMs, 0.5),
    postP99: quantile(postMs, 0.99),
  };
}

/**
 * Outbox rows as the app writes them (a message.received body per row, per-chat seq), arriving
 * round-robin over the chats: the oldest pending event of each chat is also among the oldest overall.
 */
async function insertBacklog(
  sql: import('postgres').Sql,
  { accountId, vaId, chatIds, perChat }: { accountId: number; vaId: number; chatIds: string[]; perChat: number },
): Promise<number> {
  await sql`
    with rows as (
      select gen_random_uuid()::text as tid, c.id as chat_id, c.n, g
      from (select id, row_number() over (order by id) as n from chats where id = any(${chatIds})) c, generate_series(1, ${perChat}) g
    )
    insert into events (transaction_id, account_id, chat_id, virtual_agent_id, event_type, seq, body, next_attempt_at)
    select tid, ${accountId}, chat_id, ${vaId}, 'message.received', 1000 + g,
      jsonb_build_object(
        'event_type', 'message.received', 'channel', 'sms', 'chat_id', chat_id, 'asset', '1', 'destination_id', '+15550000000',
        'subject', '', 'transaction_id', tid,
        'payload', jsonb_build_object('messages', jsonb_build_array(jsonb_build_object(
          'transid', gen_random_uuid()::text, 'type', 'text', 'text', 'backlog message ' || g, 'attachments', '[]'::jsonb,
          'timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'interactive_response', null)))),
      now() - ((${perChat} - g) * ${chatIds.length} + n) * interval '1 millisecond'
    from rows`;
  return chatIds.length * perChat;
}

/**
 * Starts a drain, then counts arrivals at the receiver over the measuring window (after a warm-up),
 * or until the backlog is gone; stops the drain and reports the rate.
 */
async function measureDrain(
  label: string,
  total: number,
  arrivals: Arrival[],
  start: () => Promise<() => Promise<void>>,
): Promise<Throughput> {
  const cpu0 = process.cpuUsage();
  const stop = await start();
  const t0 = nowMs();
  await waitFor(`${label}: warm-up`, () => nowMs() - t0 >= WARMUP_MS || arrivals.length >= total, 30_000);
  const n0 = arrivals.length;
  const w0 = nowMs();
  await waitFor(`${label}: window`, () => nowMs() - w0 >= WINDOW_MS || arrivals.length >= total, WINDOW_MS + 30_000);
  const drained = arrivals.length >= total;
  const w1 = drained ? arrivals[arrivals.length - 1][2] : nowMs();
  const n1 = arrivals.length;
  await stop();
  const cpu = process.cpuUsage(cpu0);
  const windowMs = Math.max(1, w1 - w0);
  const perSecond = ((n1 - n0) * 1000) / windowMs;
  const result = {
    label,
    delivered: n1 - n0,
    perSecond,
    windowMs,
    cpuMsPerDelivery: (cpu.user + cpu.system) / 1000 / Math.max(1, arrivals.length),
    drained,
  };
  log(
    `${label}: ${Math.round(perSecond)} deliveries/s (${result.delivered} in ${(windowMs / 1000).toFixed(1)} s${drained ? ', backlog drained' : ''})`,
  );
  return result;
}

/** The ceiling's drain did the engine's writes: one attempt row per event it delivered, none failed. */
async function checkAttempts(sql: import('postgres').Sql, r: Throughput) {
  const [row] = await sql<{ failed: number; wrong: number }[]>`
    select count(*) filter (where e.status = 'failed')::int as failed,
      count(*) filter (where e.status = 'delivered' and (e.attempt_count <> 1
        or (select count(*) from delivery_attempts a where a.event_id = e.id) <> 1))::int as wrong
    from events e`;
  if (row.failed || row.wrong) throw new Error(`${r.label}: ${row.failed} failed, ${row.wrong} delivered without exactly one attempt`);
}

async function checkAllDelivered(sql: import('postgres').Sql, r: Throughput) {
  const [row] =
    await sql`select count(*) filter (where status = 'failed')::int as failed, count(*) filter (where status = 'delivered')::int as delivered from events`;
  if (row.failed) throw new Error(`${r.label}: ${row.failed} events failed`);
  const [order] = await sql`
    select count(*)::int as bad from (
      select chat_id, seq, delivered_at, lag(delivered_at) over (partition by chat_id order by seq) as before from events where status = 'delivered'
    ) x where before > delivered_at`;
  if (order.bad) throw new Error(`${r.label}: ${order.bad} events delivered before an earlier event of their chat`);
}

/**
 * What a bare loop does per delivery. `full` (the ceiling): the work the engine must do, in its
 * shape and no more: claim, sign, POST, record the attempt row and the event's state, the records
 * batched as the engine batches them. `transport`: claim, POST and mark delivered, unsigned and
 * with no attempt row; not a ceiling (it skips required work), kept to show what that work costs.
 */
type BareWork = 'full' | 'transport';

/** The attempt batch of the engine (embedded-engine.ts: `finished.splice(0, 200)`); the bare loop's is the same. */
const RECORD_BATCH = 200;

/**
 * The bare loop, in the engine's shape with the least code around it. Claims batches of up to
 * CEILING_BATCH pending rows (FOR UPDATE SKIP LOCKED, lease committed without waiting for the
 * flush, as the engine does; with `full`, joined to the VA for its address and secret), keeps up
 * to CEILING_IN_FLIGHT POSTs going over keep-alive node:http, and writes what finished as the engine
 * records its attempts: one writer at a time, up to RECORD_BATCH per statement, a slot freed once
 * its row is written.
 *
 * `full` signs each POST (the app's signWebhook over the app's serializeEvent body, Standard
 * Webhooks headers) to the VA's own address, and writes in one statement per batch the attempt rows
 * (delivery_attempts, with the rollup trigger the engine's rows fire too) and each event's state
 * (status, attempt count, delivered_at, last error, lease cleared). What it still leaves out, so it
 * stays a ceiling: per-chat order (any pending row is claimed, not only a chat's head), chaining a
 * chat's next event, the address check and DNS pinning, retries and their schedule, circuit
 * breaking and per-VA limits, the lease check on record, logs and metrics.
 * `transport` is the earlier bare loop: POSTs the stored body unsigned to `transportUrl` and marks
 * the delivered rows, nothing else.
 */
async function bareLoop(sql: import('postgres').Sql, work: BareWork, transportUrl?: string): Promise<() => Promise<void>> {
  const { signWebhook } = await import('@/lib/events/sign-webhook');
  const { serializeEvent } = await import('@/lib/events/serialize-event');
  const agent = new http.Agent({ keepAlive: true });
  let running = true;
  let inFlight = 0;
  let slotFreed: () => void = () => {};
  const post = (target: URL, headers: Record<string, string>, body: string) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          method: 'POST',
          hostname: target.hostname,
          port: target.port,
          path: target.pathname,
          agent,
          headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  type Row = {
    id: string;
    transaction_id: string;
    body: Record<string, unknown>;
    attempt_count: number;
    webhook_url: string | null;
    signing_secret: string | null;
  };
  type Finished = {
    event_id: string;
    attempt_number: number;
    started_at: string;
    duration_ms: number;
    http_status: number | null;
    error: string | null;
    ok: boolean;
  };
  const finished: Finished[] = [];
  let writing = false;
  const write = async () => {
    if (writing) return;
    writing = true;
    try {
      while (finished.length) {
        const batch = finished.splice(0, RECORD_BATCH);
        try {
          if (work === 'full') {
            await sql`
              with input as (
                select * from jsonb_to_recordset(${JSON.stringify(batch)}::text::jsonb) as x(
                  event_id bigint, attempt_number int, started_at timestamptz, duration_ms int, http_status int, error text, ok boolean)),
              attempt as (
                insert into delivery_attempts (event_id, attempt_number, started_at, duration_ms, http_status, error)
                select event_id, attempt_number, started_at, duration_ms, http_status, error from input)
              update events e set
                status = case when input.ok then 'delivered'::event_status else e.status end,
                attempt_count = e.attempt_count + 1,
                locked_until = null,
                last_error = case when input.ok then null else coalesce(input.error, 'HTTP ' || input.http_status) end,
                delivered_at = case when input.ok then now() end,
                updated_at = now()
              from input where e.id = input.event_id`;
          } else {
            const ids = batch.filter((b) => b.ok).map((b) => b.event_id);
            if (ids.length)
              await sql`update events set status = 'delivered', delivered_at = now(), locked_until = null where id = any(${ids}::bigint[])`;
          }
        } finally {
          inFlight -= batch.length;
          slotFreed();
        }
      }
    } finally {
      writing = false;
    }
  };
  const deliver = async (row: Row) => {
    const startedAt = new Date();
    const t0 = nowMs();
    let status: number | null = null;
    let error: string | null = null;
    try {
      if (work === 'full') {
        const payload = serializeEvent(row.body, startedAt);
        const headers = {
          'webhook-id': row.transaction_id,
          'webhook-timestamp': String(Math.floor(startedAt.getTime() / 1000)),
          'webhook-signature': signWebhook({ transactionId: row.transaction_id, at: startedAt, payload, secrets: [row.signing_secret] }),
        };
        status = await post(new URL(row.webhook_url ?? ''), headers, payload);
      } else {
        status = await post(new URL(transportUrl ?? ''), { 'webhook-id': row.transaction_id }, JSON.stringify(row.body));
      }
    } catch (err) {
      error = (err as Error).message;
    } finally {
      finished.push({
        event_id: row.id,
        attempt_number: row.attempt_count + 1,
        started_at: startedAt.toISOString(),
        duration_ms: Math.round(nowMs() - t0),
        http_status: status,
        error,
        ok: status === 200,
      });
      void write();
    }
  };
  const loop = async () => {
    while (running) {
      const free = CEILING_IN_FLIGHT - inFlight;
      if (free <= 0) {
        await new Promise<void>((r) => (slotFreed = r));
        continue;
      }
      const rows = await sql<Row[]>`
        with claimed as (
          update events set locked_until = now() + interval '30 seconds'
          where id in (select id from events where status = 'pending' and (locked_until is null or locked_until < now())
                       order by next_attempt_at limit ${Math.min(free, CEILING_BATCH)} for update skip locked)
            and (select set_config('synchronous_commit', 'off', true)) is not null
          returning id, transaction_id, body, attempt_count, virtual_agent_id)
        select c.id, c.transaction_id, c.body, c.attempt_count,
          ${work === 'full' ? sql`va.webhook_url, va.signing_secret` : sql`null::text as webhook_url, null::text as signing_secret`}
        from claimed c ${work === 'full' ? sql`join virtual_agents va on va.user_id = c.virtual_agent_id` : sql``}`;
      if (!rows.length) {
        await new Promise((r) => setTimeout(r, 2));
        continue;
      }
      inFlight += rows.length;
      for (const row of rows) void deliver(row);
    }
  };
  const done = loop();
  return async () => {
    running = false;
    slotFreed();
    await done;
    while (inFlight > 0) await new Promise((r) => setTimeout(r, 5));
    agent.destroy();
  };
}

// ---------------------------------------------------------------------------------------------
// Report

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (n: number) => `${(n * 100).toFixed(0)} %`;
const ms = (n: number) => n.toFixed(1);

async function renderReport({ latency, withNeighbour, backlog, ...throughput }: Results & { backlog: BacklogResults }) {
  const cpuModel = (fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m)?.[1] ?? os.cpus()[0]?.model ?? '?').trim();
  const [{ version: pgVersion }] = await adminSql!`select version()`;
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  return [
    MARK_START,
    '## bench:events: webhook delivery, embedded engine against a bare loop doing the same work',
    '',
    `Run ${new Date().toISOString()} with \`${knobs()}npm run bench:events\` (\`tsx bench/events.ts\`) on PostgreSQL (a fresh database, dropped afterwards), \`DATABASE_POOL_SIZE=${POOL_SIZE}\`, the default retry schedule and timeout; the receiver is a node:http server in a child process on 127.0.0.1 answering 200.`,
    '',
    `Machine: ${os.availableParallelism()} CPUs (\`nproc\`), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${cpuModel}; Node ${process.version}; ${String(pgVersion).split(' on ')[0]} on the same machine. Engine, receiver and PostgreSQL share the cores; 1-minute load average ${loadAtStart.toFixed(1)} at the start and ${os.loadavg()[0].toFixed(1)} at the end (above ~2 means other work was running on the machine, and the figures are lower and noisier than on an idle one).`,
    '',
    `**(a) Latency**: inbound \`POST /api/v1/chats/{id}/messages\` over HTTP (keep-alive) to the production server (\`npm start\` of the build, its embedded engine delivering), ${LATENCY_RATE} messages/s round-robin over ${CHATS} chats for ${LATENCY_SECONDS} s, after 5 s of the same traffic to warm the fresh server up and 1 s more (${fmt(latency.samples)} samples). "End to end" runs from the start of the HTTP request to the event's arrival at the receiver; "after the answer" from the POST's answer (the commit) to arrival, which is the delivery path alone.`,
    '',
    '| end to end p50 ms | end to end p99 ms | max ms | after the answer p50 ms | after the answer p99 ms | POST itself p50 ms | POST itself p99 ms |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| ${ms(latency.p50)} | ${ms(latency.p99)} | ${ms(latency.max)} | ${ms(latency.afterP50)} | ${ms(latency.afterP99)} | ${ms(latency.postP50)} | ${ms(latency.postP99)} |`,
    '',
    `**(e) Latency with a hanging neighbour**: the same measurement while another tenant's VA has ${HANGING_CHATS} chats' events waiting at an endpoint that accepts connections and never answers (each call runs into the ${DELIVERY_TIMEOUT_S} s timeout; its circuit then opens). Alone is (a).`,
    '',
    '| case | end to end p50 ms | end to end p99 ms | max ms |',
    '|---|---:|---:|---:|',
    `| (a) alone | ${ms(latency.p50)} | ${ms(latency.p99)} | ${ms(latency.max)} |`,
    `| (e) beside a hanging neighbour | ${ms(withNeighbour.p50)} | ${ms(withNeighbour.p99)} | ${ms(withNeighbour.max)} |`,
    '',
    renderThroughput(throughput),
    `- (a) after the answer p99 = **${ms(latency.afterP99)} ms** (target < ${TARGET_AFTER_P99_MS} ms: **${met(latency.afterP99 < TARGET_AFTER_P99_MS)}**).`,
    `- (a) end to end p50 = **${ms(latency.p50)} ms** (target < ${TARGET_P50_MS} ms: **${met(latency.p50 < TARGET_P50_MS)}**); p99 = **${ms(latency.p99)} ms** (target < ${TARGET_P99_MS} ms: **${met(latency.p99 < TARGET_P99_MS)}**).`,
    `- (e) healthy p99 beside the hanging neighbour = **${pct(withNeighbour.p99 / latency.p99)}** of (a)'s (target ≤ 200 %: **${met(withNeighbour.p99 <= 2 * latency.p99)}**).`,
    '',
    renderBacklog(backlog),
    MARK_END,
  ].join('\n');
}

/** (b), (c), (d) and (d0): the table and the ratio to the ceiling. */
function renderThroughput({
  engineFastRounds,
  engineSlow,
  ceilingRounds,
  transportRounds,
}: Pick<Results, 'engineFastRounds' | 'engineSlow' | 'ceilingRounds' | 'transportRounds'>): string {
  const median = (xs: number[]) => quantile(xs, 0.5);
  const engineFast = median(engineFastRounds.map((r) => r.perSecond));
  const ceiling = median(ceilingRounds.map((r) => r.perSecond));
  const transport = median(transportRounds.map((r) => r.perSecond));
  const ratios = engineFastRounds.map((r, i) => r.perSecond / ceilingRounds[i].perSecond);
  const ratio = median(ratios);
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const rounds = (rs: Throughput[]) => rs.map((r) => fmt(r.perSecond)).join(' / ');
  const cpu = (rs: Throughput[]) => median(rs.map((r) => r.cpuMsPerDelivery)).toFixed(2);
  return [
    `**Throughput**: a backlog of \`message.received\` rows over ${CHATS} chats (per-chat order, round-robin arrival), counted at the receiver over ${WINDOW_MS / 1000} s after ${WARMUP_MS / 1000} s of warm-up (or until the backlog was gone). (b), (d) and (d0) alternate for ${ROUNDS} rounds, their order reversed every other round. The engine runs with its defaults (${CONCURRENCY} calls in flight, at most ${PER_VA} of them to one VA, claims of up to 32, attempts recorded in batches of up to ${RECORD_BATCH}). The ceiling (d) is a bare loop doing the work the engine must do, in the engine's shape: it claims the same way (up to ${CEILING_BATCH} rows per statement with FOR UPDATE SKIP LOCKED, the lease committed without waiting for the flush, joined to the VA for its address and secret), keeps ${CEILING_IN_FLIGHT} node:http keep-alive POSTs in flight, each the app's body signed with Standard Webhooks headers (the app's \`serializeEvent\` and \`signWebhook\`), and writes the attempt rows and the events' state (delivered, attempt count, last error, lease cleared) from one writer, up to ${RECORD_BATCH} per statement, as the engine records its attempts; pool of ${POOL_SIZE}. It does not keep per-chat order, chain a chat's next event, check the address, retry, break circuits or log, which is what the engine adds on top. (d0) is the bare loop without signing or attempt rows (claim, POST, mark delivered): not a ceiling, as it skips required work; (d) against (d0) is what that work costs a bare loop. After each (d) round the database was checked: one attempt row per delivered event, none failed.`,
    '',
    '| case | deliveries/s (median) | rounds | bench process CPU ms per delivery |',
    '|---|---:|---:|---:|',
    `| (b) embedded engine, receiver answers at once | ${fmt(engineFast)} | ${rounds(engineFastRounds)} | ${cpu(engineFastRounds)} |`,
    `| (c) embedded engine, receiver takes 200 ms | ${fmt(engineSlow.perSecond)} | 1 | ${cpu([engineSlow])} |`,
    `| (d) ceiling: bare loop, same work (claim, sign, POST, attempt rows and state in batches of ${RECORD_BATCH}) | ${fmt(ceiling)} | ${rounds(ceilingRounds)} | ${cpu(ceilingRounds)} |`,
    `| (d0) not a ceiling: bare claim + POST + mark delivered (no signature, no attempt rows) | ${fmt(transport)} | ${rounds(transportRounds)} | ${cpu(transportRounds)} |`,
    '',
    `- (b)/(d) = **${pct(ratio)}** of the ceiling (median of the rounds' ratios ${ratios.map(pct).join(' / ')}; target ≥ ${pct(TARGET_RATIO)}: **${met(ratio >= TARGET_RATIO)}**). (d)/(d0) = ${pct(ceiling / transport)}: the share of the bare transport's rate left once signing and attempt rows are done.`,
    `- (c) is bounded by one call in flight per chat and by the VA's share of ${PER_VA} calls: min(${CHATS}, ${PER_VA}) / 0.2 s = ${fmt(Math.min(CHATS, PER_VA) / 0.2)}/s at most; it reached ${pct(engineSlow.perSecond / (Math.min(CHATS, PER_VA) / 0.2))} of that.`,
    '- After each (b) round the database was checked: no event failed and none was delivered before an earlier event of its chat.',
  ].join('\n');
}

/** The bench's knobs set for this run, as they would be typed before the command. */
function knobs(): string {
  const set = Object.entries(process.env)
    .filter(([k, v]) => k.startsWith('BENCH_') && k !== 'BENCH_WRITE' && v !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  return set.map(([k, v]) => `${k}=${v} `).join('');
}

/** The backlog cases (f) and (g), with their targets. */
function renderBacklog({ rounds, share }: BacklogResults): string {
  const names = Object.keys(rounds[0].results);
  // Some cases only (BENCH_BACKLOG_CASES, while tuning): the rates and checks, no ratios or targets.
  if (!share || !names.includes('ours') || !names.includes('bare loop')) {
    return [
      `**(f) some cases only** (\`BENCH_BACKLOG_CASES=${[...BACKLOG_CASES].join(',')}\`): deliveries/s, longest silence ms and checks.`,
      '',
      '| round | case | /s | longest silence ms | checks |',
      '|---:|---|---:|---:|---|',
      ...rounds.flatMap((r) =>
        Object.entries(r.results).map(
          ([n, d]) =>
            `| ${r.round} | ${n} | ${fmt(d.perSecond)}${d.drained ? '' : ' (not all arrived)'} | ${fmt(d.maxGapMs)} | ${describeCheck(d)} |`,
        ),
      ),
    ].join('\n');
  }
  const peers = names.filter((n) => n.startsWith('graphile-worker'));
  // With an even number of rounds, the mean of the middle two (quantile() would take the higher).
  const median = (xs: number[]) => {
    const sorted = [...xs].sort((p, q) => p - q);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const bestPeer = (r: BacklogRound) => Math.max(...peers.map((p) => r.results[p].perSecond));
  const peerRatios = rounds.map((r) => r.results.ours.perSecond / bestPeer(r));
  const bareRatios = rounds.map((r) => r.results.ours.perSecond / r.results['bare loop'].perSecond);
  const x = (n: number) => `${n.toFixed(2)}x`;
  const checks = (d: Drain) => {
    const c = d.check;
    if (!c) return '';
    const dbPart = d.db ? `, ${fmt(c.expected - d.db.notDelivered)} delivered, ${d.db.notOneAttempt} not one attempt` : '';
    const overlapPart = d.overlaps !== undefined ? `, ${d.overlaps} jobs started while another of their chat ran` : '';
    const errorPart = d.peerStats ? `, ${d.peerStats.jobErrors} task errors` : '';
    return `${fmt(c.arrived)}/${fmt(c.expected)} arrived, ${c.duplicates} dup., ${c.reordered} reordered, ${c.badSignatures} bad sig.${dbPart}${overlapPart}${errorPart}`;
  };
  const correct = (d: Drain) =>
    !!d.check &&
    d.check.arrived === d.check.expected &&
    d.check.duplicates === 0 &&
    d.check.reordered === 0 &&
    d.check.badSignatures === 0 &&
    d.check.unsigned === 0 &&
    !!d.db &&
    d.db.notDelivered === 0 &&
    d.db.notOneAttempt === 0;
  const allCorrect = rounds.every((r) => correct(r.results.ours) && peers.every((p) => correct(r.results[p]))) && correct(share.drain);
  const equal = 1 / share.shares.length;
  const spread = Math.max(...share.shares.map((s) => Math.abs(s - equal) / equal));
  const total = rounds[0].results.ours.delivered;
  return [
    `**(f) One VA's backlog**: ${fmt(total)} \`message.received\` rows over ${fmt(BACKLOG_CHATS)} chats (${BACKLOG_PER_CHAT} per chat, arriving round-robin), drained whole; the rate is the events arrived (each once) over the time from the drain's start to its last arrival. Ours is the engine with its defaults (${CONCURRENCY} calls in flight, at most ${PER_VA} to one VA, as many as the bare loop's). The peer is graphile-worker 0.18 in the bench process doing the same job (\`bench/events-backlog.ts\`): one job per event in a named queue per chat (job key = transaction id, run_at = the event's time, so a chat's jobs run one at a time in order), a task that reads the event and its VA, signs with Standard Webhooks, POSTs over keep-alive node:http and records the attempt row and the event's state, an answer other than 200 failing the job for graphile-worker to retry. Tuned per its performance page and by measuring (\`startPeer\` says why): \`concurrentJobs\` ${PEER_CONCURRENCY.join(' and ')}${process.env.BENCH_PEER_CONCURRENCY ? '' : " (its page's 24, and 64: 32, 96 and 128 drained no faster here)"}, its local queue of 500 (the pool fetches jobs in batches, at most one per named queue), completions batched, one pool of \`concurrentJobs + 2\` connections up to ${PEER_POOL_MAX} that the task shares (\`helpers.withPgClient\`), and the attempt rows of tasks that finish together written in one statement, each task waiting for its commit (one statement per task queues on the rollup trigger's row for the VA and minute)${Object.keys(PEER_OPTIONS).length ? `; this run changed that with \`BENCH_PEER_OPTIONS=${JSON.stringify(PEER_OPTIONS)}\`` : ''}. The bare loop is (d) on this backlog: the same work (claim, sign, POST, attempt row and state written in batches of up to ${RECORD_BATCH} as the engine's are, ${CEILING_IN_FLIGHT} in flight), without per-chat order or the engine's other duties; its checks show its signatures verified and its attempt rows, and the order it does not keep. The cases run in each round in alternating order; the receiver verifies every signature and each chat's order at arrival.`,
    '',
    `| round | ${names.map((n) => `${n} /s`).join(' | ')} | ours ÷ best peer | ours ÷ bare loop | ours: longest silence ms | ours: claims |`,
    `|---:|${names.map(() => '---:').join('|')}|---:|---:|---:|---:|`,
    ...rounds.map(
      (r, i) =>
        `| ${r.round} | ${names.map((n) => `${fmt(r.results[n].perSecond)}${r.results[n].drained ? '' : ' (not all arrived)'}`).join(' | ')} | ${x(peerRatios[i])} | ${pct(bareRatios[i])} | ${fmt(r.results.ours.maxGapMs)} | ${fmt(r.results.ours.claims ?? 0)} |`,
    ),
    '',
    '| round | case | checks |',
    '|---:|---|---|',
    ...rounds.flatMap((r) =>
      names.map((n) => `| ${r.round} | ${n} | ${checks(r.results[n])}${n === 'bare loop' ? ' (order not kept, by design)' : ''} |`),
    ),
    '',
    `**(g) ${SHARE_VAS} VAs at once**: ${SHARE_VAS} tenants, each VA with ${fmt(SHARE_CHATS)} chats × ${BACKLOG_PER_CHAT} waiting at the same times (written in one transaction), drained by the engine with its defaults (${SHARE_VAS} × ${PER_VA} > ${CONCURRENCY}, so the VAs compete for the engine's calls): ${fmt(share.drain.perSecond)} deliveries/s overall. Shares of the deliveries in the first ${(share.window / 1000).toFixed(1)} s, while every VA still had events waiting: ${share.shares.map((s) => pct(s)).join(' / ')}. ${checks(share.drain)}.`,
    '',
    `- (f) ours ÷ tuned peer (the better of its concurrencies) = **${x(median(peerRatios))}** (median of the rounds' ${peerRatios.map(x).join(' / ')}; target ≥ ${TARGET_PEER_RATIO}x: **${met(median(peerRatios) >= TARGET_PEER_RATIO)}**).`,
    `- (f) ours ÷ bare loop = **${pct(median(bareRatios))}** (rounds ${bareRatios.map(pct).join(' / ')}; target ≥ ${pct(TARGET_BARE_RATIO)}: **${met(median(bareRatios) >= TARGET_BARE_RATIO)}**).`,
    `- (g) largest distance from an equal share = **${pct(spread)}** of it (target ≤ ${pct(TARGET_SHARE_SPREAD)}: **${met(spread <= TARGET_SHARE_SPREAD)}**).`,
    `- Ours and the peer, every round, and (g): every event arrived once, in its chat's order, signature verified, one attempt row each: **${allCorrect ? 'yes' : 'NO (see the checks)'}**.`,
  ].join('\n');
}

// After every declaration above: the module's constants must exist before main() runs.
if (process.argv[2] === '--receiver') runReceiver();
else {
  main()
    .then(() => cleanup())
    .then(() => process.exit(0))
    .catch(async (err) => {
      console.error(err);
      await cleanup();
      process.exit(1);
    });
}

/** `n` sms chats of the tenant held by its VA, customers numbered from `prefix`; answers their ids. */
async function openSmsChats(t: Tenant, n: number, prefix: string): Promise<string[]> {
  // Imported when called, as main's imports are: the environment is set first.
  const { botApi } = await import('@/test/support/api-client');
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await botApi('POST', '/chats', {
      token: t.token,
      body: {
        channel: 'sms',
        asset_id: t.assets.sms.id,
        customer: { destination_id: `${prefix}${String(i).padStart(7, '0')}` },
        assignee: t.bot.user.loginId,
      },
    });
    if (r.status !== 201) throw new Error(`POST /chats: ${r.status} ${JSON.stringify(r.body)}`);
    ids.push(r.body.response.chat_id);
  }
  return ids;
}
