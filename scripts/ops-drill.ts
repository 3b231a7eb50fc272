/**
 * `npm run drill:ops`: the operational drill, all at once. A private PostgreSQL cluster (initdb/pg_ctl,
 * as the `postgres` user when run as root), two production servers (`node scripts/start.mjs`, the
 * build in .next) on it, a noisy neighbour (tenant A's VA points at an endpoint that never answers)
 * beside a healthy tenant B whose receiver records every delivery. Load goes through both instances
 * while /api/metrics, /api/health/ready and /api/health/live of both are scraped every second.
 * Phases: steady, the database stopped (`pg_ctl stop -m fast`), recovery, then a burst with SIGTERM
 * to instance 1 in its middle. Prints a markdown report per phase and exits non-zero when a check
 * fails. Everything it started (servers, receivers, cluster and its directory) is removed at the end.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPrivateCluster, freePort, privateClusterUnavailable } from '../test/support/private-cluster';
import { startProductionServer } from '../test/support/production-server';

const ROOT = path.resolve(import.meta.dirname, '..');
process.chdir(ROOT);
// The drill's own database handle (seeding, the final comparison) is quiet and may reach private receivers.
process.env.LOG_LEVEL = 'error';
process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
process.env.DATABASE_CONNECT_TIMEOUT_SECONDS = '2';

const STEADY_MS = Number(process.env.DRILL_PHASE_MS ?? 15_000);
const OUTAGE_MS = STEADY_MS;
const RECOVERY_MS = STEADY_MS;
const BURST_BEFORE_SIGTERM_MS = 5_000;
const CLIENT_TIMEOUT_MS = 10_000;
const SHUTDOWN_GRACE_MS = 10_000;
const METRICS_TOKEN = `drill-${Math.random().toString(36).slice(2)}`;
/** "Answered within a few seconds" while the database is down: the connect timeout is 2 s. */
const OUTAGE_ANSWER_MS = 5_000;
/** Scrapes started this long after the stop must see the outage (one in flight at the stop may not). */
const OUTAGE_SETTLE_MS = 3_000;
/** The instances' DATABASE_POOL_SIZE (the default). */
const POOL_SIZE = 10;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const t0 = Date.now();
const log = (line: string) => process.stderr.write(`[drill +${((Date.now() - t0) / 1000).toFixed(1)}s] ${line}\n`);

// ---------------------------------------------------------------------------------------------
// Servers

type Instance = {
  n: 1 | 2;
  base: string;
  child: ChildProcess;
  out: string[];
  exited: Promise<number | null>;
  exitCode?: number | null;
  exitedAt?: number;
  sigtermAt?: number;
  /** What the drill's load balancer knows: false once a ready probe failed after SIGTERM. */
  inRotation: boolean;
};

function startInstance(n: 1 | 2, port: number, databaseUrl: string, extraEnv: Record<string, string> = {}): Instance {
  // DRILL_LOG_DIR: each instance's output is also written there (and kept), for a failed check.
  const file = process.env.DRILL_LOG_DIR ? fs.createWriteStream(path.join(process.env.DRILL_LOG_DIR, `instance-${n}-${port}.log`)) : null;
  const server = startProductionServer(
    port,
    {
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      METRICS_TOKEN,
      DELIVERY_ENGINE: 'embedded',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      DATABASE_CONNECT_TIMEOUT_SECONDS: '2',
      DATABASE_STATEMENT_TIMEOUT_MS: '2000',
      SHUTDOWN_GRACE_MS: String(SHUTDOWN_GRACE_MS),
      // The hanging endpoint answers nothing: each call to it waits this long.
      DELIVERY_TIMEOUT_MS: '3000',
      LOG_LEVEL: process.env.DRILL_LOG_LEVEL ?? 'warn',
      ...extraEnv,
    },
    (line) => file?.write(`${line}\n`),
  );
  const inst: Instance = { n, ...server, inRotation: true };
  inst.exited = server.exited.then((code) => {
    inst.exitCode = code;
    inst.exitedAt = Date.now();
    return code;
  });
  return inst;
}

async function waitReady(inst: Instance, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (inst.exitedAt) throw new Error(`instance ${inst.n} exited before it was ready:\n${inst.out.slice(-30).join('\n')}`);
    try {
      if ((await fetch(`${inst.base}/api/health/ready`, { signal: AbortSignal.timeout(2_000) })).status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`instance ${inst.n} not ready after ${timeoutMs} ms:\n${inst.out.slice(-30).join('\n')}`);
}

// ---------------------------------------------------------------------------------------------
// Records

type Phase = 'steady' | 'outage' | 'recovery' | 'burst' | 'drain';
const PHASES: Phase[] = ['steady', 'outage', 'recovery', 'burst', 'drain'];
let phase: Phase = 'steady';
const phaseStart: Partial<Record<Phase, number>> = {};
function enter(p: Phase) {
  phase = p;
  phaseStart[p] = Date.now();
  log(`phase ${p}`);
}

type ApiCall = {
  at: number;
  phase: Phase;
  inst: 1 | 2;
  tenant: 'A' | 'B';
  op: string;
  /** HTTP status, or 0 when no answer came (error in `error`). */
  status: number;
  code?: number;
  retryAfter?: string | null;
  error?: string;
  ms: number;
};
const calls: ApiCall[] = [];

type ScrapeKind = 'metrics' | 'ready' | 'live';
type Scrape = {
  at: number;
  phase: Phase;
  inst: 1 | 2;
  kind: ScrapeKind;
  status: number;
  error?: string;
  ms: number;
  values?: MetricValues;
  readyDetail?: string;
};
const scrapes: Scrape[] = [];

type MetricValues = {
  databaseUp?: number;
  backlogA?: number;
  backlogB?: number;
  oldestA?: number;
  oldestB?: number;
  http: Record<string, number>;
  databaseUnavailable?: number;
  inFlight?: number;
  circuitA?: string;
};

function errorName(err: unknown): string {
  const e = err as { name?: string; cause?: { code?: string }; code?: unknown };
  if (e.name === 'TimeoutError') return `no answer within ${CLIENT_TIMEOUT_MS / 1000} s`;
  return e.cause?.code ?? (typeof e.code === 'string' ? e.code : undefined) ?? e.name ?? 'error';
}

// ---------------------------------------------------------------------------------------------
// Metrics text

function parseMetrics(text: string, vaA: number, vaB: number): MetricValues {
  const v: MetricValues = { http: {} };
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-z_]+)(?:\{([^}]*)\})?\s+(\S+)$/.exec(line);
    if (!m) continue;
    const [, name, rawLabels = '', rawValue] = m;
    const labels = Object.fromEntries([...rawLabels.matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    const value = Number(rawValue);
    const va = labels.virtual_agent_id;
    switch (name) {
      case 'vachat_database_up':
        v.databaseUp = value;
        break;
      case 'vachat_delivery_backlog_events':
        if (va === String(vaA)) v.backlogA = value;
        if (va === String(vaB)) v.backlogB = value;
        break;
      case 'vachat_delivery_oldest_pending_seconds':
        if (va === String(vaA)) v.oldestA = value;
        if (va === String(vaB)) v.oldestB = value;
        break;
      case 'vachat_http_requests_total': {
        const cls = `${labels.status?.[0] ?? '?'}xx`;
        v.http[cls] = (v.http[cls] ?? 0) + value;
        break;
      }
      case 'vachat_database_unavailable_total':
        v.databaseUnavailable = value;
        break;
      case 'vachat_delivery_in_flight':
        v.inFlight = value;
        break;
      case 'vachat_delivery_circuit_state':
        if (va === String(vaA) && value === 1) v.circuitA = labels.state;
        break;
    }
  }
  return v;
}

// ---------------------------------------------------------------------------------------------
// Statistics

function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
}
const fmtMs = (ms: number) => (Number.isNaN(ms) ? '-' : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
function countBy<T>(items: T[], key: (t: T) => string): string {
  const m = new Map<string, number>();
  for (const i of items) m.set(key(i), (m.get(key(i)) ?? 0) + 1);
  return (
    [...m.entries()]
      .sort()
      .map(([k, n]) => `${k}: ${n}`)
      .join(', ') || '-'
  );
}

// ---------------------------------------------------------------------------------------------
// Checks

type Check = { phase: string; what: string; ok: boolean; detail: string };
const checks: Check[] = [];
const loadAtStart = os.loadavg().map((x) => x.toFixed(2));
/** vachat_delivery_in_flight of instance 1 at its last scrape before SIGTERM. */
let inFlightAtSigterm: number | undefined;
/** The start with bad variables. */
let badStart: { code: number | null | 'timeout'; ms: number; problems: string[] } | undefined;
function check(p: string, what: string, ok: boolean, detail = '') {
  checks.push({ phase: p, what, ok, detail });
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const missing = privateClusterUnavailable();
  if (missing) throw new Error(`${missing}: the drill needs PostgreSQL's server tools`);
  if (!fs.existsSync(path.join(ROOT, '.next', 'BUILD_ID')))
    log('no build in .next: instance 1 builds first (npm start does; about a minute)');

  const cleanups: Array<() => Promise<void> | void> = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await Promise.resolve(c()).catch((err) => log(`cleanup: ${(err as Error).message}`));
  };
  const onSignal = () => {
    log('interrupted: cleaning up');
    void cleanup().then(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);

  try {
    return await drill(cleanups);
  } finally {
    await cleanup();
    process.off('SIGINT', onSignal);
  }
}

async function drill(cleanups: Array<() => Promise<void> | void>): Promise<number> {
  // --- cluster
  const pgPort = await freePort();
  const cluster = createPrivateCluster(pgPort);
  cleanups.push(() => {
    if (process.env.DRILL_LOG_DIR) fs.copyFileSync(cluster.logFile, path.join(process.env.DRILL_LOG_DIR, 'postgresql.log'));
    cluster.remove();
  });
  const databaseUrl = cluster.url;
  process.env.DATABASE_URL = databaseUrl;
  log(`PostgreSQL cluster on port ${pgPort}`);

  // --- migrate and seed through the drill's own handle (the servers then find a migrated database)
  const { closeDb, getDb, openPostgres, setHandle } = await import('@/db/client');
  const { events } = await import('@/db/schema');
  const { eq } = await import('drizzle-orm');
  const { createTenant } = await import('../test/support/tenant');
  const { startReceiver } = await import('../test/delivery/receiver');
  setHandle(await openPostgres(databaseUrl, { migrate: true }));
  cleanups.push(() => closeDb());

  const hanging = await startReceiver(() => ({ hang: true }));
  cleanups.push(() => hanging.close());
  const healthy = await startReceiver(() => ({ status: 200, body: 'ok' }));
  cleanups.push(() => healthy.close());

  const db = await getDb();
  const subscriptions = ['chat.assigned', 'message.received', 'chat.closed'] as const;
  const tenantA = await createTenant(db, { webhookUrl: hanging.url, subscriptions: [...subscriptions] });
  const tenantB = await createTenant(db, { webhookUrl: healthy.url, subscriptions: [...subscriptions] });
  const vaA = tenantA.bot.user.id;
  const vaB = tenantB.bot.user.id;
  log(`tenants seeded: noisy A (VA ${vaA}) -> hanging endpoint, healthy B (VA ${vaB}) -> recording receiver`);

  // --- bad variables at start: a non-zero exit at once, one line per problem, no secret's value
  {
    const badSecret = 'too-short';
    const started = Date.now();
    const bad = startInstance(1, await freePort(), databaseUrl, { ACCESS_TOKEN_TTL_SECONDS: '4', METRICS_TOKEN: badSecret });
    const code = await Promise.race([bad.exited, sleep(300_000).then(() => 'timeout' as const)]);
    if (code === 'timeout') bad.child.kill('SIGKILL');
    const problems = bad.out.filter((l) => l.startsWith('Invalid configuration: '));
    badStart = { code, ms: Date.now() - started, problems };
    log(`bad variables: exit ${code} after ${badStart.ms} ms, ${problems.length} problem lines`);
    check('start', 'bad variables: exit 1', code === 1, `exit ${code}`);
    check('start', 'bad variables: one line per problem (2)', problems.length === 2, problems.join(' / '));
    check('start', 'bad variables: the secret is named, its value not printed', !bad.out.some((l) => l.includes(badSecret)), '');
  }

  // --- servers (instance 1 first: it builds when the build is missing or stale, as npm start does)
  const instances: Instance[] = [];
  cleanups.push(async () => {
    for (const i of instances) if (!i.exitedAt) i.child.kill('SIGKILL');
    await Promise.all(instances.map((i) => i.exited));
  });
  const i1 = startInstance(1, await freePort(), databaseUrl);
  instances.push(i1);
  await waitReady(i1, 300_000);
  const i2 = startInstance(2, await freePort(), databaseUrl);
  instances.push(i2);
  await waitReady(i2, 120_000);
  log(`instances ready: ${i1.base} (pid ${i1.child.pid}), ${i2.base} (pid ${i2.child.pid})`);

  // --- scrapers
  let scraping = true;
  async function scrape(inst: Instance, kind: ScrapeKind) {
    const at = Date.now();
    const p = phase;
    const url = `${inst.base}/api/${kind === 'metrics' ? 'metrics' : `health/${kind}`}`;
    try {
      const res = await fetch(url, {
        headers: kind === 'metrics' ? { authorization: `Bearer ${METRICS_TOKEN}` } : {},
        signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
      });
      const text = await res.text();
      const s: Scrape = { at, phase: p, inst: inst.n, kind, status: res.status, ms: Date.now() - at };
      if (kind === 'metrics' && res.status === 200) s.values = parseMetrics(text, vaA, vaB);
      if (kind === 'ready' && res.status !== 200) {
        try {
          const body = JSON.parse(text) as { checks: Record<string, { ok: boolean; detail?: string }> };
          s.readyDetail = Object.entries(body.checks)
            .filter(([, c]) => !c.ok)
            .map(([k]) => k)
            .join('+');
        } catch {
          s.readyDetail = 'unparsable';
        }
      }
      scrapes.push(s);
      if (kind === 'ready' && inst.sigtermAt && res.status !== 200) inst.inRotation = false;
    } catch (err) {
      scrapes.push({ at, phase: p, inst: inst.n, kind, status: 0, error: errorName(err), ms: Date.now() - at });
      if (kind === 'ready' && inst.sigtermAt) inst.inRotation = false;
    }
  }
  const scrapeLoop = (async () => {
    while (scraping) {
      for (const inst of instances) {
        if (inst.exitedAt) continue;
        for (const kind of ['metrics', 'ready', 'live'] as const) void scrape(inst, kind);
      }
      await sleep(1_000);
    }
  })();

  // --- load: a load balancer alternating between the instances still in its rotation
  let rr = 0;
  const pick = (): Instance => {
    const live = instances.filter((i) => i.inRotation);
    return live[rr++ % live.length];
  };
  async function api(
    tenant: 'A' | 'B',
    t: { token: string },
    op: string,
    method: string,
    p: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body?: { status_code?: number; response?: any } }> {
    const inst = pick();
    const at = Date.now();
    const ph = phase;
    try {
      const res = await fetch(`${inst.base}/api/v1${p}`, {
        method,
        headers: { access_token: t.token, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
      });
      const json = (await res.json().catch(() => ({}))) as { status_code?: number; response?: any };
      calls.push({
        at,
        phase: ph,
        inst: inst.n,
        tenant,
        op,
        status: res.status,
        code: json.status_code,
        retryAfter: res.headers.get('retry-after'),
        ms: Date.now() - at,
      });
      return { status: res.status, body: json };
    } catch (err) {
      calls.push({ at, phase: ph, inst: inst.n, tenant, op, status: 0, error: errorName(err), ms: Date.now() - at });
      return { status: 0 };
    }
  }

  let loading = true;
  let bWorkers = 3;
  let seq = 0;
  async function workerB(id: number) {
    while (loading) {
      if (id >= bWorkers) {
        await sleep(200);
        continue;
      }
      const n = ++seq;
      const created = await api('B', tenantB, 'POST /chats', 'POST', '/chats', {
        channel: 'sms',
        asset_id: tenantB.assets.sms.id,
        customer: { destination_id: `+1555${String(n).padStart(7, '0')}`, name: `Drill ${n}` },
        assignee: tenantB.bot.user.loginId,
        messages: [{ type: 'inbound', text: `first message ${n}` }],
      });
      const chatId = created.status === 201 ? (created.body?.response?.chat_id as string) : null;
      if (!chatId) {
        await sleep(300);
        continue;
      }
      for (let k = 0; k < 2 && loading; k++) {
        await api('B', tenantB, 'POST /chats/{id}/messages', 'POST', `/chats/${chatId}/messages`, { type: 'inbound', text: `msg ${k}` });
        await sleep(50);
      }
      await api(
        'B',
        tenantB,
        'PATCH /chats/{id}',
        'PATCH',
        `/chats/${chatId}`,
        { tags: ['drill', `n${n % 10}`] },
        {
          team_id: String(tenantB.botTeam.id),
        },
      );
      await sleep(100);
    }
  }
  async function workerA() {
    while (loading) {
      const n = ++seq;
      await api('A', tenantA, 'POST /chats', 'POST', '/chats', {
        channel: 'sms',
        asset_id: tenantA.assets.sms.id,
        customer: { destination_id: `+1666${String(n).padStart(7, '0')}`, name: `Noisy ${n}` },
        assignee: tenantA.bot.user.loginId,
        messages: [{ type: 'inbound', text: `noisy ${n}` }],
      });
      await sleep(150);
    }
  }
  const workers = [...Array.from({ length: 8 }, (_, i) => workerB(i)), workerA()];

  // --- phases
  enter('steady');
  await sleep(STEADY_MS);

  enter('outage');
  const stopStarted = Date.now();
  await cluster.stopAsync();
  const stoppedAt = Date.now();
  log(`database stopped (pg_ctl took ${stoppedAt - stopStarted} ms)`);
  await sleep(OUTAGE_MS);

  enter('recovery');
  await cluster.startAsync();
  const restartedAt = Date.now();
  log(`database started again (${restartedAt - phaseStart.recovery!} ms)`);
  await sleep(RECOVERY_MS);

  enter('burst');
  bWorkers = 8;
  await sleep(BURST_BEFORE_SIGTERM_MS);
  // SIGTERM while instance 1 has webhook calls in flight and the hanging endpoint holds one (the
  // noisy VA's calls hang until the timeout), so the drain has something to wait for: checked by a
  // scrape made just now, not the last second's (a call to the healthy bot ends in milliseconds, and
  // with none left the drain is over at once); at most 20 s more of burst for that.
  const inFlightBy = Date.now() + 20_000;
  while (Date.now() < inFlightBy) {
    await scrape(i1, 'metrics');
    const last = scrapes.filter((s) => s.inst === 1 && s.kind === 'metrics' && s.values).at(-1);
    if ((last?.values?.inFlight ?? 0) > 0 && hanging.inFlight > 0) break;
    await sleep(100);
  }
  inFlightAtSigterm = scrapes.filter((s) => s.inst === 1 && s.kind === 'metrics' && s.values).at(-1)?.values?.inFlight;
  i1.sigtermAt = Date.now();
  i1.child.kill('SIGTERM');
  log('SIGTERM sent to instance 1');
  enter('drain');
  // One round at once, so a short drain is seen too.
  await sleep(20);
  for (const kind of ['metrics', 'ready', 'live'] as const) void scrape(i1, kind);
  const exitDeadline = SHUTDOWN_GRACE_MS + 20_000;
  await Promise.race([i1.exited, sleep(exitDeadline)]);
  if (!i1.exitedAt) log(`instance 1 still running ${exitDeadline} ms after SIGTERM`);
  else log(`instance 1 exited with ${i1.exitCode} after ${i1.exitedAt - i1.sigtermAt} ms`);
  await sleep(3_000);
  loading = false;
  await Promise.all(workers);
  bWorkers = 0;

  // --- let instance 2 deliver what is left for B
  const deliveredBy = Date.now() + 60_000;
  let bPending = -1;
  while (Date.now() < deliveredBy) {
    const rows = await db.select({ status: events.status }).from(events).where(eq(events.virtualAgentId, vaB));
    bPending = rows.filter((r) => r.status === 'pending').length;
    if (bPending === 0) break;
    await sleep(500);
  }
  scraping = false;
  await scrapeLoop;
  await sleep(CLIENT_TIMEOUT_MS / 5);

  // --- the events table against the receiver
  const bEvents = await db.select().from(events).where(eq(events.virtualAgentId, vaB));
  const aEvents = await db.select({ status: events.status }).from(events).where(eq(events.virtualAgentId, vaA));

  return report({
    i1,
    i2,
    vaA,
    vaB,
    stoppedAt,
    restartedAt,
    bEvents,
    aEvents,
    bPending,
    received: healthy.requests,
    hangingCalls: hanging.requests.length,
  });
}

// ---------------------------------------------------------------------------------------------
// Report

type EventRow = { id: number; transactionId: string; chatId: string; seq: number; status: string; createdAt: Date };

function report(r: {
  i1: Instance;
  i2: Instance;
  vaA: number;
  vaB: number;
  stoppedAt: number;
  restartedAt: number;
  bEvents: EventRow[];
  aEvents: { status: string }[];
  bPending: number;
  received: { headers: Record<string, unknown>; at: number }[];
  hangingCalls: number;
}): number {
  const lines: string[] = [];
  const say = (l = '') => lines.push(l);
  const { i1, i2 } = r;
  const load = os.loadavg().map((x) => x.toFixed(2));
  say(`# drill:ops report, ${new Date(t0).toISOString()}`);
  say();
  say(
    `Machine: ${os.cpus().length} CPUs, load average (1/5/15 min) at the start ${loadAtStart.join(' / ')}, at the end ${load.join(' / ')}; Node ${process.version}.`,
  );
  say(
    `Two instances (\`node scripts/start.mjs\`), DELIVERY_ENGINE=embedded, DATABASE_CONNECT_TIMEOUT_SECONDS=2, DATABASE_STATEMENT_TIMEOUT_MS=2000, DELIVERY_TIMEOUT_MS=3000, SHUTDOWN_GRACE_MS=${SHUTDOWN_GRACE_MS}; noisy VA ${r.vaA} (endpoint never answers), healthy VA ${r.vaB}.`,
  );
  say();

  if (badStart) {
    say('## start with bad variables');
    say();
    say(
      `ACCESS_TOKEN_TTL_SECONDS=4 and a 9-character METRICS_TOKEN: exit ${badStart.code} after ${fmtMs(badStart.ms)}, ${badStart.problems.length} lines:`,
    );
    for (const l of badStart.problems) say(`- \`${l}\``);
    say();
  }

  for (const p of PHASES) {
    const pc = calls.filter((c) => c.phase === p);
    const ps = scrapes.filter((s) => s.phase === p);
    const start = phaseStart[p] ?? t0;
    const next = PHASES.slice(PHASES.indexOf(p) + 1).find((q) => phaseStart[q]);
    const end = next ? phaseStart[next]! : Date.now();
    say(`## ${p} (${((end - start) / 1000).toFixed(1)} s)`);
    say();
    const answered = pc.filter((c) => c.status > 0);
    say(`API calls: ${pc.length} (${countBy(pc, (c) => `instance ${c.inst}`)})`);
    say(
      `- by status: ${countBy(pc, (c) => (c.status ? `${c.status}${c.code && c.status >= 400 ? `/${c.code}` : ''}` : `no answer (${c.error})`))}`,
    );
    say(
      `- latency of answers: p50 ${fmtMs(
        quantile(
          answered.map((c) => c.ms),
          0.5,
        ),
      )}, p99 ${fmtMs(
        quantile(
          answered.map((c) => c.ms),
          0.99,
        ),
      )}, max ${fmtMs(Math.max(0, ...answered.map((c) => c.ms)))}`,
    );
    const unavailable = pc.filter((c) => c.status === 503);
    if (unavailable.length) {
      say(
        `- 503s: ${unavailable.length}, codes ${countBy(unavailable, (c) => String(c.code))}, Retry-After ${countBy(unavailable, (c) => String(c.retryAfter))}, max ${fmtMs(Math.max(...unavailable.map((c) => c.ms)))}`,
      );
    }
    say();
    say('| instance | probe | scrapes | answers | p50 | p99 | max |');
    say('|---|---|---|---|---|---|---|');
    for (const n of [1, 2] as const) {
      for (const kind of ['metrics', 'ready', 'live'] as const) {
        const ss = ps.filter((s) => s.inst === n && s.kind === kind);
        if (!ss.length) continue;
        const ms = ss.filter((s) => s.status > 0).map((s) => s.ms);
        const answers = countBy(ss, (s) => (s.status ? `${s.status}${s.readyDetail ? ` (${s.readyDetail})` : ''}` : (s.error ?? 'error')));
        say(
          `| ${n} | ${kind} | ${ss.length} | ${answers} | ${fmtMs(quantile(ms, 0.5))} | ${fmtMs(quantile(ms, 0.99))} | ${fmtMs(Math.max(0, ...ms))} |`,
        );
      }
    }
    say();
    const mv = ps.filter((s) => s.values).map((s) => ({ inst: s.inst, v: s.values! }));
    if (mv.length) {
      const range = (xs: (number | undefined)[]) => {
        const d = xs.filter((x): x is number => x !== undefined);
        return d.length ? `${Math.min(...d)}-${Math.max(...d)}` : 'absent';
      };
      for (const n of [1, 2] as const) {
        const vs = mv.filter((m) => m.inst === n).map((m) => m.v);
        if (!vs.length) continue;
        const last = vs[vs.length - 1];
        say(
          `- instance ${n} metrics: database_up ${range(vs.map((v) => v.databaseUp))}; backlog A ${range(vs.map((v) => v.backlogA))}, B ${range(vs.map((v) => v.backlogB))}; oldest pending A ${range(vs.map((v) => (v.oldestA === undefined ? undefined : Math.round(v.oldestA))))} s, B ${range(vs.map((v) => (v.oldestB === undefined ? undefined : Math.round(v.oldestB * 10) / 10)))} s; in flight ${range(vs.map((v) => v.inFlight))}; circuit of A ${countBy(vs, (v) => v.circuitA ?? 'untracked')}; at the last scrape http ${JSON.stringify(last.http)}, database_unavailable_total ${last.databaseUnavailable ?? 'absent'}`,
        );
      }
      say();
    }
  }

  // --- checks per phase
  const inPhase = (p: Phase) => calls.filter((c) => c.phase === p);
  const sc = (p: Phase, n?: 1 | 2, kind?: ScrapeKind) =>
    scrapes.filter((s) => s.phase === p && (!n || s.inst === n) && (!kind || s.kind === kind));

  // steady
  {
    const bad = inPhase('steady').filter((c) => c.status < 200 || c.status >= 300);
    check(
      'steady',
      'every API call succeeded',
      bad.length === 0,
      countBy(bad, (c) => `${c.status}/${c.code ?? c.error}`),
    );
    const badScrapes = sc('steady').filter((s) => s.status !== 200);
    check(
      'steady',
      'every scrape and probe answered 200',
      badScrapes.length === 0,
      countBy(badScrapes, (s) => `${s.inst} ${s.kind} ${s.status || s.error}`),
    );
  }
  // outage
  {
    const pc = inPhase('outage');
    const fiveHundreds = pc.filter((c) => c.status >= 500 && c.status !== 503);
    check(
      'outage',
      'no 5xx other than 503',
      fiveHundreds.length === 0,
      countBy(fiveHundreds, (c) => `${c.status}/${c.code}`),
    );
    const unanswered = pc.filter((c) => c.status === 0);
    check(
      'outage',
      'every API call answered',
      unanswered.length === 0,
      countBy(unanswered, (c) => c.error ?? ''),
    );
    const u = pc.filter((c) => c.status === 503);
    check('outage', 'API calls refused with 503 while the database is down', u.length > 0, `${u.length}`);
    const badU = u.filter((c) => c.code !== 2050 || c.retryAfter !== '5');
    check(
      'outage',
      'every 503 is status_code 2050 with Retry-After: 5',
      badU.length === 0,
      countBy(badU, (c) => `${c.code}/${c.retryAfter}`),
    );
    const slow = pc.filter((c) => c.status > 0 && c.ms > OUTAGE_ANSWER_MS);
    check(
      'outage',
      `every API answer within ${OUTAGE_ANSWER_MS / 1000} s`,
      slow.length === 0,
      `${slow.length} slower, max ${fmtMs(Math.max(0, ...pc.map((c) => c.ms)))}`,
    );
    for (const n of [1, 2] as const) {
      // Started once the outage settled and answered before the database was started again.
      const settled = (s: Scrape) => s.at >= r.stoppedAt + OUTAGE_SETTLE_MS && s.at + s.ms < phaseStart.recovery!;
      const m = sc('outage', n, 'metrics');
      const mBad = m.filter((s) => s.status !== 200);
      check(
        'outage',
        `instance ${n}: every metrics scrape answered 200`,
        m.length > 0 && mBad.length === 0,
        countBy(mBad, (s) => String(s.status || s.error)),
      );
      const mSlow = m.filter((s) => s.ms > OUTAGE_ANSWER_MS);
      check(
        'outage',
        `instance ${n}: every metrics scrape within ${OUTAGE_ANSWER_MS / 1000} s`,
        mSlow.length === 0,
        `max ${fmtMs(Math.max(0, ...m.map((s) => s.ms)))}`,
      );
      const up = m.filter((s) => settled(s) && s.values?.databaseUp !== 0);
      check(
        'outage',
        `instance ${n}: vachat_database_up 0 once the database is down`,
        up.length === 0,
        countBy(up, (s) => String(s.values?.databaseUp)),
      );
      const rd = sc('outage', n, 'ready').filter((s) => settled(s) && s.status !== 503);
      check(
        'outage',
        `instance ${n}: ready 503 once the database is down`,
        rd.length === 0,
        countBy(rd, (s) => String(s.status || s.error)),
      );
      const lv = sc('outage', n, 'live').filter((s) => s.status !== 200);
      check(
        'outage',
        `instance ${n}: live 200 throughout`,
        lv.length === 0,
        countBy(lv, (s) => String(s.status || s.error)),
      );
    }
  }
  // recovery
  {
    const pc = inPhase('recovery');
    const late = pc.filter((c) => c.at >= r.restartedAt + 5_000 && (c.status < 200 || c.status >= 300));
    check(
      'recovery',
      'API calls succeed again within 5 s of the restart',
      late.length === 0,
      countBy(late, (c) => `${c.status}/${c.code ?? c.error}`),
    );
    const bad500 = pc.filter((c) => c.status >= 500 && c.status !== 503);
    check(
      'recovery',
      'no 5xx other than 503',
      bad500.length === 0,
      countBy(bad500, (c) => `${c.status}/${c.code}`),
    );
    for (const n of [1, 2] as const) {
      const back = sc('recovery', n, 'metrics').filter((s) => s.at >= r.restartedAt + 5_000 && s.values?.databaseUp !== 1);
      check('recovery', `instance ${n}: vachat_database_up 1 again`, back.length === 0, `${back.length} scrapes still not 1`);
      const rd = sc('recovery', n, 'ready').filter((s) => s.at >= r.restartedAt + 5_000 && s.status !== 200);
      check(
        'recovery',
        `instance ${n}: ready 200 again`,
        rd.length === 0,
        countBy(rd, (s) => String(s.status || s.error)),
      );
    }
  }
  // burst and drain
  {
    const i2calls = [...inPhase('burst'), ...inPhase('drain')].filter((c) => c.inst === 2);
    // A pooled connection the stopped database ended can still be handed to a request well after the
    // restart: that request is refused like any other during an outage (README, "Database outage").
    const deadConnection = i2calls.filter((c) => c.status === 503 && c.code === 2050 && c.retryAfter === '5');
    const bad = i2calls.filter((c) => (c.status < 200 || c.status >= 300) && !deadConnection.includes(c));
    check(
      'burst+drain',
      'instance 2: every API call succeeded, or was refused 503/2050 with Retry-After',
      bad.length === 0,
      countBy(bad, (c) => `${c.status}/${c.code ?? c.error}`),
    );
    check(
      'burst+drain',
      `instance 2: at most DATABASE_POOL_SIZE (${POOL_SIZE}) calls refused on connections the stopped database had ended`,
      deadConnection.length <= POOL_SIZE,
      `${deadConnection.length}`,
    );
    const i2s = [...sc('burst', 2), ...sc('drain', 2)].filter((s) => s.status !== 200);
    check(
      'burst+drain',
      'instance 2: every scrape and probe answered 200',
      i2s.length === 0,
      countBy(i2s, (s) => `${s.kind} ${s.status || s.error}`),
    );
    const before = sc('burst', 1).filter((s) => s.status !== 200);
    check(
      'burst',
      'instance 1 before SIGTERM: every scrape and probe answered 200',
      before.length === 0,
      countBy(before, (s) => `${s.kind} ${s.status || s.error}`),
    );
    const after = sc('drain', 1);
    // Once the drain is over the server closes its listener and the process exits: a probe refused
    // in between is no failure (how long that takes depends on the machine's load), one refused and
    // then answered again would be.
    const lastAnswered = Math.max(0, ...after.filter((s) => s.status).map((s) => s.at));
    const untilExit = (s: Scrape, ok: boolean) =>
      ok || (s.error === 'ECONNREFUSED' && s.at > lastAnswered) || (i1.exitedAt !== undefined && s.at + s.ms >= i1.exitedAt - 100);
    const readyAfter = after.filter((s) => s.kind === 'ready');
    check(
      'drain',
      'instance 1 after SIGTERM: ready never 200',
      readyAfter.every((s) => s.status !== 200),
      countBy(readyAfter, (s) => String(s.status || s.error)),
    );
    check(
      'drain',
      'instance 1 after SIGTERM: ready answered 503 (not refused) until the exit',
      readyAfter.length > 0 && readyAfter.every((s) => untilExit(s, s.status === 503)),
      countBy(readyAfter, (s) => String(s.status || s.error)),
    );
    const liveAfter = after.filter((s) => s.kind === 'live');
    check(
      'drain',
      'instance 1 after SIGTERM: live 200 until the exit',
      liveAfter.length > 0 && liveAfter.every((s) => untilExit(s, s.status === 200)),
      countBy(liveAfter, (s) => String(s.status || s.error)),
    );
    const metricsAfter = after.filter((s) => s.kind === 'metrics');
    check(
      'drain',
      'instance 1 after SIGTERM: metrics answered 200 until the exit',
      metricsAfter.length > 0 && metricsAfter.every((s) => untilExit(s, s.status === 200)),
      countBy(metricsAfter, (s) => String(s.status || s.error)),
    );
    check('drain', 'instance 1 exited with 0', i1.exitCode === 0, `exit ${i1.exitCode}`);
    const took = i1.exitedAt && i1.sigtermAt ? i1.exitedAt - i1.sigtermAt : Number.NaN;
    check('drain', `instance 1 exited within SHUTDOWN_GRACE_MS + 5 s`, took <= SHUTDOWN_GRACE_MS + 5_000, fmtMs(took));
    check('drain', 'instance 2 still running at the end', !i2.exitedAt, i2.exitedAt ? `exit ${i2.exitCode}` : 'running');
    const api1 = calls.filter((c) => c.inst === 1 && c.phase === 'drain');
    say('## instance 1 after SIGTERM');
    say();
    say(
      `Calls in flight at its last scrape before SIGTERM: ${inFlightAtSigterm ?? 'unknown'}. Exit code ${i1.exitCode} after ${fmtMs(took)}. Its scrapes from SIGTERM to the exit: ${[
        'metrics',
        'ready',
        'live',
      ]
        .map(
          (k) =>
            `${k} ${countBy(
              after.filter((s) => s.kind === k),
              (s) => (s.status ? String(s.status) : (s.error ?? 'error')),
            )}`,
        )
        .join('; ')}.`,
    );
    say(
      `API calls the load balancer still sent it before a failed ready probe took it out: ${api1.length} (${countBy(api1, (c) => (c.status ? `${c.status}` : `no answer (${c.error})`))}).`,
    );
    const timeline = after.map(
      (s) =>
        `+${((s.at - i1.sigtermAt!) / 1000).toFixed(1)}s ${s.kind} ${s.status || s.error}${s.values?.inFlight !== undefined ? ` (in flight ${s.values.inFlight})` : ''}`,
    );
    say(`Timeline: ${timeline.join(', ') || '-'}.`);
    say();
  }
  // delivery to the healthy VA
  {
    const byTx = new Map(r.bEvents.map((e) => [e.transactionId, e]));
    const arrivals = new Map<string, number[]>();
    const order = new Map<string, number[]>();
    let unknown = 0;
    for (const req of r.received) {
      const tx = String(req.headers['webhook-id']);
      const e = byTx.get(tx);
      if (!e) {
        unknown++;
        continue;
      }
      arrivals.set(tx, [...(arrivals.get(tx) ?? []), req.at]);
      order.set(e.chatId, [...(order.get(e.chatId) ?? []), e.seq]);
    }
    const delivered = r.bEvents.filter((e) => e.status === 'delivered');
    const missing = delivered.filter((e) => !arrivals.has(e.transactionId));
    const dupeIds = [...arrivals.entries()].filter(([, a]) => a.length > 1).map(([tx]) => tx);
    const dupes = dupeIds.map((tx) => arrivals.get(tx) as number[]);
    // Delivery is at least once: an attempt answered 200 while the database was down could not be
    // recorded, its lease ran out, and the event was sent again (the receiver dedupes by webhook-id).
    // Those events are named in the instances' logs; a duplicate of any other event is a fault.
    const unrecorded = new Set<number>();
    for (const inst of [i1, i2]) {
      for (const l of inst.out) {
        if (!l.includes('webhook attempts could not be recorded')) continue;
        try {
          for (const id of (JSON.parse(l) as { eventIds?: number[] }).eventIds ?? []) unrecorded.add(id);
        } catch {
          // not a log line
        }
      }
    }
    const unexplained = dupeIds.filter((tx) => !unrecorded.has(byTx.get(tx)?.id as number));
    const outOfOrder = [...order.values()].filter((seqs) => seqs.some((s, i) => i > 0 && s < seqs[i - 1]));
    const notDelivered = r.bEvents.filter((e) => e.status !== 'delivered');
    say('## delivery to the healthy VA (tenant B)');
    say();
    say(
      `Events in the table: ${r.bEvents.length} (${countBy(r.bEvents, (e) => e.status)}); requests at its receiver: ${r.received.length}; distinct webhook-ids: ${arrivals.size}; duplicates: ${dupes.length}; unknown ids: ${unknown}; chats out of order: ${outOfOrder.length}.`,
    );
    say(
      `Noisy VA: ${r.aEvents.length} events (${countBy(r.aEvents, (e) => e.status)}), ${r.hangingCalls} calls reached its hanging endpoint.`,
    );
    check(
      'end',
      'every event of B is delivered (none pending or failed)',
      notDelivered.length === 0,
      countBy(notDelivered, (e) => e.status),
    );
    check('end', "B's receiver got every delivered event", missing.length === 0, `${missing.length} missing`);
    check(
      'end',
      "B's receiver got each event once, or again only after its delivery could not be recorded during the outage",
      unexplained.length === 0 && unknown === 0,
      `${dupes.length} duplicated (${dupes.length - unexplained.length} of them logged as not recorded), ${unknown} unknown`,
    );
    check('end', "B's receiver got each chat's events in order", outOfOrder.length === 0, `${outOfOrder.length} chats out of order`);
    say();
    say('| events created in | events | delivery latency p50 | p99 | max |');
    say('|---|---|---|---|---|');
    const latencyOf = (e: EventRow) => (arrivals.get(e.transactionId)?.[0] ?? Number.NaN) - e.createdAt.getTime();
    for (const p of PHASES) {
      const start = phaseStart[p]!;
      const next = PHASES.slice(PHASES.indexOf(p) + 1).find((q) => phaseStart[q]);
      const end = next ? phaseStart[next]! : Number.POSITIVE_INFINITY;
      const es = r.bEvents.filter((e) => e.createdAt.getTime() >= start && e.createdAt.getTime() < end && arrivals.has(e.transactionId));
      const l = es.map(latencyOf);
      say(`| ${p} | ${es.length} | ${fmtMs(quantile(l, 0.5))} | ${fmtMs(quantile(l, 0.99))} | ${fmtMs(Math.max(0, ...l))} |`);
    }
    say();
  }
  // anywhere
  {
    const fiveHundreds = calls.filter((c) => c.status >= 500 && c.status !== 503);
    check(
      'all',
      'no 500s in the whole drill',
      fiveHundreds.length === 0,
      countBy(fiveHundreds, (c) => `${c.phase} ${c.status}/${c.code}`),
    );
    const circuit = scrapes.filter((s) => s.values?.circuitA === 'open' || s.values?.circuitA === 'half-open').length;
    check('all', "the noisy VA's circuit was seen open", circuit > 0, `${circuit} scrapes`);
  }

  // --- what the instances logged: why requests got 2050, and uncaught exceptions
  {
    say("## from the instances' logs");
    say();
    const settledAt = r.restartedAt + 5_000;
    const phaseOf = (at: number) => [...PHASES].reverse().find((p) => (phaseStart[p] ?? Number.POSITIVE_INFINITY) <= at) ?? 'start';
    for (const inst of [i1, i2]) {
      const reasons: { at: number; reason: string }[] = [];
      for (const l of inst.out) {
        if (!l.startsWith('{')) continue;
        try {
          const j = JSON.parse(l) as { time?: string; msg?: string; reason?: string; err?: { code?: string } };
          const at = j.time ? Date.parse(j.time) : 0;
          if (j.msg === 'database unavailable') reasons.push({ at, reason: String(j.reason) });
          else if (j.err?.code) reasons.push({ at, reason: `${j.err.code} (${j.msg})` });
        } catch {
          // not a log line
        }
      }
      const uncaught = [...new Set(inst.out.filter((l) => l.includes('uncaughtException')))];
      say(
        `- instance ${inst.n}: database errors logged, by phase: ${countBy(reasons, (x) => `${phaseOf(x.at)} ${x.reason}`)}; uncaught exceptions: ${uncaught.length ? uncaught.join('; ') : 'none'}`,
      );
      check('all', `instance ${inst.n}: no uncaught exception`, uncaught.length === 0, uncaught.join('; '));
      const settled = reasons.filter((x) => x.at >= settledAt);
      // 57P01 ("terminating connection due to administrator command") and a closed connection are
      // what a pooled connection from before the stop says on its first use, once each.
      const late = settled.filter((x) => !/^(57P01|CONNECTION_CLOSED)\b/.test(x.reason));
      check(
        'recovery+',
        `instance ${inst.n}: no database error logged from restart + 5 s on, other than at most ${POOL_SIZE} from connections ended by the stop`,
        late.length === 0 && settled.length - late.length <= POOL_SIZE,
        countBy(settled, (x) => `${phaseOf(x.at)} ${x.reason}`),
      );
    }
    say();
  }

  say('## checks');
  say();
  say('| phase | check | result | detail |');
  say('|---|---|---|---|');
  for (const c of checks) say(`| ${c.phase} | ${c.what} | ${c.ok ? 'pass' : '**FAIL**'} | ${c.detail} |`);
  const failed = checks.filter((c) => !c.ok);
  say();
  say(failed.length ? `**${failed.length} of ${checks.length} checks failed.**` : `All ${checks.length} checks passed.`);
  process.stdout.write(`${lines.join('\n')}\n`);
  if (failed.length) {
    for (const i of [i1, i2]) {
      const tail = i.out.filter((l) => !l.startsWith('{') || /"level":(40|50|60)/.test(l)).slice(-15);
      if (tail.length) process.stderr.write(`\ninstance ${i.n}, last lines of its output:\n${tail.join('\n')}\n`);
    }
  }
  return failed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`drill failed: ${(err as Error).stack ?? err}\n`);
    process.exit(2);
  },
);
