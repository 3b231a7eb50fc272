/**
 * npm run bench:pull: pulled events (GET /api/v1/events, the event stream) on PostgreSQL against
 * production servers (`node scripts/start.mjs` of the build, on ports BENCH_PORT (3331) and +1),
 * written to BENCHMARKS.md between `<!-- bench:pull:start -->` and `<!-- bench:pull:end -->`.
 *
 *   (a) arrival on an open stream, one instance: inbound messages POSTed over HTTP to server A at
 *       BENCH_PULL_RATE/s (50) for BENCH_PULL_SECONDS (10), the stream held on A. The commit happens
 *       inside the request, so two times are given: from the request's start (an upper bound of
 *       commit to arrival) and from its answer (a lower bound);
 *   (b) the same with the stream held on server B (the wake crosses instances by LISTEN/NOTIFY);
 *   (c) commit to arrival exactly, across instances: this process is an instance of its own (the
 *       app's code, realtime connected), commits each message and stamps the time the commit
 *       returned; the stream is held on A;
 *   (d) draining a backlog of BENCH_PULL_BACKLOG (20,000) events over 100 chats by long-poll pages
 *       of 500 from A (each page acknowledging the previous one), against A's embedded webhook
 *       engine draining a backlog of the same shape to a receiver in this process;
 *   (e) BENCH_PULL_STREAM_VAS (400) pull VAs × 5 streams (the API's limit per VA) open on A:
 *       a fresh A's resident memory before and after (per stream), then events committed at
 *       BENCH_PULL_FANOUT_RATE/s (500) for BENCH_PULL_FANOUT_SECONDS (20) spread over the VAs, each
 *       reaching its VA's 5 streams: commit to arrival p50/p99.
 *
 * Runs on a PostgreSQL cluster of its own (initdb in a temporary directory, port BENCH_PORT + 10,
 * removed at the end): a pulled event is given once it is below every snapshot's xmin, and that
 * horizon is the whole server's, so another user's long transaction on a shared server (another
 * bench loading data) would hold every event back and the figures would measure that user.
 * BENCH_PULL_SHARED_PG=1 uses DATABASE_URL's server instead (default
 * postgres://postgres@127.0.0.1:5432/postgres), in a database of its own dropped at the end.
 * Needs the build (`npm run build`). BENCH_WRITE=0: print only.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createPrivateCluster, privateClusterUnavailable } from '@/test/support/private-cluster';
import { startProductionServer, stopProductionServer, waitForServer } from '@/test/support/production-server';
import { readSse } from '@/test/support/sse';
import { quantile } from '@/test/support/stats';
import { writeSection } from './report';

const ROOT = process.cwd();
const SHARED_PG = process.env.BENCH_PULL_SHARED_PG === '1';
let BASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PORT0 = Number(process.env.BENCH_PORT ?? 3331);
const RATE = Number(process.env.BENCH_PULL_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_PULL_SECONDS ?? 10);
const BACKLOG = Number(process.env.BENCH_PULL_BACKLOG ?? 20_000);
const BACKLOG_CHATS = 100;
const PAGE = 500;
const STREAM_VAS = Number(process.env.BENCH_PULL_STREAM_VAS ?? 400);
const STREAMS_PER_VA = 5;
const FANOUT_RATE = Number(process.env.BENCH_PULL_FANOUT_RATE ?? 500);
const FANOUT_SECONDS = Number(process.env.BENCH_PULL_FANOUT_SECONDS ?? 20);
const MARK_START = '<!-- bench:pull:start -->';
const MARK_END = '<!-- bench:pull:end -->';

const nowMs = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (...a: unknown[]) => console.log(`[bench:pull ${new Date().toISOString().slice(11, 19)}]`, ...a);
const load = () => os.loadavg().map((l) => l.toFixed(2));
const uptimeLine = () => {
  try {
    return fs.readFileSync('/proc/loadavg', 'utf8').trim();
  } catch {
    return load().join(' ');
  }
};

const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

type Server = { base: string; child: ChildProcess; stop: () => Promise<void> };
const closers: (() => Promise<void>)[] = [];

async function startServer(port: number, databaseUrl: string): Promise<Server> {
  const server = startProductionServer(
    port,
    {
      DATABASE_URL: databaseUrl,
      DELIVERY_ENGINE: 'embedded',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000000000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    (line) => console.log(line),
    { keepOutput: false },
  );
  const stop = () => stopProductionServer(server);
  closers.push(stop);
  await waitForServer(server, 180_000);
  return { base: server.base, child: server.child, stop };
}

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

type Item = { cursor: string; webhook_id: string; body: string };

/** One open event stream; `onItem` gets each item with the time it arrived. */
async function openStream(base: string, token: string, onItem: (item: Item, at: number) => void) {
  const abort = new AbortController();
  const res = await fetch(`${base}/api/v1/events/stream`, { headers: { access_token: token }, signal: abort.signal });
  if (res.status !== 200 || !res.body) throw new Error(`stream: ${res.status} ${await res.text()}`);
  const sse = readSse(res.body as ReadableStream<Uint8Array>, {
    keep: false,
    onFrame: (f) => {
      if (f.json) onItem(f.json as Item, f.at);
    },
  });
  return {
    close: async () => {
      abort.abort();
      await sse.close();
    },
  };
}

const textOf = (item: Item): string | undefined => {
  const body = JSON.parse(item.body) as { payload?: { messages?: { text?: string }[] } };
  return body.payload?.messages?.[0]?.text;
};

type Latency = { samples: number; missing: number; p50: number; p99: number; max: number; answerP50: number; answerP99: number };

function stats(fromStart: number[], fromAnswer: number[], missing: number): Latency {
  return {
    samples: fromStart.length,
    missing,
    p50: quantile(fromStart, 0.5),
    p99: quantile(fromStart, 0.99),
    max: Math.max(...fromStart),
    answerP50: quantile(fromAnswer, 0.5),
    answerP99: quantile(fromAnswer, 0.99),
  };
}

type App = {
  botApi: typeof import('@/test/support/api-client').botApi;
  createVirtualAgent: typeof import('@/lib/virtual-agents/create-virtual-agent').createVirtualAgent;
  authorize: typeof import('@/lib/bot-auth/authorize').authorize;
  signalOutbox: typeof import('@/lib/events/signal').signalOutbox;
};
type Tenant = Awaited<ReturnType<typeof import('@/test/support/tenant').createTenant>>;
type Db = import('@/db/client').Db;

/** What every case runs against: the database, one tenant with a pull VA and 20 chats, servers A and B. */
type Setup = {
  app: App;
  db: Db;
  sql: import('postgres').Sql;
  dbUrl: string;
  version: string;
  loadStart: string;
  t: Tenant;
  chats: string[];
  a: Server;
  b: Server;
  newChat: (token: string, asset: number, assignee: string, i: number) => Promise<string>;
  makeVa: (name: string, mode: 'pull' | 'webhook', webhookUrl: string | null) => Promise<{ id: number; loginId: string; token: string }>;
};

/** A case runs against the setup and answers its part of the report. */
type Case = { name: string; run: (s: Setup) => Promise<string[]> };

/** The cases, in the order they run (each may stop or restart servers the next ones do not use). */
const CASES: Case[] = [
  { name: '(a)-(c) arrival on an open stream', run: arrivalCases },
  { name: '(d) draining a backlog', run: backlogCase },
  { name: '(e) many streams on one instance', run: manyStreamsCase },
];

async function main() {
  const s = await setUp();
  const sections: string[][] = [];
  for (const c of CASES) sections.push(await c.run(s));
  const report = [MARK_START, ...intro(s, uptimeLine()), ...sections.flat(), MARK_END].join('\n');
  console.log(`\n${report}`);
  if (process.env.BENCH_WRITE !== '0') {
    writeSection(path.join(ROOT, 'BENCHMARKS.md'), report, { start: MARK_START, end: MARK_END });
    log('wrote the bench:pull section of BENCHMARKS.md');
  }
}

/** A database of its own (on a private cluster unless BENCH_PULL_SHARED_PG=1), the tenant, and servers A and B. */
async function setUp(): Promise<Setup> {
  if (!SHARED_PG) {
    const why = privateClusterUnavailable();
    if (why) throw new Error(`bench:pull needs a private PostgreSQL cluster (${why}); BENCH_PULL_SHARED_PG=1 uses DATABASE_URL's`);
    const cluster = createPrivateCluster(PORT0 + 10);
    closers.unshift(async () => cluster.remove());
    BASE_URL = cluster.url;
    log(`private PostgreSQL cluster on ${cluster.port}`);
  }
  const host = new URL(BASE_URL).hostname;
  if (!['127.0.0.1', 'localhost', '::1'].includes(host)) throw new Error(`bench:pull runs against a local PostgreSQL only (${host})`);
  const loadStart = uptimeLine();
  Object.assign(process.env, {
    WEBHOOK_ALLOW_PRIVATE: 'true',
    DELIVERY_ENGINE: 'off',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '1000000000',
  });
  const { default: postgres } = await import('postgres');
  const { openPostgres, setHandle } = await import('@/db/client');
  const { connectOutboxSignal, signalOutbox } = await import('@/lib/events/signal');
  const { createTenant } = await import('@/test/support/tenant');
  const { botApi } = await import('@/test/support/api-client');
  const { updateVirtualAgent } = await import('@/lib/virtual-agents/update-virtual-agent');
  const { createVirtualAgent } = await import('@/lib/virtual-agents/create-virtual-agent');
  const { authorize } = await import('@/lib/bot-auth/authorize');

  const adminSql = postgres(BASE_URL, { max: 1, onnotice: () => {} });
  const dbName = `va_bench_pull_${process.pid}_${randomBytes(3).toString('hex')}`;
  await adminSql.unsafe(`CREATE DATABASE ${dbName}`);
  closers.splice(SHARED_PG ? 0 : 1, 0, async () => {
    await adminSql.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await adminSql.end();
  });
  const dbUrl = new URL(BASE_URL);
  dbUrl.pathname = `/${dbName}`;
  const handle = await openPostgres(dbUrl.toString(), { migrate: true });
  closers.push(handle.close);
  setHandle(handle);
  const db = handle.db;
  // This process is an instance too: its commits wake the servers' streams by NOTIFY.
  await connectOutboxSignal(db, { listen: false });
  const sql = postgres(dbUrl.toString(), { max: 10, onnotice: () => {} });
  closers.push(() => sql.end({ timeout: 5 }));
  const [{ version }] = await sql<{ version: string }[]>`select version()`;

  const newChat = async (token: string, asset: number, assignee: string, i: number) => {
    const r = await botApi('POST', '/chats', {
      token,
      body: { channel: 'sms', asset_id: asset, customer: { destination_id: `+1555${String(i).padStart(7, '0')}` }, assignee },
    });
    if (r.status !== 201) throw new Error(`POST /chats: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.response.chat_id as string;
  };
  const makeVa = async (name: string, mode: 'pull' | 'webhook', webhookUrl: string | null) => {
    const va = await createVirtualAgent(db, {
      accountId: t.account.id,
      name,
      description: 'bench',
      deliveryMode: mode,
      webhookUrl,
      teamId: t.botTeam.id,
      subscriptions: ['chat.assigned', 'message.received'],
    });
    const issued = await authorize(db, { apiKey: va.apiKey });
    return { id: va.user.id, loginId: va.user.loginId, token: issued.accessToken };
  };

  // One pull VA with 20 chats for the latency cases.
  const t = await createTenant(db);
  await updateVirtualAgent(db, { accountId: t.account.id, id: t.bot.user.id, patch: { delivery_mode: 'pull', webhook_url: null } });
  const chats: string[] = [];
  for (let i = 0; i < 20; i++) chats.push(await newChat(t.token, t.assets.sms.id, t.bot.user.loginId, i));
  log(`database ${dbName}; starting two production servers on ${PORT0} and ${PORT0 + 1}`);

  const a = await startServer(PORT0, dbUrl.toString());
  const b = await startServer(PORT0 + 1, dbUrl.toString());
  return {
    app: { botApi, createVirtualAgent, authorize, signalOutbox },
    db,
    sql,
    dbUrl: dbUrl.toString(),
    version,
    loadStart,
    t,
    chats,
    a,
    b,
    newChat,
    makeVa,
  };
}

/** The stream arrival cases: where the message is committed and where the stream is held. */
const ARRIVALS: { label: string; stream: 'a' | 'b'; commit: 'http-a' | 'in-process'; row?: string }[] = [
  // Warms both servers' paths once (not measured).
  { label: 'warm', stream: 'a', commit: 'http-a' },
  { label: 'single', stream: 'a', commit: 'http-a', row: '(a) one instance: POST to A, stream on A' },
  { label: 'two', stream: 'b', commit: 'http-a', row: '(b) two instances: POST to A, stream on B' },
  { label: 'exact', stream: 'a', commit: 'in-process', row: '(c) commit in another instance, stream on A' },
];

/** (a), (b), (c): messages at RATE/s, each timed from its commit to its arrival on a stream; B is stopped after. */
async function arrivalCases(s: Setup): Promise<string[]> {
  const token = s.t.token;
  const commits = {
    'http-a': async (chat: string, text: string) => {
      const res = await fetch(`${s.a.base}/api/v1/chats/${chat}/messages`, {
        method: 'POST',
        headers: { access_token: token, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'inbound', text }),
      });
      if (res.status !== 201) throw new Error(`POST message: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    },
    'in-process': async (chat: string, text: string) => {
      const r = await s.app.botApi('POST', `/chats/${chat}/messages`, { token, body: { type: 'inbound', text } });
      if (r.status !== 201) throw new Error(`POST message in process: ${r.status}`);
    },
  };
  const got: Record<string, Latency> = {};
  for (const c of ARRIVALS) got[c.label] = await latency(s, c.label, s[c.stream].base, commits[c.commit]);
  await s.b.stop();
  const { single, two, exact } = got;
  const cells = (l: Latency, exactly: boolean) =>
    `${exactly ? ' | ' : ` ${f1(l.p50)} | ${f1(l.p99)} `}| ${f1(l.max)} | ${f1(l.answerP50)} | ${f1(l.answerP99)} | ${l.missing} |`;
  return [
    `**Arrival on an open stream**: \`message.received\` for a pull VA, ${RATE} messages/s over 20 chats for ${SECONDS} s after 1 s of warm-up (${RATE * SECONDS} samples per case). (a)/(b): the message is POSTed over HTTP to A, so its commit happens inside the request: "from the request" (its start) bounds commit-to-arrival from above, "from the answer" from below (negative: the event arrived before the answer). (c): this process commits through the app's code as an instance of its own and stamps the moment the commit returned, so it is commit to arrival exactly, across instances (NOTIFY to A).`,
    '',
    '| case | from the request p50 ms | p99 ms | max ms | from the answer p50 ms | p99 ms | missing |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...ARRIVALS.filter((c) => c.row).map((c) => `| ${c.row} |${cells(got[c.label], c.commit === 'in-process')}`),
    '',
    `- Targets p50 < 5 ms, p99 < 25 ms. One instance, upper bound: p50 ${met(single.p50 < 5)}, p99 ${met(single.p99 < 25)}. Across instances, exact (c): p50 ${met(exact.answerP50 < 5)}, p99 ${met(exact.answerP99 < 25)}; (b)'s upper bound: p50 ${met(two.p50 < 5)}, p99 ${met(two.p99 < 25)}.`,
    '',
  ];
}

/** Messages at RATE/s for SECONDS (plus one second of warm-up), each timed to its arrival on a stream held on `streamBase`. */
async function latency(
  s: Setup,
  label: string,
  streamBase: string,
  commit: (chat: string, text: string) => Promise<void>,
): Promise<Latency> {
  const arrived = new Map<string, number>();
  const stream = await openStream(streamBase, s.t.token, (item, at) => {
    const text = textOf(item);
    if (text?.startsWith(`${label}-`)) arrived.set(text, at);
  });
  await sleep(500); // the backlog of earlier cases read
  const warm = RATE;
  const count = warm + RATE * SECONDS;
  const started = new Map<string, number>();
  const answered = new Map<string, number>();
  const sends: Promise<void>[] = [];
  const t0 = nowMs() + 20;
  for (let i = 0; i < count; i++) {
    const wait = t0 + (i * 1000) / RATE - nowMs();
    if (wait > 0) await sleep(wait);
    const key = `${label}-${i}`;
    started.set(key, nowMs());
    sends.push(commit(s.chats[i % s.chats.length], key).then(() => void answered.set(key, nowMs())));
  }
  await Promise.all(sends);
  const until = nowMs() + 15_000;
  while (arrived.size < count && nowMs() < until) await sleep(50);
  await stream.close();
  const fromStart: number[] = [];
  const fromAnswer: number[] = [];
  for (let i = warm; i < count; i++) {
    const key = `${label}-${i}`;
    const at = arrived.get(key);
    if (at === undefined) continue;
    fromStart.push(at - (started.get(key) as number));
    fromAnswer.push(at - (answered.get(key) as number));
  }
  const st = stats(fromStart, fromAnswer, count - arrived.size);
  log(
    `${label}: p50 ${f1(st.p50)} ms, p99 ${f1(st.p99)} ms from the request; from the answer p50 ${f1(st.answerP50)} p99 ${f1(st.answerP99)}; missing ${st.missing}`,
  );
  return st;
}

/** BACKLOG `message.received` over BACKLOG_CHATS chats of a VA, parked (pull) or due now (webhook). */
async function insertBacklog(s: Setup, vaId: number, chatIds: string[], nextAttempt: 'now' | 'parked') {
  const { sql } = s;
  const perChat = BACKLOG / chatIds.length;
  await sql`
    with rows as (
      select gen_random_uuid()::text as tid, c.id as chat_id, c.n, g
      from (select id, row_number() over (order by id) as n from chats where id = any(${chatIds})) c, generate_series(1, ${perChat}) g)
    insert into events (transaction_id, account_id, chat_id, virtual_agent_id, event_type, seq, body, next_attempt_at)
    select tid, ${s.t.account.id}, chat_id, ${vaId}, 'message.received', 1000 + g,
      jsonb_build_object(
        'event_type', 'message.received', 'channel', 'sms', 'chat_id', chat_id, 'asset', '1', 'destination_id', '+15550000000',
        'subject', '', 'transaction_id', tid,
        'payload', jsonb_build_object('messages', jsonb_build_array(jsonb_build_object(
          'transid', gen_random_uuid()::text, 'type', 'text', 'text', 'backlog ' || g, 'attachments', '[]'::jsonb,
          'timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'interactive_response', null)))),
      ${nextAttempt === 'now' ? sql`now()` : sql`now() + interval '100 years'`}
    from rows`;
}

/** (d) Backlogs: a pull VA read by long-poll pages of PAGE from A; a webhook VA drained by A's engine. */
async function backlogCase(s: Setup): Promise<string[]> {
  const { sql, a } = s;
  const puller = await s.makeVa(`Backlog puller ${randomBytes(2).toString('hex')}`, 'pull', null);
  const pullChats: string[] = [];
  for (let i = 0; i < BACKLOG_CHATS; i++) pullChats.push(await s.newChat(puller.token, s.t.assets.sms.id, puller.loginId, 1000 + i));
  await insertBacklog(s, puller.id, pullChats, 'parked');
  await sql`vacuum analyze events`;
  const pullTotal = BACKLOG + BACKLOG_CHATS;
  let after: string | undefined;
  const seen = new Set<string>();
  const d0 = nowMs();
  for (;;) {
    const res = await fetch(`${a.base}/api/v1/events?limit=${PAGE}${after ? `&after=${after}` : ''}`, {
      headers: { access_token: puller.token },
    });
    if (res.status !== 200) throw new Error(`GET /events: ${res.status} ${await res.text()}`);
    const page = (await res.json()).response as { events: Item[]; next_cursor: string };
    for (const item of page.events) seen.add(item.webhook_id);
    after = page.next_cursor;
    if (page.events.length < PAGE) break;
  }
  // The last page is acknowledged by one more read, as a bot does.
  await fetch(`${a.base}/api/v1/events?limit=1&after=${after}`, { headers: { access_token: puller.token } }).then((r) => r.arrayBuffer());
  const d1 = nowMs();
  const pullPerSecond = (seen.size * 1000) / (d1 - d0);
  const [acked] = await sql<
    { n: number }[]
  >`select count(*)::int as n from events where virtual_agent_id = ${puller.id} and status = 'delivered'`;
  log(
    `long-poll drain: ${fmt(seen.size)} of ${fmt(pullTotal)} events in ${f1((d1 - d0) / 1000)} s = ${fmt(pullPerSecond)}/s; ${acked.n} acknowledged`,
  );

  const hits: number[] = [];
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hits.push(nowMs());
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => receiver.close(() => r())));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const hooked = await s.makeVa(`Backlog webhook ${randomBytes(2).toString('hex')}`, 'webhook', hookUrl);
  const hookChats: string[] = [];
  for (let i = 0; i < BACKLOG_CHATS; i++) hookChats.push(await s.newChat(hooked.token, s.t.assets.sms.id, hooked.loginId, 2000 + i));
  const waitHits = async (n: number, ms: number) => {
    const until = nowMs() + ms;
    while (hits.length < n && nowMs() < until) await sleep(20);
  };
  await waitHits(BACKLOG_CHATS, 60_000);
  hits.length = 0;
  await insertBacklog(s, hooked.id, hookChats, 'now');
  await waitHits(BACKLOG, 300_000);
  const engineDelivered = hits.length;
  const enginePerSecond = engineDelivered > 1 ? ((engineDelivered - 1) * 1000) / (hits[hits.length - 1] - hits[0]) : Number.NaN;
  log(`engine drain: ${fmt(engineDelivered)} of ${fmt(BACKLOG)} deliveries, ${fmt(enginePerSecond)}/s (first to last arrival)`);
  return [
    `**(d) Draining a backlog**: ${fmt(BACKLOG)} \`message.received\` over ${BACKLOG_CHATS} chats (plus their ${BACKLOG_CHATS} \`chat.assigned\`).`,
    '',
    '| case | events | seconds | events/s |',
    '|---|---:|---:|---:|',
    `| pull VA: long-poll pages of ${PAGE} from A, each read acknowledging the previous page | ${fmt(seen.size)} | ${f1((d1 - d0) / 1000)} | ${fmt(pullPerSecond)} |`,
    `| webhook VA: A's embedded engine to a receiver in the bench process (first to last arrival) | ${fmt(engineDelivered)} | ${f1((hits[hits.length - 1] - hits[0]) / 1000)} | ${fmt(enginePerSecond)} |`,
    '',
    `- Long-poll ÷ engine: ${f1((pullPerSecond / enginePerSecond) * 100)} % (target ≥ 100 %: ${met(pullPerSecond >= enginePerSecond)}). ${fmt(acked.n)} of the pull VA's events were marked delivered by the acknowledgements; ${fmt(seen.size)} distinct events read.`,
    '',
  ];
}

/** (e) STREAM_VAS pull VAs × STREAMS_PER_VA streams on a fresh A: memory per stream, then fan-out arrival. */
async function manyStreamsCase(s: Setup): Promise<string[]> {
  const { sql } = s;
  const vas: { id: number; token: string; chat: string }[] = [];
  for (let i = 0; i < STREAM_VAS; i++) {
    const va = await s.makeVa(`Streamer ${i} ${randomBytes(2).toString('hex')}`, 'pull', null);
    vas.push({ ...va, chat: await s.newChat(va.token, s.t.assets.sms.id, va.loginId, 5000 + i) });
  }
  log(`${STREAM_VAS} pull VAs with a chat each`);
  // A fresh instance for the memory figure: the earlier cases' garbage would blur it.
  await s.a.stop();
  const fresh = await startServer(PORT0, s.dbUrl);
  await sleep(3_000);
  const rss0 = rssMiB(fresh.child.pid as number);
  // Arrivals are kept by transaction id and timed afterwards: this process both commits and reads,
  // so a frame may be handled before the continuation that stamps its commit.
  const fanSeen: [string, number][] = [];
  const committedAt = new Map<string, number>();
  let opened = 0;
  const streams: { close: () => Promise<void> }[] = [];
  for (let i = 0; i < vas.length; i += 20) {
    await Promise.all(
      vas.slice(i, i + 20).flatMap((va) =>
        Array.from({ length: STREAMS_PER_VA }, async () => {
          streams.push(
            await openStream(fresh.base, va.token, (item, at) => {
              if (item.webhook_id.startsWith('fan-')) fanSeen.push([item.webhook_id, at]);
            }),
          );
          opened++;
        }),
      ),
    );
  }
  await sleep(5_000);
  const rss1 = rssMiB(fresh.child.pid as number);
  log(`${opened} streams open; A's RSS ${f1(rss0)} -> ${f1(rss1)} MiB`);

  let seq = 100_000;
  let commits = 0;
  const pending: Promise<void>[] = [];
  const f0 = nowMs() + 20;
  const total = FANOUT_RATE * FANOUT_SECONDS;
  for (let i = 0; i < total; i++) {
    const wait = f0 + (i * 1000) / FANOUT_RATE - nowMs();
    if (wait > 0) await sleep(wait);
    const va = vas[i % vas.length];
    const tid = `fan-${randomBytes(8).toString('hex')}`;
    seq++;
    pending.push(
      (async () => {
        const [row] = await sql<{ id: number }[]>`
          insert into events (transaction_id, account_id, chat_id, virtual_agent_id, event_type, seq, body, next_attempt_at)
          values (${tid}, ${s.t.account.id}, ${va.chat}, ${va.id}, 'message.received', ${seq},
            ${sql.json({
              event_type: 'message.received',
              channel: 'sms',
              chat_id: va.chat,
              asset: '1',
              destination_id: '+15550000000',
              subject: '',
              transaction_id: tid,
              payload: {
                messages: [
                  {
                    transid: tid,
                    type: 'text',
                    text: 'fan',
                    attachments: [],
                    timestamp: new Date().toISOString(),
                    interactive_response: null,
                  },
                ],
              },
            })}, now() + interval '100 years')
          returning id`;
        committedAt.set(tid, nowMs());
        commits++;
        s.app.signalOutbox([Number(row.id)], [va.id]);
      })(),
    );
  }
  await Promise.all(pending);
  const expected = commits * STREAMS_PER_VA;
  const fanUntil = nowMs() + 15_000;
  while (fanSeen.length < expected && nowMs() < fanUntil) await sleep(50);
  const fanArrivals = fanSeen.map(([tid, at]) => at - (committedAt.get(tid) as number));
  const rss2 = rssMiB(fresh.child.pid as number);
  const fan = {
    p50: quantile(fanArrivals, 0.5),
    p99: quantile(fanArrivals, 0.99),
    max: Math.max(...fanArrivals),
    got: fanArrivals.length,
    expected,
  };
  const achievedRate = (commits * 1000) / (nowMs() - f0);
  log(`fan-out: ${fan.got}/${expected} arrivals, p50 ${f1(fan.p50)} p99 ${f1(fan.p99)} max ${f1(fan.max)} ms; RSS after ${f1(rss2)} MiB`);
  await Promise.all(streams.map((st) => st.close()));
  return [
    `**(e) Many streams on one instance**: ${STREAM_VAS} pull VAs × ${STREAMS_PER_VA} streams = ${opened} streams open on A, restarted for this case (from the bench process, one connection each). A's resident memory ${f1(rss0)} MiB before, ${f1(rss1)} MiB with the streams open and idle: **${f1(((rss1 - rss0) * 1024) / Math.max(1, opened))} KiB per stream** (RSS after the load ${f1(rss2)} MiB). Then ${fmt(commits)} events committed by the bench process (an instance of its own: one INSERT and a wake each) at ${fmt(achievedRate)}/s (asked ${FANOUT_RATE}/s) for ${FANOUT_SECONDS} s, round-robin over the VAs; each reaches its VA's ${STREAMS_PER_VA} streams (${fmt(expected)} arrivals expected).`,
    '',
    '| arrivals | p50 ms | p99 ms | max ms |',
    '|---:|---:|---:|---:|',
    `| ${fmt(fan.got)} of ${fmt(expected)} | ${f1(fan.p50)} | ${f1(fan.p99)} | ${f1(fan.max)} |`,
    '',
    `- p99 arrival < 100 ms at ${FANOUT_RATE} events/s: ${met(fan.p99 < 100 && fan.got >= expected)}.`,
  ];
}

/** The report's first lines: how and where it ran, and the machine's load at the start and the end. */
function intro(s: Setup, loadEnd: string): string[] {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return [
    '## bench:pull: pulled events (stream arrival, long-poll drain, many streams)',
    '',
    `Run ${new Date().toISOString()} with \`npm run bench:pull\` (\`tsx bench/pull.ts\`) on ${SHARED_PG ? "the machine's shared PostgreSQL server (a fresh database, dropped afterwards)" : "a PostgreSQL cluster of its own (initdb in a temporary directory, removed afterwards; the shared server's other users and their long transactions would hold pulled events back)"}, two production servers (\`node scripts/start.mjs\` of the build) on ports ${PORT0} and ${PORT0 + 1}, default settings (\`DATABASE_POOL_SIZE=10\`).`,
    '',
    `Machine: ${os.cpus().length} CPUs (\`nproc\`), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${cpu}; Node ${process.version}; ${s.version.split(',')[0]} on the same machine. Servers, bench process and PostgreSQL share the cores, and **other engineers' builds and test suites were running on the machine** during the run: \`/proc/loadavg\` was \`${s.loadStart}\` at the start and \`${loadEnd}\` at the end (2 would be a full machine). Figures are lower and noisier than on an idle machine.`,
    '',
  ];
}

const met = (ok: boolean) => (ok ? '**met**' : '**NOT met**');

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch((err) => console.error(err));
    process.exit(process.exitCode ?? 0);
  });
