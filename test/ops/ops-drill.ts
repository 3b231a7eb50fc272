/**
 * The operational drill's machinery: what it starts, drives and records. Its checks and its report
 * are test/ops/ops-drill.integration.test.ts's, one case per phase.
 *
 * A private PostgreSQL cluster (initdb/pg_ctl, as the `postgres` user when run as root), two
 * production servers (`node scripts/start.mjs`, the build in .next) on it, a noisy neighbour
 * (tenant A's VA points at an endpoint that never answers) beside a healthy tenant B whose receiver
 * records every delivery. Load goes through both instances while /api/metrics, /api/health/ready
 * and /api/health/live of both are scraped every second. Phases: steady, the database stopped
 * (`pg_ctl stop -m fast`), recovery, a burst with SIGTERM to instance 1 in its middle, and that
 * instance's drain. They run one after the other whatever a check finds; each case waits for its
 * phase to be over and every call and scrape begun in it to be answered.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { closeDb, getDb, openPostgres, setHandle } from '@/db/client';
import { events } from '@/db/schema';
import { resetEnv } from '@/env';
import { startReceiver } from '../delivery/receiver';
import { createPrivateCluster, freePort, privateClusterUnavailable } from '../support/private-cluster';
import { type ProductionServer, startProductionServer, waitForServer } from '../support/production-server';
import { createTenant } from '../support/tenant';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export const PHASE_MS = Number(process.env.DRILL_PHASE_MS ?? 15_000);
const BURST_BEFORE_SIGTERM_MS = 5_000;
const CLIENT_TIMEOUT_MS = 10_000;
export const SHUTDOWN_GRACE_MS = 10_000;
const METRICS_TOKEN = `drill-${Math.random().toString(36).slice(2)}`;
/** The instances' DATABASE_POOL_SIZE (the default). */
export const POOL_SIZE = 10;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A deadline raced against an exit: once the exit won, it does not keep the test process alive. */
const deadline = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());
let t0 = Date.now();
/** Progress on stderr, which the test runner passes on as it comes. */
const log = (line: string) => process.stderr.write(`[drill +${((Date.now() - t0) / 1000).toFixed(1)}s] ${line}\n`);

// ---------------------------------------------------------------------------------------------
// Records

export type Phase = 'steady' | 'outage' | 'recovery' | 'burst' | 'drain';
export const PHASES: Phase[] = ['steady', 'outage', 'recovery', 'burst', 'drain'];

type Instance = ProductionServer & {
  n: 1 | 2;
  exitCode?: number | null;
  exitedAt?: number;
  sigtermAt?: number;
  /** What the drill's load balancer knows: false once a ready probe failed after SIGTERM. */
  inRotation: boolean;
};

export type ApiCall = {
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

export type ScrapeKind = 'metrics' | 'ready' | 'live';
export type Scrape = {
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

export type EventRow = { id: number; transactionId: string; chatId: string; seq: number; status: string; createdAt: Date };

/** The start with bad variables. */
type BadStart = { code: number | null | 'timeout'; ms: number; problems: string[]; out: string[]; secret: string };

/** What the drill left to compare once the drain is over and instance 2 has delivered what it could. */
type Outcome = {
  bEvents: EventRow[];
  aEvents: { status: string }[];
  bPending: number;
  received: { headers: Record<string, unknown>; at: number }[];
  hangingCalls: number;
};

export type DrillRun = {
  t0: number;
  loadAtStart: string[];
  vaA: number;
  vaB: number;
  i1: Instance;
  i2: Instance;
  badStart: BadStart;
  calls: ApiCall[];
  scrapes: Scrape[];
  phaseStart: Partial<Record<Phase, number>>;
  /** When the drain was over: the load and the scrapers stopped. */
  endedAt?: number;
  stoppedAt?: number;
  restartedAt?: number;
  /** vachat_delivery_in_flight of instance 1 at its last scrape before SIGTERM. */
  inFlightAtSigterm?: number;
  /** Resolves once `phase` is over and every call and scrape begun in it is recorded; rejects with DrillStopped when the drill stopped before. */
  settled(phase: Phase): Promise<void>;
  /** Resolves after the drain, once instance 2 delivered what it could (60 s at most); rejects with DrillStopped when the drill stopped before. */
  finished(): Promise<Outcome>;
};

/** The drill could not go on (not a failed check: an error driving it), in `phase` or after the drain (`end`). */
export class DrillStopped extends Error {
  constructor(
    readonly phase: Phase | 'end',
    cause: unknown,
  ) {
    super(`the drill stopped during ${phase}: ${(cause as Error)?.message ?? cause}`, { cause });
  }
}

type Deferred<T> = { promise: Promise<T>; resolve(value: T): void; reject(err: unknown): void };
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((a, b) => {
    resolve = a;
    reject = b;
  });
  // A case skipped or never reached does not wait for it: no unhandled rejection then.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

function errorName(err: unknown): string {
  const e = err as { name?: string; cause?: { code?: string }; code?: unknown };
  if (e.name === 'TimeoutError') return `no answer within ${CLIENT_TIMEOUT_MS / 1000} s`;
  return e.cause?.code ?? (typeof e.code === 'string' ? e.code : undefined) ?? e.name ?? 'error';
}

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

/**
 * The drill: `start()` sets everything up (cluster, seed, the start with bad variables, both
 * instances ready) and sets the scrapers, the load and the phases going; `cleanUp()` removes
 * whatever it started, from whatever point it got to. SIGINT or SIGTERM meanwhile kills the
 * servers and removes the cluster before the process ends.
 */
export function opsDrill(): { start(): Promise<DrillRun>; cleanUp(): Promise<void> } {
  const cleanups: Array<() => Promise<void> | void> = [];
  /** For a signal: synchronous, so that nothing the runner does on the same signal cuts it short. */
  const onSignal: Array<() => void> = [];
  const interrupted = () => {
    log('interrupted: killing the servers and removing the cluster');
    for (const f of onSignal.reverse()) f();
    process.exit(130);
  };
  return {
    start: async () => {
      process.prependOnceListener('SIGINT', interrupted);
      process.prependOnceListener('SIGTERM', interrupted);
      return start(cleanups, onSignal);
    },
    cleanUp: async () => {
      // Each one whatever the one before did.
      for (const c of cleanups.reverse()) {
        try {
          await c();
        } catch (err) {
          log(`cleanup: ${(err as Error).message}`);
        }
      }
      process.off('SIGINT', interrupted);
      process.off('SIGTERM', interrupted);
    },
  };
}

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
      // The test runner's settings for its own suites (scripts/test.mjs) are not the servers':
      // they run with the defaults of a deployment.
      VALIDATE_RESPONSES: undefined,
      BOT_REQUEST_LOG_SAMPLE_RATE: undefined,
      ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: undefined,
      TEST_DB_TEMPLATE: undefined,
      TEST_PGLITE_TEMPLATE: undefined,
      ...extraEnv,
    },
    (line) => file?.write(`${line}\n`),
  );
  const inst: Instance = { n, ...server, inRotation: true };
  inst.exited = server.exited.then((code) => {
    inst.exitCode = code;
    inst.exitedAt = Date.now();
    file?.end();
    return code;
  });
  return inst;
}

async function start(cleanups: Array<() => Promise<void> | void>, onSignal: Array<() => void>): Promise<DrillRun> {
  const missing = privateClusterUnavailable();
  if (missing) throw new Error(`${missing}: the drill needs PostgreSQL's server tools (initdb, pg_ctl)`);
  t0 = Date.now();
  const loadAtStart = os.loadavg().map((x) => x.toFixed(2));
  if (!fs.existsSync(path.join(ROOT, '.next', 'BUILD_ID')))
    log('no build in .next: instance 1 builds first (npm start does; about a minute)');

  // --- cluster
  const pgPort = await freePort();
  const cluster = createPrivateCluster(pgPort);
  cleanups.push(() => {
    try {
      if (process.env.DRILL_LOG_DIR) fs.copyFileSync(cluster.logFile, path.join(process.env.DRILL_LOG_DIR, 'postgresql.log'));
    } finally {
      cluster.remove();
    }
  });
  onSignal.push(() => cluster.remove());
  const databaseUrl = cluster.url;
  log(`PostgreSQL cluster on port ${pgPort}`);

  // --- migrate and seed through the drill's own handle (the servers then find a migrated database),
  // which is quiet and may reach private receivers.
  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'error',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    DATABASE_CONNECT_TIMEOUT_SECONDS: '2',
  });
  resetEnv();
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

  const instances: Instance[] = [];
  cleanups.push(async () => {
    for (const i of instances) if (!i.exitedAt) i.child.kill('SIGKILL');
    await Promise.all(instances.map((i) => i.exited));
  });
  onSignal.push(() => {
    for (const i of instances) if (!i.exitedAt) i.child.kill('SIGKILL');
  });

  // --- bad variables at start: a non-zero exit at once, one line per problem, no secret's value
  let badStart: BadStart;
  {
    const secret = 'too-short';
    const started = Date.now();
    const bad = startInstance(1, await freePort(), databaseUrl, { ACCESS_TOKEN_TTL_SECONDS: '4', METRICS_TOKEN: secret });
    instances.push(bad);
    const code = await Promise.race([bad.exited, deadline(300_000).then(() => 'timeout' as const)]);
    if (code === 'timeout') bad.child.kill('SIGKILL');
    await bad.exited;
    instances.pop();
    const problems = bad.out.filter((l) => l.startsWith('Invalid configuration: '));
    badStart = { code, ms: Date.now() - started, problems, out: bad.out, secret };
    log(`bad variables: exit ${code} after ${badStart.ms} ms, ${problems.length} problem lines`);
  }

  // --- servers (instance 1 first: it builds when the build is missing or stale, as npm start does)
  const i1 = startInstance(1, await freePort(), databaseUrl);
  instances.push(i1);
  await waitForServer(i1, 300_000, '/api/health/ready');
  const i2 = startInstance(2, await freePort(), databaseUrl);
  instances.push(i2);
  await waitForServer(i2, 120_000, '/api/health/ready');
  log(`instances ready: ${i1.base} (pid ${i1.child.pid}), ${i2.base} (pid ${i2.child.pid})`);

  // --- phases and what was begun in each
  let phase: Phase = 'steady';
  const phaseStart: Partial<Record<Phase, number>> = {};
  const over = Object.fromEntries(PHASES.map((p) => [p, deferred<void>()])) as Record<Phase, Deferred<void>>;
  const begun = Object.fromEntries(PHASES.map((p) => [p, new Set<Promise<void>>()])) as Record<Phase, Set<Promise<void>>>;
  const finished = deferred<Outcome>();
  const track = (p: Phase, work: Promise<void>) => {
    begun[p].add(work);
    return work;
  };
  const enter = (p: Phase) => {
    const previous = phase;
    phase = p;
    phaseStart[p] = Date.now();
    log(`phase ${p}`);
    if (p !== previous) over[previous].resolve();
  };

  const calls: ApiCall[] = [];
  const scrapes: Scrape[] = [];
  const run: DrillRun = {
    t0,
    loadAtStart,
    vaA,
    vaB,
    i1,
    i2,
    badStart,
    calls,
    scrapes,
    phaseStart,
    settled: async (p) => {
      await over[p].promise;
      await Promise.all(begun[p]);
    },
    finished: () => finished.promise,
  };

  // --- scrapers
  let scraping = true;
  function scrape(inst: Instance, kind: ScrapeKind): Promise<void> {
    const at = Date.now();
    const p = phase;
    const url = `${inst.base}/api/${kind === 'metrics' ? 'metrics' : `health/${kind}`}`;
    return track(
      p,
      (async () => {
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
      })(),
    );
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
  function api(
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
    const answer = (async () => {
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
    })();
    track(
      ph,
      answer.then(() => {}),
    );
    return answer;
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
  // Cleaning up before the phases are through (an interrupted or broken run): no more requests.
  cleanups.push(async () => {
    loading = false;
    scraping = false;
    await Promise.all([...workers, scrapeLoop]);
  });

  // --- the phases, one after the other, whatever the cases find
  let draining = true;
  const phases = async (): Promise<Outcome> => {
    enter('steady');
    await sleep(PHASE_MS);

    enter('outage');
    const stopStarted = Date.now();
    await cluster.stopAsync();
    run.stoppedAt = Date.now();
    log(`database stopped (pg_ctl took ${run.stoppedAt - stopStarted} ms)`);
    await sleep(PHASE_MS);

    enter('recovery');
    await cluster.startAsync();
    run.restartedAt = Date.now();
    log(`database started again (${run.restartedAt - phaseStart.recovery!} ms)`);
    await sleep(PHASE_MS);

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
    run.inFlightAtSigterm = scrapes.filter((s) => s.inst === 1 && s.kind === 'metrics' && s.values).at(-1)?.values?.inFlight;
    i1.sigtermAt = Date.now();
    i1.child.kill('SIGTERM');
    log('SIGTERM sent to instance 1');
    enter('drain');
    // One round at once, so a short drain is seen too.
    await sleep(20);
    for (const kind of ['metrics', 'ready', 'live'] as const) void scrape(i1, kind);
    const exitDeadline = SHUTDOWN_GRACE_MS + 20_000;
    await Promise.race([i1.exited, deadline(exitDeadline)]);
    if (!i1.exitedAt) log(`instance 1 still running ${exitDeadline} ms after SIGTERM`);
    else log(`instance 1 exited with ${i1.exitCode} after ${i1.exitedAt - i1.sigtermAt} ms`);
    await sleep(3_000);
    loading = false;
    await Promise.all(workers);
    bWorkers = 0;

    // --- let instance 2 deliver what is left for B (its scrapes go on, still the drain's)
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
    run.endedAt = Date.now();
    draining = false;
    over.drain.resolve();
    await run.settled('drain');

    // --- the events table against the receiver
    const bEvents = await db.select().from(events).where(eq(events.virtualAgentId, vaB));
    const aEvents = await db.select({ status: events.status }).from(events).where(eq(events.virtualAgentId, vaA));
    return { bEvents, aEvents, bPending, received: healthy.requests, hangingCalls: hanging.requests.length };
  };
  phases().then(finished.resolve, (err) => {
    const stopped = new DrillStopped(draining ? phase : 'end', err);
    log(stopped.message);
    for (const p of PHASES.slice(PHASES.indexOf(phase))) over[p].reject(stopped);
    finished.reject(stopped);
  });
  return run;
}
