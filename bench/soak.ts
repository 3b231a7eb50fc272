/**
 * npm run bench:soak: an hour of steady mixed load on the production server, reported per five
 * minutes, to see whether anything drifts: throughput, latency, the server's memory, the tables.
 *
 * One `npm start` (node scripts/start.mjs of the build) over a fresh PostgreSQL database beside
 * DATABASE_URL's (default postgres://postgres@127.0.0.1:5432/postgres; dropped at the end), its
 * delivery engine on, retention every minute with every period set to BENCH_SOAK_RETAIN_MINUTES (5),
 * so that rows are deleted all along and the tables reach a steady size within minutes. The load,
 * all from this process at fixed rates (open loop: a slower server does not slow the load down):
 *
 *   customers  BENCH_SOAK_CHATS_PER_SECOND (4) new livechat chats a second through the widget API
 *              (a visitor, then its first message), each followed by BENCH_SOAK_TURNS - 1 (3) more
 *              messages, one every BENCH_SOAK_THINK_MS (2,000);
 *   webhooks   the chats go to one VA (a routing rule and an auto-assigning team) whose webhook is
 *              a real HTTP receiver in this process: every event is signed, POSTed and answered 200;
 *   bots       on each message.received the bot reads the chat (GET /api/v1/chats/{id}) and replies
 *              (POST .../messages), and closes the chat after the last turn (PATCH status closed);
 *              besides, it reads its newest page of chats (GET /api/v1/chats) BENCH_SOAK_BOT_READS (2)
 *              times a second;
 *   admins     BENCH_SOAK_ADMIN_READS (2) reads a second, in turn: the chats page, a search, a recent
 *              chat's support view, the delivery figures.
 *
 * Per interval of BENCH_SOAK_REPORT_MINUTES (5) of BENCH_SOAK_MINUTES (60): requests and their p99
 * per kind, non-2xx answers, webhook deliveries and their latency (the customer's message answered →
 * its message.received at the receiver), the server's resident memory and CPU, and per table its
 * size, rows, and the rows inserted and deleted (pg_stat_user_tables). Written to BENCHMARKS.md
 * between `<!-- bench:soak:start -->` and `<!-- bench:soak:end -->` (BENCH_WRITE=0: printed only).
 * Drift is read by comparing the last interval with the first one after the retention period has
 * filled (the table says which). Where PostgreSQL runs with autovacuum off, the bench vacuums as
 * autovacuum would (vacuumLikeAutovacuum), or no deleted row's space would ever be reused.
 */

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { type ApiReply, cookieOf, jsonCall, readBody } from '@/test/support/api-client';
import { nowMs } from '@/test/support/clock';
import { type ProductionServer, startProductionServer, stopProductionServer, waitForServer } from '@/test/support/production-server';
import { quantile } from '@/test/support/stats';
import { writeSection } from './report';
import { processCpuMs } from './servers';

const PORT = Number(process.env.BENCH_PORT ?? 3331);
const BASE = `http://127.0.0.1:${PORT}`;
const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 60);
const REPORT_MINUTES = Number(process.env.BENCH_SOAK_REPORT_MINUTES ?? 5);
const CHATS_PER_SECOND = Number(process.env.BENCH_SOAK_CHATS_PER_SECOND ?? 4);
const TURNS = Number(process.env.BENCH_SOAK_TURNS ?? 4);
const THINK_MS = Number(process.env.BENCH_SOAK_THINK_MS ?? 2_000);
const BOT_READS = Number(process.env.BENCH_SOAK_BOT_READS ?? 2);
const ADMIN_READS = Number(process.env.BENCH_SOAK_ADMIN_READS ?? 2);
const RETAIN_MINUTES = Number(process.env.BENCH_SOAK_RETAIN_MINUTES ?? 5);
const WRITE = process.env.BENCH_WRITE !== '0';
const DB_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN = { email: 'bench-soak@example.test', password: 'bench-soak-password' };
/** The tables that grow with traffic, whose size must level off. */
const TABLES = [
  'chats',
  'messages',
  'customers',
  'events',
  'delivery_attempts',
  'bot_requests',
  'rate_limits',
  'delivery_rollups',
  'reply_timeouts',
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// HTTP client (keep-alive) and what it records

const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
type Reply = ApiReply;

/** Latencies and refusals of one interval, by kind of request. */
class Interval {
  lat = new Map<string, number[]>();
  bad = new Map<string, number>();
  delivery: number[] = [];
  webhooks = 0;
  duplicates = 0;
  record(kind: string, ms: number, ok: boolean) {
    const l = this.lat.get(kind) ?? [];
    if (!l.length) this.lat.set(kind, l);
    l.push(ms);
    if (!ok) this.bad.set(kind, (this.bad.get(kind) ?? 0) + 1);
  }
}
let current = new Interval();
/** Kinds of request whose first refusal has been printed. */
const reported = new Set<string>();

async function call(
  kind: string,
  method: string,
  p: string,
  body?: unknown,
  headers: Record<string, string> = {},
  want = 200,
): Promise<Reply> {
  const t0 = nowMs();
  try {
    const r = await jsonCall(agent, `${BASE}${p}`, method, body, headers);
    current.record(kind, r.at - t0, r.status === want);
    if (r.status !== want && !reported.has(kind)) {
      reported.add(kind);
      console.log(`[soak] first refusal of ${kind}: ${method} ${p} ${r.status} ${r.raw.slice(0, 300)}`);
    }
    return r;
  } catch {
    current.record(kind, nowMs() - t0, false);
    return { status: 0, headers: new Headers(), body: undefined, raw: '', setCookies: [], start: t0, at: nowMs() };
  }
}

async function must(method: string, p: string, body: unknown, headers: Record<string, string>, want: number): Promise<any> {
  const r = await call('set-up', method, p, body, headers, want);
  if (r.status !== want) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body.response;
}

// ---------------------------------------------------------------------------------------------
// The bot: a webhook receiver that reads and replies

type Bot = { url: string; close: () => Promise<void> };
/**
 * A customer message's delivery latency: its POST answered → its event at the bot. Either may come
 * first (the event is often delivered before the answer is read: negative then), so each side
 * waits in its own map for the other.
 */
const waiting = { sent: new Map<string, number>(), arrived: new Map<string, number>() };
/** One side of a customer message seen at `at`: records its latency if the other side was seen. */
function seen(side: 'sent' | 'arrived', text: string, at: number) {
  const other = waiting[side === 'sent' ? 'arrived' : 'sent'];
  const then = other.get(text);
  if (then === undefined) waiting[side].set(text, at);
  else {
    other.delete(text);
    current.delivery.push(side === 'arrived' ? at - then : then - at);
  }
}
const seenWebhooks = new Set<string>();

function startBot(getToken: () => string): Promise<Bot> {
  const server = http.createServer((req, res) => {
    void readBody(req).then((raw) => {
      res.writeHead(200).end();
      const id = String(req.headers['webhook-id'] ?? '');
      if (seenWebhooks.has(id)) current.duplicates++;
      seenWebhooks.add(id);
      current.webhooks++;
      // Only this interval's ids are needed to spot a repeat soon after; keep the set bounded.
      if (seenWebhooks.size > 200_000) seenWebhooks.clear();
      let event: any;
      try {
        event = JSON.parse(raw);
      } catch {
        return;
      }
      // The customer's first message comes with chat.assigned, the others with message.received.
      if (event.event_type !== 'message.received' && event.event_type !== 'chat.assigned') return;
      const text: string = event.payload?.messages?.[0]?.text ?? '';
      if (!text.startsWith('Customer ')) return;
      seen('arrived', text, nowMs());
      void answer(event.chat_id, event.team_id, text, getToken());
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    ),
  );
}

/** The bot's turn: read the chat, reply, and close it after the customer's last message. */
async function answer(chatId: string, teamId: number, text: string, token: string) {
  const h = { access_token: token };
  await call('bot: read chat', 'GET', `/api/v1/chats/${chatId}`, undefined, h);
  await call('bot: reply', 'POST', `/api/v1/chats/${chatId}/messages`, { type: 'outbound', text: `Re: ${text}` }, h, 201);
  if (text.endsWith(`turn ${TURNS}`)) {
    await call(
      'bot: close',
      'PATCH',
      `/api/v1/chats/${chatId}`,
      { status: 'closed', outcome: 'Answered' },
      { ...h, team_id: String(teamId) },
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Customers, bot reads and admin reads at fixed rates

let serial = 0;
const recentChats: string[] = [];

async function customer(appId: number) {
  const n = ++serial;
  const v = await call('customer: visitor', 'POST', `/api/widget/apps/${appId}/visitors`, undefined, {}, 201);
  if (v.status !== 201) return;
  const auth = { authorization: `Bearer ${v.body.response.token}` };
  const first = `Customer ${n} turn 1`;
  const c = await call('customer: new chat', 'POST', '/api/widget/chats', { text: first }, auth, 201);
  if (c.status !== 201) return;
  seen('sent', first, c.at);
  const chatId: string = c.body.response.chat_id;
  recentChats.push(chatId);
  if (recentChats.length > 100) recentChats.shift();
  for (let turn = 2; turn <= TURNS; turn++) {
    await sleep(THINK_MS);
    const text = `Customer ${n} turn ${turn}`;
    const r = await call('customer: message', 'POST', `/api/widget/chats/${chatId}/messages`, { text }, auth, 201);
    if (r.status === 201) seen('sent', text, r.at);
  }
}

/** Calls `fn` `perSecond` times a second until `until`, without waiting for one to end. */
async function every(perSecond: number, until: number, fn: (i: number) => Promise<unknown>) {
  const t0 = nowMs();
  const running = new Set<Promise<unknown>>();
  for (let i = 0; ; i++) {
    const due = t0 + (i * 1000) / perSecond;
    if (due >= until) break;
    const wait = due - nowMs();
    if (wait > 1) await sleep(wait);
    const p = fn(i).catch(() => {});
    running.add(p);
    void p.finally(() => running.delete(p));
  }
  await Promise.all(running);
}

function adminRead(i: number, cookie: string) {
  const h = { cookie };
  const chatId = recentChats[recentChats.length - 1 - (i % Math.max(1, recentChats.length))];
  switch (i % 4) {
    case 0:
      return call('admin: chats page', 'GET', '/api/admin/chats', undefined, h);
    case 1:
      return call('admin: search', 'GET', `/api/admin/chats?q=${encodeURIComponent(`Customer ${i % 1000}`)}`, undefined, h);
    case 2:
      return chatId ? call('admin: support view', 'GET', `/api/admin/chats/${chatId}`, undefined, h) : Promise.resolve();
    default:
      return call('admin: delivery figures', 'GET', '/api/admin/deliveries/stats', undefined, h);
  }
}

// ---------------------------------------------------------------------------------------------
// Figures

const p99 = (values: number[]) => quantile(values, 0.99);
const fmt = (v: number, digits = 0) => (Number.isFinite(v) ? v.toFixed(digits) : '–');

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

type TableRow = { table: string; bytes: number; rows: number; ins: number; del: number };
type Sample = {
  minute: number;
  seconds: number;
  kinds: Map<string, { n: number; p99: number; bad: number }>;
  webhooks: number;
  duplicates: number;
  deliveryP99: number;
  deliveries: number;
  rssMiB: number;
  cpuCores: number;
  tables: TableRow[];
};

async function tables(sql: postgres.Sql): Promise<TableRow[]> {
  const rows = await sql<{ table: string; bytes: string; rows: string; ins: string; del: string }[]>`
    select relname as table, pg_total_relation_size(relid) as bytes, n_live_tup as rows, n_tup_ins as ins, n_tup_del as del
    from pg_stat_user_tables where relname = any(${TABLES})`;
  return TABLES.map((t) => {
    const r = rows.find((x) => x.table === t);
    return { table: t, bytes: Number(r?.bytes ?? 0), rows: Number(r?.rows ?? 0), ins: Number(r?.ins ?? 0), del: Number(r?.del ?? 0) };
  });
}

/**
 * Where autovacuum is off (as on the machines these benches run on), a deleted row's space is never
 * reused and every table grows whatever retention does. Each minute the bench does what autovacuum
 * would with its default settings: VACUUM (ANALYZE) each table with more dead rows than 50 + 20 % of
 * its live ones, or more changes since its last ANALYZE than 50 + 10 %. Answers the tables vacuumed.
 */
async function vacuumLikeAutovacuum(sql: postgres.Sql): Promise<number> {
  const due = await sql<{ relname: string }[]>`
    select relname from pg_stat_user_tables
    where n_dead_tup > 50 + 0.2 * n_live_tup or n_mod_since_analyze > 50 + 0.1 * n_live_tup`;
  for (const { relname } of due) await sql.unsafe(`vacuum (analyze) "${relname}"`);
  return due.length;
}

// ---------------------------------------------------------------------------------------------

async function setUp(botUrl: string) {
  const login = await call('set-up', 'POST', '/api/admin/login', ADMIN);
  if (login.status !== 200) throw new Error(`admin login: ${login.status}`);
  const cookie = cookieOf(login);
  const h = { cookie, origin: BASE };
  const team = await must('POST', '/api/admin/teams', { name: 'Soak bots', auto_assign: true }, h, 201);
  const asset = await must('POST', '/api/admin/assets', { channel: 'livechat', name: 'Soak shop' }, h, 201);
  await must(
    'POST',
    '/api/admin/routing-rules',
    { name: 'Soak', position: 0, conditions: [{ field: 'asset_id', op: 'equals', value: String(asset.id) }], team_id: team.id },
    h,
    201,
  );
  const va = await must(
    'POST',
    '/api/admin/virtual-agents',
    {
      name: 'Soak bot',
      description: 'answers the soak',
      webhook_url: botUrl,
      subscriptions: ['chat.assigned', 'message.received', 'chat.closed'],
      team_id: team.id,
    },
    h,
    201,
  );
  const auth = await must('POST', '/api/v1/authorize', { api_key: va.api_key }, {}, 200);
  return { appId: asset.id as number, token: auth.access_token as string, apiKey: va.api_key as string, cookie };
}

async function main() {
  const started = new Date();
  const dbName = `bench_soak_${randomBytes(4).toString('hex')}`;
  const admin = postgres(DB_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  const url = new URL(DB_URL);
  url.pathname = `/${dbName}`;
  const db = postgres(url.toString(), { max: 1, onnotice: () => {} });
  let server: ProductionServer | undefined;
  let token = '';
  const bot = await startBot(() => token);
  const retainDays = String(RETAIN_MINUTES / 1440);
  try {
    server = startProductionServer(
      PORT,
      {
        DATABASE_URL: url.toString(),
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: 'warn',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        RATE_LIMIT_PER_MINUTE: '100000000',
        ADMIN_RATE_LIMIT_PER_MINUTE: '1000000',
        WIDGET_REQUESTS_PER_MINUTE_PER_ADDRESS: '100000000',
        WIDGET_VISITORS_PER_HOUR_PER_ADDRESS: '100000000',
        WIDGET_MESSAGES_PER_MINUTE: '1000000',
        RETENTION_INTERVAL_MINUTES: '1',
        EVENT_RETENTION_DAYS: retainDays,
        FAILED_EVENT_RETENTION_DAYS: retainDays,
        BOT_REQUEST_LOG_RETENTION_DAYS: retainDays,
        CHAT_RETENTION_DAYS: retainDays,
      },
      (line) => console.log(`[server] ${line}`),
      { keepOutput: false },
    );
    await waitForServer(server, 240_000, '/api/health/ready');
    const ctx = await setUp(bot.url);
    token = ctx.token;
    const pid = server.child.pid as number;
    console.log(`[soak] set up; ${MINUTES} min of load, a report every ${REPORT_MINUTES} min`);

    const t0 = nowMs();
    const end = t0 + MINUTES * 60_000;
    const samples: Sample[] = [];
    const [{ autovacuum }] = await db<{ autovacuum: string }[]>`select current_setting('autovacuum') as autovacuum`;
    let vacuums = 0;
    let vacuuming = false;
    const vacuumer =
      autovacuum === 'off'
        ? setInterval(async () => {
            if (vacuuming) return;
            vacuuming = true;
            vacuums += await vacuumLikeAutovacuum(db).catch(() => 0);
            vacuuming = false;
          }, 60_000)
        : undefined;
    let lastTables = await tables(db);
    let lastCpu = processCpuMs(pid) ?? Number.NaN;
    let lastAt = t0;
    // The access token lasts an hour; the bot authorizes again every 20 minutes, as a real one would.
    const renew = setInterval(() => {
      void must('POST', '/api/v1/authorize', { api_key: ctx.apiKey }, {}, 200).then(
        (r) => {
          token = r.access_token;
        },
        (err) => console.error('[soak] authorize failed', err),
      );
    }, 20 * 60_000);
    const sampler = setInterval(async () => {
      const done = current;
      current = new Interval();
      const at = nowMs();
      const tbl = await tables(db);
      const cpu = processCpuMs(pid) ?? Number.NaN;
      const kinds = new Map([...done.lat].map(([k, v]) => [k, { n: v.length, p99: p99(v), bad: done.bad.get(k) ?? 0 }]));
      const sample: Sample = {
        minute: Math.round((at - t0) / 60_000),
        seconds: (at - lastAt) / 1000,
        kinds,
        webhooks: done.webhooks,
        duplicates: done.duplicates,
        deliveryP99: p99(done.delivery),
        deliveries: done.delivery.length,
        rssMiB: rssMiB(pid),
        cpuCores: (cpu - lastCpu) / (at - lastAt),
        tables: tbl.map((t, i) => ({ ...t, ins: t.ins - lastTables[i].ins, del: t.del - lastTables[i].del })),
      };
      samples.push(sample);
      lastTables = tbl;
      lastCpu = cpu;
      lastAt = at;
      console.log(`[soak] ${summary(sample)}`);
    }, REPORT_MINUTES * 60_000);

    await Promise.all([
      every(CHATS_PER_SECOND, end, () => customer(ctx.appId)),
      every(BOT_READS, end, () => call('bot: newest chats', 'GET', '/api/v1/chats?page_size=20', undefined, { access_token: token })),
      every(ADMIN_READS, end, (i) => adminRead(i, ctx.cookie)),
    ]);
    // The last customers' turns end after `end`; the sampler has taken its last full interval by then.
    await sleep(Math.max(0, t0 + MINUTES * 60_000 + 2_000 - nowMs()));
    clearInterval(sampler);
    clearInterval(renew);
    clearInterval(vacuumer);
    const lost = waiting.sent.size;
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    const [pg] = await admin`select version()`;
    const section = report({ started, samples, load, pg: String(pg.version).split(' on ')[0], lost, autovacuum, vacuums });
    console.log(section);
    if (WRITE) writeSection(path.resolve('BENCHMARKS.md'), section, { start: '<!-- bench:soak:start -->', end: '<!-- bench:soak:end -->' });
  } finally {
    if (server) await stopProductionServer(server);
    await bot.close();
    await db.end();
    await sleep(500);
    await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch((err) => console.error('drop failed', err));
    await admin.end();
    agent.destroy();
  }
}

function summary(s: Sample): string {
  const reqs = [...s.kinds.values()].reduce((a, k) => a + k.n, 0);
  const bad = [...s.kinds.values()].reduce((a, k) => a + k.bad, 0);
  const worst = Math.max(...[...s.kinds.values()].map((k) => k.p99));
  const size = s.tables.reduce((a, t) => a + t.bytes, 0) / 2 ** 20;
  return `min ${s.minute}: ${fmt(reqs / s.seconds)} req/s, worst p99 ${fmt(worst)} ms, non-2xx ${bad}, webhooks ${fmt(s.webhooks / s.seconds, 1)}/s (p99 ${fmt(s.deliveryP99)} ms, ${s.duplicates} repeated), RSS ${fmt(s.rssMiB)} MiB, server ${fmt(s.cpuCores, 2)} cores, tables ${fmt(size, 1)} MiB`;
}

function report(r: {
  started: Date;
  samples: Sample[];
  load: string;
  pg: string;
  lost: number;
  autovacuum: string;
  vacuums: number;
}): string {
  const kinds = [...new Set(r.samples.flatMap((s) => [...s.kinds.keys()]))].filter((k) => k !== 'set-up').sort();
  const head = r.samples.map((s) => `min ${s.minute}`).join(' | ');
  const align = r.samples.map(() => '---:').join('|');
  const row = (label: string, f: (s: Sample) => string) => `| ${label} | ${r.samples.map(f).join(' | ')} |`;
  const settled = r.samples.findIndex((s) => s.minute >= RETAIN_MINUTES + 2 * REPORT_MINUTES);
  const first = r.samples[settled === -1 ? 0 : settled];
  const last = r.samples.at(-1);
  const ratio = (a: number, b: number) => (b ? `${fmt((100 * a) / b)} %` : '–');
  const total = (s: Sample) => [...s.kinds.values()].reduce((a, k) => a + k.n, 0) / s.seconds;
  const tableMiB = (s: Sample) => s.tables.reduce((a, t) => a + t.bytes, 0) / 2 ** 20;
  const drift =
    first && last
      ? `- Drift, the last interval (min ${last.minute}) against the first with full retention periods behind it (min ${first.minute}): requests a second ${ratio(total(last), total(first))}, webhooks a second ${ratio(last.webhooks / last.seconds, first.webhooks / first.seconds)}, delivery p99 ${fmt(first.deliveryP99)} → ${fmt(last.deliveryP99)} ms, server memory ${fmt(first.rssMiB)} → ${fmt(last.rssMiB)} MiB, the tables ${fmt(tableMiB(first), 1)} → ${fmt(tableMiB(last), 1)} MiB.`
      : '';
  return `<!-- bench:soak:start -->
## bench:soak: ${MINUTES} minutes of steady mixed load

Run ${r.started.toISOString()} with \`npm run bench:soak\` (\`tsx bench/soak.ts\`${MINUTES === 60 ? '' : `, BENCH_SOAK_MINUTES=${MINUTES}`}): the production server (\`node scripts/start.mjs\` of the build, one instance, its delivery engine on) on a fresh PostgreSQL database; retention every minute with every period at ${RETAIN_MINUTES} minutes (events, failed events, the bot request log, closed chats), limits too high to trip, \`LOG_LEVEL=warn\`. Load from one process at fixed rates: ${CHATS_PER_SECOND} new widget chats a second, each with ${TURNS} customer messages ${THINK_MS / 1000} s apart; one VA whose webhook (a real HTTP receiver here) reads the chat and replies to every message and closes the chat after the last; the bot's newest page ${BOT_READS} times a second; ${ADMIN_READS} admin reads a second (the chats page, a search, a support view, the delivery figures in turn).

Machine: ${os.cpus().length} CPUs, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.cpus()[0]?.model ?? ''}; Node ${process.version}; ${r.pg} on the same machine, autovacuum ${r.autovacuum}${r.autovacuum === 'off' ? ` (so the bench did its work: every minute, VACUUM (ANALYZE) of each table past autovacuum's default thresholds, ${r.vacuums} in all)` : ''}. Load average at the end: ${r.load}.

Requests a second (p99 ms) per kind, each interval of ${REPORT_MINUTES} minutes:

| kind | ${head} |
|---|${align}|
${kinds
  .map((k) =>
    row(k, (s) => {
      const x = s.kinds.get(k);
      return x ? `${fmt(x.n / s.seconds, 1)} (${fmt(x.p99)})${x.bad ? ` **${x.bad} failed**` : ''}` : '–';
    }),
  )
  .join('\n')}
${row('all requests a second', (s) => fmt(total(s)))}
${row('webhooks received a second', (s) => fmt(s.webhooks / s.seconds, 1))}
${row('message → webhook p99 ms', (s) => fmt(s.deliveryP99))}
${row('webhooks repeated', (s) => String(s.duplicates))}
${row('server resident MiB', (s) => fmt(s.rssMiB))}
${row('server CPU (cores)', (s) => fmt(s.cpuCores, 2))}

Tables: size MiB (rows), and rows inserted / deleted in the interval:

| table | ${head} |
|---|${align}|
${TABLES.map((t) =>
  row(t, (s) => {
    const x = s.tables.find((y) => y.table === t);
    return x ? `${fmt(x.bytes / 2 ** 20, 1)} (${x.rows}) +${x.ins} −${x.del}` : '–';
  }),
).join('\n')}
${row('all', (s) => fmt(tableMiB(s), 1))}

${drift}
- Customer messages whose message.received never reached the bot by the end: ${r.lost}.
<!-- bench:soak:end -->`;
}

await main();
