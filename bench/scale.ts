/**
 * npm run bench:scale: every read path of the bot and admin APIs on a large tenant, through the
 * running server, single requests and at 20 connections, plus the retention job's throughput and
 * the index build times; written in full to docs/benchmarks/scale.md between `<!-- bench:scale:start -->` and
 * `<!-- bench:scale:end -->`, with the growth of the uniform shape in BENCHMARKS.md.
 *
 * The data set (bench/scale-data.ts: 1,000,000 chats, 3,000,000 messages, 1,000,000 events with
 * their attempts by default) is built with set-based SQL in its own database beside DATABASE_URL's
 * (default postgres://postgres@127.0.0.1:5432/postgres), named va_scale_bench_<chats>, and kept, so
 * a second run reuses it (BENCH_SCALE_FRESH=1 builds it again). Uses the production build in .next
 * (run `npm run build` first), starts it as `npm start` does on BENCH_PORT (3221) and stops it at the end.
 *
 * Every full run also keeps its timings in docs/benchmarks/scale/<shape>-<chats>.json and redraws
 * the growth chart of its shape from all of them (bench/scale-growth.ts: p99 by size, 10 k to 10 M
 * chats); a 1 M-chat run replaces the main section, a run at 10 M chats or more its own section
 * (`<!-- bench:scale-10m:start -->`, by size and shape); smaller runs only feed the chart.
 *
 * Knobs: BENCH_SCALE_CHATS (1000000; `--small` is 100000, `--chats N` any size), BENCH_SCALE_SHAPE=varied (the data shaped
 * otherwise: bench/scale-data.ts; its own database and section), BENCH_SINGLE (200 requests per path),
 * BENCH_SECONDS (5 s at 20 connections), BENCH_WRITE=0 (print only), BENCH_GROUPS=agent (only those
 * groups of paths, comma separated: bot, admin, agent; the pause and retention steps then do not run). The retention step deletes
 * at most 100 batches of 1,000 events (the clock moved 28 days forward: the data set spans the last few days, and delivered events go after 30), so the data set shrinks a
 * little on each run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { openPostgres } from '@/db/client';
import { PAUSE_BATCH, pauseEndpointEvents } from '@/lib/delivery/pause-endpoint-events';
import { retentionJobs } from '@/lib/retention/jobs';
import { runRetention } from '@/lib/retention/run-retention';
import { hashPassword } from '@/platform/auth/passwords';
import { startProductionServer, stopProductionServer, waitForServer } from '@/test/support/production-server';
import { quantile } from '@/test/support/stats';
import { writeSection } from './report';
import { BULK_TABLES, buildDataSet, type DataShape, type IndexBuild, noteBuildSeconds, readDataSet, type ScaleMeta } from './scale-data';
import { saveRun, size, writeGrowth } from './scale-growth';

const ROOT = process.cwd();
const chatsArg = process.argv.indexOf('--chats');
const CHATS =
  chatsArg !== -1
    ? Number(process.argv[chatsArg + 1])
    : process.argv.includes('--small')
      ? 100_000
      : Number(process.env.BENCH_SCALE_CHATS ?? 1_000_000);
const SINGLE = Number(process.env.BENCH_SINGLE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const PORT = Number(process.env.BENCH_PORT ?? 3221);
const CONNECTIONS = 20;
const SHAPE: DataShape = process.env.BENCH_SCALE_SHAPE === 'varied' ? 'varied' : 'uniform';
/** Each shape has its own section of docs/benchmarks/scale.md (the runs in full). */
const MARK = SHAPE === 'uniform' ? 'bench:scale' : `bench:scale-${SHAPE}`;
const baseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const DETAIL = path.join(ROOT, 'docs/benchmarks/scale.md');
const started = Date.now();
const log = (m: string) => console.log(`[bench:scale ${((Date.now() - started) / 1000).toFixed(0).padStart(5)}s] ${m}`);

type Path = {
  group: 'bot' | 'admin' | 'agent';
  label: string;
  target: string;
  method?: 'GET' | 'PATCH';
  body?: string;
  headers: Record<string, string>;
};
type Timing = {
  label: string;
  group: string;
  target: string;
  single: { p50: number; p95: number; p99: number };
  conc: { p50: number; p99: number; rps: number };
};

async function main() {
  const dbName = `va_scale_bench_${CHATS}${SHAPE === 'uniform' ? '' : `_${SHAPE}`}`;
  const dbUrl = new URL(baseUrl);
  dbUrl.pathname = `/${dbName}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  let data = process.env.BENCH_SCALE_FRESH === '1' ? null : await readDataSet(dbUrl.toString()).catch(() => null);
  let buildSeconds: number | null = null;
  const built = !data;
  if (!data) {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.unsafe(`CREATE DATABASE ${dbName}`);
    log(`building ${CHATS} chats in ${dbName}`);
    const s = Date.now();
    data = await buildDataSet(dbUrl.toString(), CHATS, log, { shape: SHAPE });
    buildSeconds = (Date.now() - s) / 1000;
    await noteBuildSeconds(dbUrl.toString(), buildSeconds);
  } else {
    log(`reusing ${dbName} (${data.meta.chats} chats)`);
    buildSeconds = data.meta.buildSeconds ?? null;
  }
  await admin.end();
  const { meta, builds } = data;

  // Tables changed since their last ANALYZE get one now and again before each timed path, as
  // autovacuum would where it runs (it is off on some machines, these among them): the timed bot
  // calls themselves add tens of thousands of request log rows, and with statistics that still
  // say the table is empty the request log's timing measured the planner's guess (a bitmap scan
  // and a sort of every row: 60 ms) rather than its index (3 ms).
  const stats = postgres(dbUrl.toString(), { max: 1, onnotice: () => {} });
  const [{ autovacuum }] = await stats<{ autovacuum: string }[]>`select current_setting('autovacuum') as autovacuum`;
  const analyzeStale = async (when: string) => {
    const staleTables = await stats<{ relname: string }[]>`
      select relname from pg_stat_user_tables where n_mod_since_analyze > 50 + 0.1 * greatest(n_live_tup, 0)`;
    for (const { relname } of staleTables) await stats.unsafe(`analyze "${relname}"`);
    if (staleTables.length) log(`analyzed ${staleTables.map((t) => t.relname).join(', ')} ${when} (autovacuum is ${autovacuum} here)`);
  };
  await analyzeStale('first');
  if (!fs.existsSync(path.join(ROOT, '.next', 'BUILD_ID'))) throw new Error('no production build: run `npm run build` first');
  const server = startProductionServer(
    PORT,
    {
      ADMIN_RATE_LIMIT_PER_MINUTE: '100000000',
      DATABASE_URL: dbUrl.toString(),
      DELIVERY_ENGINE: 'off',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '100000000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    (line) => console.log(line),
    { keepOutput: false },
  );
  try {
    const base = server.base;
    await waitForServer(server, 120_000);
    const groups = process.env.BENCH_GROUPS?.split(',').map((g) => g.trim());
    const paths = (await requestPaths(base, meta, dbUrl.toString())).filter((p) => !groups || groups.includes(p.group));
    const loadBefore = os.loadavg()[0];
    const timings: Timing[] = [];
    for (const p of paths) {
      await analyzeStale(`before "${p.label}"`);
      const t = await time(base, p);
      timings.push(t);
      log(
        `${p.label}: single p50 ${t.single.p50} / p95 ${t.single.p95} / p99 ${t.single.p99} ms; 20 conn p50 ${t.conc.p50} / p99 ${t.conc.p99} ms, ${t.conc.rps} req/s`,
      );
    }
    const loadAfter = os.loadavg()[0];
    const sizes = await tableSizes(stats);
    const common = { meta, builds, buildSeconds, reused: !built, timings, sizes, autovacuum, loadBefore, loadAfter };
    if (groups) {
      console.log(`\n${render({ ...common, retention: null, pause: null }, MARK)}`);
      return;
    }
    const pause = await pauseThroughput(dbUrl.toString(), meta);
    log(`pause: ${pause.moved} of ${pause.pending} pending events held in ${pause.seconds.toFixed(1)} s (${pause.batches} batches)`);
    const retention = await retentionThroughput(dbUrl.toString());
    log(`retention: ${retention.deleted} events (and their attempts) in ${retention.seconds.toFixed(1)} s`);
    // The section of the latest run at 1 M chats (the size the targets were set at), or at 10 M and
    // more its own; every full run, at any size, keeps its timings for the growth chart.
    const mark = meta.chats === 1_000_000 ? MARK : meta.chats >= 10_000_000 ? `${MARK}-${meta.chats / 1_000_000}m` : null;
    const report = render({ ...common, retention, pause }, mark ?? MARK);
    console.log(`\n${report}`);
    if (process.env.BENCH_WRITE !== '0') {
      if (mark) writeSection(DETAIL, report, { start: `<!-- ${mark}:start -->`, end: `<!-- ${mark}:end -->` });
      saveRun({
        chats: meta.chats,
        shape: SHAPE,
        at: new Date().toISOString().slice(0, 16).concat('Z'),
        machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}`,
        load: `${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after`,
        points: timings.map((t) => ({ label: t.label, group: t.group, p99: t.single.p99 })),
      });
      // The uniform shape's growth is BENCHMARKS.md's summary of the read paths; the rest is in full beside it.
      writeSection(SHAPE === 'uniform' ? path.join(ROOT, 'BENCHMARKS.md') : DETAIL, writeGrowth(SHAPE, MARK, SHAPE !== 'uniform'), {
        start: `<!-- ${MARK}-growth:start -->`,
        end: `<!-- ${MARK}-growth:end -->`,
      });
    }
  } finally {
    await stopProductionServer(server);
    await stats.end();
  }
}

async function requestPaths(base: string, meta: ScaleMeta, url: string): Promise<Path[]> {
  const auth = await fetch(`${base}/api/v1/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: meta.apiKey }),
  }).then((r) => r.json());
  const token = auth.response.access_token as string;
  const login = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: meta.adminEmail, password: meta.adminPassword }),
  });
  if (!login.ok) throw new Error(`admin login failed: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const bot = { access_token: token };
  const adm = { cookie };
  const firstRes = await fetch(`${base}/api/v1/chats`, { headers: bot });
  const first = await firstRes.json();
  const chat = first.response.chats[0];
  // A VA writes only the chats it holds: the PATCH goes to one of the bot's own.
  const held = await fetch(`${base}/api/v1/chats?assignee=${meta.botLoginId}&status=picked`, { headers: bot }).then((r) => r.json());
  const own = held.response.chats[0];
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  // One customer's name: on the varied shape a number that is also a part of a hundred other names.
  const [narrow] =
    meta.shape === 'varied'
      ? [{ name: 'Customer 777' }]
      : await sql<{ name: string }[]>`select name from customers where account_id = ${meta.accountId} offset 777 limit 1`;
  // Ids a support engineer is handed: a message transid and an event transaction_id from the middle
  // of the data set, and the trxid of the bot's call above (its request log row is written within a second).
  const [message] = await sql<
    { transid: string }[]
  >`select transid from messages where account_id = ${meta.accountId} offset ${Math.floor(meta.chats * 1.5)} limit 1`;
  const [event] = await sql<
    { id: string }[]
  >`select transaction_id as id from events where account_id = ${meta.accountId} offset ${Math.floor(meta.chats / 2)} limit 1`;
  const [va] = await sql<{ id: number }[]>`select id from users where account_id = ${meta.accountId} and login_id = ${meta.botLoginId}`;
  // A person of the people's team (thousands of its chats wait in the queue, thousands are theirs)
  // signs in to the agent workspace; the password is set here as an invite would.
  const agentPassword = 'bench agent password 9';
  const [person] = await sql<{ id: number }[]>`select id from users where account_id = ${meta.accountId} and login_id = 'bench-agent-0'`;
  await sql`insert into agent_logins (user_id, account_id, email, password_hash)
    values (${person.id}, ${meta.accountId}, 'bench-agent-0@example.test', ${await hashPassword(agentPassword)})
    on conflict (user_id) do update set password_hash = excluded.password_hash`;
  const [personChat] = await sql<{ id: string }[]>`select id from chats where assignee_id = ${person.id} and status = 'picked' limit 1`;
  await sql.end();
  const agentLogin = await fetch(`${base}/api/agent/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench-agent-0@example.test', password: agentPassword }),
  });
  if (!agentLogin.ok) throw new Error(`agent login failed: ${agentLogin.status} ${await agentLogin.text()}`);
  const agent = {
    cookie: agentLogin.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; '),
  };
  const trxid = firstRes.headers.get('trxid') ?? '';
  // A day in the middle of the log's 7 days (bench/scale-data.ts).
  const dayAgo = new Date(Date.now() - 3 * 86_400_000).toISOString();
  const dayAgoPlus = new Date(Date.now() - 2 * 86_400_000).toISOString();
  await new Promise((r) => setTimeout(r, 1500));
  return [
    { group: 'bot', label: 'GET /chats (newest page)', target: '/api/v1/chats', headers: bot },
    {
      group: 'bot',
      label: 'GET /chats?assignee=<bot>&status=picked',
      target: `/api/v1/chats?assignee=${meta.botLoginId}&status=picked`,
      headers: bot,
    },
    { group: 'bot', label: 'GET /chats?status=queued', target: '/api/v1/chats?status=queued', headers: bot },
    { group: 'bot', label: 'GET /chats?tag=billing', target: '/api/v1/chats?tag=billing', headers: bot },
    { group: 'bot', label: 'GET /chats?tag=refund (rare or absent)', target: '/api/v1/chats?tag=refund', headers: bot },
    { group: 'bot', label: 'GET /chats?cursor=<page 2>', target: `/api/v1/chats?cursor=${first.response.next_cursor}`, headers: bot },
    { group: 'bot', label: 'GET /chats/{id}', target: `/api/v1/chats/${chat.chat_id}`, headers: bot },
    { group: 'bot', label: 'GET /chats/{id}/messages', target: `/api/v1/chats/${chat.chat_id}/messages`, headers: bot },
    {
      group: 'bot',
      label: 'PATCH /chats/{id} (tags)',
      target: `/api/v1/chats/${own.chat_id}`,
      method: 'PATCH',
      body: JSON.stringify({ tags: ['bench'] }),
      headers: { ...bot, team_id: String(own.team_id), 'content-type': 'application/json' },
    },
    { group: 'admin', label: 'GET /api/admin/chats', target: '/api/admin/chats', headers: adm },
    {
      group: 'admin',
      label: 'search: one customer’s name',
      target: `/api/admin/chats?q=${encodeURIComponent(narrow.name)}`,
      headers: adm,
    },
    {
      group: 'admin',
      label: meta.shape === 'varied' ? 'search: a word in every name' : 'search: a common surname',
      target: `/api/admin/chats?q=${meta.shape === 'varied' ? 'Customer' : 'Nakamura'}`,
      headers: adm,
    },
    { group: 'admin', label: 'search: chat ID prefix', target: `/api/admin/chats?q=${chat.chat_id.slice(0, 8)}`, headers: adm },
    { group: 'admin', label: 'GET /chats/{id} (support view)', target: `/api/admin/chats/${chat.chat_id}`, headers: adm },
    { group: 'admin', label: 'GET /deliveries/stats?window=24h', target: '/api/admin/deliveries/stats?window=24h', headers: adm },
    { group: 'admin', label: 'GET /deliveries/virtual-agents', target: '/api/admin/deliveries/virtual-agents', headers: adm },
    { group: 'admin', label: 'trace: a message transid', target: `/api/admin/trace?id=${message.transid}`, headers: adm },
    { group: 'admin', label: 'trace: an event transaction_id', target: `/api/admin/trace?id=${event.id}`, headers: adm },
    { group: 'admin', label: 'trace: a REST trxid', target: `/api/admin/trace?id=${trxid}`, headers: adm },
    { group: 'admin', label: 'trace: a chat ID', target: `/api/admin/trace?id=${chat.chat_id}`, headers: adm },
    { group: 'admin', label: 'a VA’s request log', target: `/api/admin/bot-requests?virtual_agent_id=${va.id}`, headers: adm },
    {
      group: 'admin',
      label: 'a VA’s refused calls',
      target: `/api/admin/bot-requests?virtual_agent_id=${va.id}&outcome=failure`,
      headers: adm,
    },
    {
      group: 'admin',
      label: 'a VA’s calls answered 2031, one day',
      target: `/api/admin/bot-requests?virtual_agent_id=${va.id}&status_code=2031&since=${encodeURIComponent(dayAgo)}&until=${encodeURIComponent(dayAgoPlus)}`,
      headers: adm,
    },
    { group: 'admin', label: 'a chat’s requests (chat page)', target: `/api/admin/bot-requests?chat_id=${chat.chat_id}`, headers: adm },
    { group: 'agent', label: 'GET /api/agent/chats (queue and Mine)', target: '/api/agent/chats', headers: agent },
    {
      group: 'agent',
      label: 'GET /api/agent/chats/{id} (a chat with its transcript)',
      target: `/api/agent/chats/${personChat.id}`,
      headers: agent,
    },
  ];
}

const round1 = (n: number) => Math.round(n * 10) / 10;

async function time(base: string, p: Path): Promise<Timing> {
  const once = async () => {
    const s = performance.now();
    const res = await fetch(`${base}${p.target}`, { method: p.method ?? 'GET', headers: p.headers, body: p.body });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${p.label}: HTTP ${res.status}`);
    return performance.now() - s;
  };
  for (let i = 0; i < 10; i++) await once();
  const single: number[] = [];
  for (let i = 0; i < SINGLE; i++) single.push(await once());
  single.sort((a, b) => a - b);
  const result = await autocannon({
    url: `${base}${p.target}`,
    method: p.method ?? 'GET',
    headers: p.headers,
    body: p.body,
    connections: CONNECTIONS,
    duration: SECONDS,
  });
  if (result.non2xx || result.errors) throw new Error(`${p.label}: non-2xx ${result.non2xx}, errors ${result.errors}`);
  return {
    label: p.label,
    group: p.group,
    target: p.target,
    single: { p50: round1(quantile(single, 0.5)), p95: round1(quantile(single, 0.95)), p99: round1(quantile(single, 0.99)) },
    conc: { p50: result.latency.p50, p99: result.latency.p99, rps: Math.round(result.requests.average) },
  };
}

async function retentionThroughput(url: string) {
  const handle = await openPostgres(url, { migrate: false });
  try {
    const jobs = retentionJobs({
      EVENT_RETENTION_DAYS: 30,
      FAILED_EVENT_RETENTION_DAYS: 90,
      CHAT_RETENTION_DAYS: undefined,
      ROLLUP_RETENTION_DAYS: 90,
      AUDIT_RETENTION_DAYS: 365,
    }).filter((j) => j.name === 'delivered-events');
    const s = Date.now();
    const [run] = await runRetention(handle.db, { jobs, now: new Date(Date.now() + 28 * 86_400_000), batchSize: 1000, maxBatches: 100 });
    return { deleted: run.deleted, batches: run.batches, seconds: (Date.now() - s) / 1000 };
  } finally {
    await handle.close();
  }
}

/**
 * A bot down long enough to have PAUSE_EVENTS pending events, paused (its endpoint answered
 * Retry-After or its circuit opened): pauseEndpointEvents moves them out of the due range in
 * batches of PAUSE_BATCH. The events are made pending for the run and put back afterwards.
 */
const PAUSE_EVENTS = 60_000;
async function pauseThroughput(url: string, meta: ScaleMeta) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const [va] = await sql<{ id: number }[]>`select id from users where account_id = ${meta.accountId} and login_id = ${meta.botLoginId}`;
  const ids = await sql<{ id: string }[]>`
    update events set status = 'pending', next_attempt_at = now(), delivered_at = null
    where id in (select id from events where account_id = ${meta.accountId} and virtual_agent_id = ${va.id} and status = 'delivered'
      order by created_at desc limit ${PAUSE_EVENTS})
    returning id`;
  await sql`analyze events`;
  const handle = await openPostgres(url, { migrate: false });
  try {
    const s = Date.now();
    const moved = await pauseEndpointEvents(handle.db, {
      accountId: meta.accountId,
      virtualAgentId: va.id,
      until: new Date(Date.now() + 3_600_000),
    });
    const seconds = (Date.now() - s) / 1000;
    return { pending: ids.length, moved, seconds, batches: Math.ceil(ids.length / PAUSE_BATCH) };
  } finally {
    await handle.close();
    await sql`update events set status = 'delivered', delivered_at = now(), next_attempt_at = now() where id = any(${ids.map((r) => r.id)}::bigint[])`;
    await sql.end();
  }
}

function render(
  r: {
    meta: ScaleMeta;
    builds: IndexBuild[];
    buildSeconds: number | null;
    reused: boolean;
    timings: Timing[];
    sizes: Sizes;
    retention: { deleted: number; batches: number; seconds: number } | null;
    pause: { pending: number; moved: number; seconds: number; batches: number } | null;
    autovacuum: string;
    loadBefore: number;
    loadAfter: number;
  },
  mark: string,
) {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    `<!-- ${mark}:start -->`,
    SHAPE === 'uniform'
      ? `## Scale: read paths on one large tenant (\`npm run bench:scale\`${r.meta.chats === 1_000_000 ? '' : `, ${size(r.meta.chats)} chats`})`
      : `## Scale, ${SHAPE} data: the same read paths on data shaped otherwise (\`BENCH_SCALE_SHAPE=${SHAPE} npm run bench:scale\`)`,
    '',
    `${new Date().toISOString().slice(0, 16)}Z · ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB · Node ${process.version} · PostgreSQL on 127.0.0.1 (default settings but autovacuum ${r.autovacuum}${r.autovacuum === 'off' ? ': tables changed since their last ANALYZE are analyzed before each timed path, as autovacuum would' : ''}) · ` +
      `\`BENCH_SCALE_CHATS=${r.meta.chats}${r.meta.shape === 'varied' ? ' BENCH_SCALE_SHAPE=varied' : ''} npm run bench:scale\` · production build, \`npm start\` (node:http entry), DELIVERY_ENGINE=off. ` +
      `Other load on the machine: 1-minute load average ${r.loadBefore.toFixed(1)} before the timings and ${r.loadAfter.toFixed(1)} after` +
      (Math.max(r.loadBefore, r.loadAfter) > 1 ? ' (other work shared these cores, so absolute times are inflated and noisy).' : '.'),
    '',
    `Data set: ${r.meta.chats.toLocaleString('en')} chats, ${(r.meta.chats * 3).toLocaleString('en')} messages, ${r.meta.chats.toLocaleString('en')} events with ${Math.round(r.meta.chats * 1.05).toLocaleString('en')} attempts, ${Math.floor(r.meta.chats / 5).toLocaleString('en')} customers, ${(r.meta.chats * 3).toLocaleString('en')} rows of the bot request log, built with set-based SQL${r.buildSeconds ? ` in ${Math.round(r.buildSeconds).toLocaleString('en')} s (load, indexes and VACUUM ANALYZE)` : ''}${r.reused ? ' by an earlier run and reused' : ''}.`,
    '',
    `On disk (each table with its indexes and TOAST, \`pg_total_relation_size\`): ${r.sizes.tables.map((t) => `${t.table} ${bytes(t.bytes)}`).join(', ')}; the whole database ${bytes(r.sizes.database)}.`,
    '',
    `Single requests: ${SINGLE} in a row after 10 to warm up. Concurrent: autocannon, ${CONNECTIONS} connections, ${SECONDS} s.`,
    '',
    '| request | single p50 | p95 | p99 | 20 conn. p50 | p99 | req/s |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...r.timings.map(
      (t) =>
        `| ${t.group} ${t.label} | ${t.single.p50} ms | ${t.single.p95} ms | ${t.single.p99} ms | ${t.conc.p50} ms | ${t.conc.p99} ms | ${t.conc.rps} |`,
    ),
    ...(r.retention && r.pause ? tail(r.retention, r.pause) : []),
    '',
    'Index builds (plain `CREATE INDEX` after the bulk load; on a live database `npm run db:build-indexes` builds them `CONCURRENTLY`, which takes longer but blocks no writes):',
    '',
    '| index | table | seconds |',
    '|---|---|---:|',
    ...r.builds.map((b) => `| ${b.name} | ${b.table} | ${b.seconds.toFixed(1)} |`),
    `<!-- ${mark}:end -->`,
  ];
  return lines.join('\n');
}

/** The retention and pause lines (a run limited to some groups of paths does not measure them). */
function tail(
  retention: { deleted: number; batches: number; seconds: number },
  pause: { pending: number; moved: number; seconds: number; batches: number },
) {
  const r = { retention, pause };
  return [
    '',
    `Retention: ${r.retention.deleted.toLocaleString('en')} delivered events (with their attempts, by cascade) deleted in ${r.retention.batches} batches of 1,000 in ${r.retention.seconds.toFixed(1)} s ` +
      `(${Math.round(r.retention.deleted / r.retention.seconds).toLocaleString('en')} events/s).`,
    '',
    `Pausing a VA with ${r.pause.pending.toLocaleString('en')} pending events (its endpoint answered \`Retry-After\` or its circuit opened): ${r.pause.moved.toLocaleString('en')} held back in ${r.pause.batches} statements of at most ${PAUSE_BATCH.toLocaleString('en')} in ${r.pause.seconds.toFixed(1)} s (${Math.round((r.pause.seconds * 1000) / r.pause.batches)} ms per statement on average, against a statement timeout of seconds).`,
  ];
}

type Sizes = { tables: { table: string; bytes: number }[]; database: number };

/** The bulk tables' sizes with their indexes, largest first, and the database's. */
async function tableSizes(sql: postgres.Sql): Promise<Sizes> {
  const tables = await sql<{ table: string; bytes: string }[]>`
    select relname as table, pg_total_relation_size(oid)::text as bytes from pg_class
    where relkind = 'r' and relnamespace = 'public'::regnamespace and relname in ${sql(BULK_TABLES)}
    order by pg_total_relation_size(oid) desc`;
  const [{ database }] = await sql<{ database: string }[]>`select pg_database_size(current_database())::text as database`;
  return { tables: tables.map((t) => ({ table: t.table, bytes: Number(t.bytes) })), database: Number(database) };
}

function bytes(n: number): string {
  return n >= 2 ** 30 ? `${(n / 2 ** 30).toFixed(1)} GiB` : `${Math.round(n / 2 ** 20)} MiB`;
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
