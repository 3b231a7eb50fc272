/**
 * npm run bench:open-widgets: a busy website's open chat widgets on `npm start`, written to
 * BENCHMARKS.md between `<!-- bench:open-widgets:start -->` and `<!-- bench:open-widgets:end -->`.
 *
 * BENCH_WIDGETS (15,000) customers arrive at BENCH_OPEN_RATE (100/s): each creates its visitor and
 * chat and opens its widget stream, from one of BENCH_ADDRESSES (1,000) loopback addresses
 * (127.1.x.y, bound as the sockets' local address, so the server's per-address limits see that many
 * sources; the widget's limits stay at their defaults). The streams are then held BENCH_HOLD_SECONDS
 * (600) by BENCH_HOLDERS (4) child processes of the bench, every frame timed where it is read, and a
 * bot POSTs outbound messages at BENCH_FANOUT_RATE (500/s) for
 * BENCH_FANOUT_SECONDS (10) to chats picked at random, timed to their arrival in the widget from the
 * POST's start (an upper bound) and from its answer (a lower bound). The servers are restarted
 * between the arrival and the streams, so the memory read is the streams'. In the same run, a bare
 * node:http server (bench/bare-sse-server.mjs) holds as many streams the same way: the ceiling for
 * resident memory.
 *
 * The cases, each on fresh server processes over the same database and customers:
 *   one: one instance holds every stream and takes every POST;
 *   two: two instances on the one PostgreSQL, the streams and the POSTs spread over both.
 * BENCH_FANOUT_WARMUP_SECONDS (5) of POSTs at the same rate run first on the freshly started
 * servers and are reported apart (the cold start), then the measured BENCH_FANOUT_SECONDS.
 * BENCH_CASES=one (or two) runs one of them; BENCH_HOLD_SECONDS shortens the hold; BENCH_SAMPLES=<file> writes each message's timing (to <file>.<instances>) and the bench's own stalls (<file>.<instances>.stalls); BENCH_WRITE=0
 * prints only; BENCH_NODE_ARGS passes flags to the servers' node (a CPU profile). Needs the build (`npm run build`) and a PostgreSQL (DATABASE_URL, default local).
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { ApiClient, cookieOf } from '@/test/support/api-client';
import { nowMs } from '@/test/support/clock';
import { type ProductionServer, startProductionServer, stopProductionServer, waitForServer } from '@/test/support/production-server';
import { spread } from '@/test/support/stats';
import { writeSection } from './report';
import { freePort, paced, postgresCpu, postgresCpuSince, processCpuMs } from './servers';
import { createWidgetTenant } from './widget-tenant';

const WIDGETS = Number(process.env.BENCH_WIDGETS ?? 15_000);
const OPEN_RATE = Number(process.env.BENCH_OPEN_RATE ?? 100);
const ADDRESSES = Number(process.env.BENCH_ADDRESSES ?? 1_000);
const HOLD_SECONDS = Number(process.env.BENCH_HOLD_SECONDS ?? 600);
const FANOUT_RATE = Number(process.env.BENCH_FANOUT_RATE ?? 500);
const FANOUT_SECONDS = Number(process.env.BENCH_FANOUT_SECONDS ?? 10);
const FANOUT_WARMUP_SECONDS = Number(process.env.BENCH_FANOUT_WARMUP_SECONDS ?? 5);
const HOLDERS = Math.max(1, Number(process.env.BENCH_HOLDERS ?? 4));
const HEARTBEAT_S = 25;
const DB_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN = { email: 'bench-open@example.test', password: 'bench-open-widgets-password' };
const TARGET = { memoryRatio: 1.5, p99Ms: 100 };

type Case = { key: string; label: string; instances: number };
const CASES: Case[] = [
  { key: 'one', label: 'one instance', instances: 1 },
  { key: 'two', label: 'two instances on one PostgreSQL, streams and POSTs spread over both', instances: 2 },
].filter((c) => !process.env.BENCH_CASES || process.env.BENCH_CASES.split(',').includes(c.key));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (...a: unknown[]) => console.log(`[bench:open-widgets ${new Date().toISOString().slice(11, 19)}]`, ...a);
const loadNow = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
const addressOf = (i: number) => `127.1.${Math.floor((i % ADDRESSES) / 250)}.${((i % ADDRESSES) % 250) + 1}`;

type Customer = { token: string; chatId: string; address: string };
type Held = { close: () => Promise<void>; ended: () => boolean; maxGapMs: () => number };

/** A tenant whose livechat chats go to one pull VA; answers the app and the VA's token. */
async function setUp(base: string) {
  const admin = new ApiClient('admin', { base });
  const login = await admin.login(ADMIN.email, ADMIN.password);
  if (login.status !== 200) throw new Error(`admin login: ${login.raw}`);
  const post = async (p: string, body: unknown) => {
    const r = await admin.post(p, body, { headers: { origin: base, cookie: cookieOf(login) } });
    if (r.status !== 201) throw new Error(`${p}: ${r.raw}`);
    return r.body.response;
  };
  const { assetId, apiKey } = await createWidgetTenant(post, {
    team: 'Open widgets',
    asset: 'Busy shop',
    va: 'Shop bot',
    description: 'answers the busy shop',
  });
  const auth = await new ApiClient('bot', { base }).post('/authorize', { api_key: apiKey });
  return { appId: assetId, vaToken: auth.body.response.access_token as string };
}

let retried = 0;
/** A customer's call, again after Retry-After (at most 5 s, 10 times) when the server asks for it (429, 503), as the widget does. */
async function withRetry(call: () => Promise<import('@/test/support/api-client').ApiReply>) {
  for (let attempt = 0; ; attempt++) {
    const r = await call();
    if ((r.status !== 429 && r.status !== 503) || attempt === 10) return r;
    retried++;
    await sleep(Math.min(5, Number(r.headers.get('retry-after') ?? 1)) * 1000);
  }
}

/** The customers' arrival rate achieved (visitor and chat each), for the report: a team's chat starts queue (auto-assign's lock). */
let arrivedPerSecond = Number.NaN;

/** Each customer arrives: its visitor and chat, from its own address. */
async function arrive(base: string, appId: number): Promise<Customer[]> {
  const t0 = nowMs();
  const agents = new Map<string, http.Agent>();
  const agentOf = (a: string) =>
    agents.get(a) ?? agents.set(a, new http.Agent({ keepAlive: true, maxSockets: 2, localAddress: a })).get(a)!;
  const out: Customer[] = new Array(WIDGETS);
  await paced(WIDGETS, OPEN_RATE, async (i) => {
    const address = addressOf(i);
    const widget = new ApiClient('widget', { base, agent: agentOf(address) });
    const v = await withRetry(() => widget.post(`/apps/${appId}/visitors`));
    if (v.status !== 201) throw new Error(`visitor ${i} from ${address}: ${v.status} ${v.raw.slice(0, 200)}`);
    const token = v.body.response.token as string;
    const chat = await withRetry(() => widget.post('/chats', { text: 'hello' }, { token }));
    if (chat.status !== 201) throw new Error(`chat ${i} from ${address}: ${chat.status} ${chat.raw.slice(0, 200)}`);
    out[i] = { token, chatId: chat.body.response.chat_id, address };
  });
  arrivedPerSecond = WIDGETS / ((nowMs() - t0) / 1000);
  for (const a of agents.values()) a.destroy();
  return out;
}

/** A customer's stream to open, and the instance it goes to. */
type Stream = Customer & { base: string };
/** Customer i's stream goes to `bases[i % n]`. */
const streamsOf = (bases: string[], customers: Customer[]): Stream[] => customers.map((c, i) => ({ ...c, base: bases[i % bases.length] }));

/** Opens each stream at `rate`; `hear` gets each message. */
async function openAll(streams: Stream[], rate: number, hear: (text: string, at: number) => void): Promise<Held[]> {
  const unused = new http.Agent(); // streams open their own sockets (agent: false); this spares a pool per client
  const held: Held[] = new Array(streams.length);
  await paced(streams.length, rate, async (i) => {
    const c = streams[i];
    let last = nowMs();
    let maxGap = 0;
    const opened = await new ApiClient('widget', {
      base: c.base,
      token: c.token,
      localAddress: c.address,
      agent: unused,
    }).stream(`/chats/${c.chatId}/stream`, {
      keep: false,
      onFrame: (f) => {
        maxGap = Math.max(maxGap, f.at - last);
        last = f.at;
        if (f.event === 'message' && typeof f.json?.text === 'string') hear(f.json.text, f.at);
      },
    });
    if (!opened.sse) throw new Error(`stream ${i}: ${opened.status} ${JSON.stringify(opened.refusal)}`);
    const sse = opened.sse;
    held[i] = { close: () => sse.close(), ended: () => sse.ended, maxGapMs: () => Math.max(maxGap, nowMs() - last) };
  });
  return held;
}

/**
 * What a holder process is told and answers. The customers' streams are held in BENCH_HOLDERS
 * child processes, not in the bench's own: 15,000 streams in one process grew its heap to 300-435
 * MiB, and its collections (743 and 939 ms pauses seen during a 500/s burst) were counted in the
 * latency of the POSTs it timed. Each holder stamps a frame when it reads it (`nowMs`, comparable
 * across processes) and sends the stamp on; the IPC's own delay does not count.
 */
type ToHolder = { open: { streams: Stream[]; rate: number } } | { status: true } | { close: true };
type FromHolder =
  | { opened: number }
  | { failed: string }
  | { heard: [string, number][] }
  | { status: { ended: number; gaps: number[] } }
  | { closed: true };

/** A holder's side: opens its share of the streams when told, passes on the fan-out's messages as they arrive. */
function runHolder() {
  const send = (m: FromHolder) => process.send?.(m);
  let held: Held[] = [];
  let heard: [string, number][] = [];
  // Stamps are taken on arrival; they are sent on in batches, at most 20 ms apart.
  setInterval(() => {
    if (!heard.length) return;
    send({ heard });
    heard = [];
  }, 20).unref();
  process.on('message', async (m: ToHolder) => {
    if ('open' in m) {
      try {
        held = await openAll(m.open.streams, m.open.rate, (text, at) => {
          if (text.startsWith('fan-')) heard.push([text, at]);
        });
        send({ opened: held.length });
      } catch (err) {
        send({ failed: String(err) });
      }
    } else if ('status' in m) {
      send({ status: { ended: held.filter((h) => h.ended()).length, gaps: held.map((h) => h.maxGapMs()) } });
    } else if ('close' in m) {
      for (const h of held) await h.close();
      send({ closed: true });
      process.exit(0);
    }
  });
}

/** The streams held in child processes: `open` spreads the customers over them, `status` and `close` ask each. */
class Holders {
  private constructor(private readonly children: ChildProcess[]) {}

  static start(count: number, hear: (text: string, at: number) => void): Holders {
    const children = Array.from({ length: count }, () => fork(import.meta.filename, ['--holder'], { stdio: 'inherit' }));
    for (const child of children)
      child.on('message', (m: FromHolder) => {
        if ('heard' in m) for (const [text, at] of m.heard) hear(text, at);
      });
    return new Holders(children);
  }

  /** Sends `message` and waits for the answer `pick` takes; a holder that fails or exits first rejects, naming what was asked. */
  private ask<T>(child: ChildProcess, message: ToHolder, pick: (m: FromHolder) => T | undefined): Promise<T> {
    return new Promise((resolve, reject) => {
      const done = () => {
        child.off('message', on);
        child.off('exit', exited);
      };
      const on = (m: FromHolder) => {
        if ('failed' in m) {
          done();
          reject(new Error(`holder ${child.pid}: ${m.failed}`));
          return;
        }
        const got = pick(m);
        if (got === undefined) return;
        done();
        resolve(got);
      };
      const exited = (code: number | null) => {
        done();
        reject(new Error(`holder ${child.pid} exited (${code}) before answering ${Object.keys(message)[0]}`));
      };
      child.on('message', on);
      child.once('exit', exited);
      child.send(message);
    });
  }

  /** Stream i goes to holder i % count; each opens its share at its share of `rate`. */
  async open(streams: Stream[], rate: number): Promise<void> {
    const n = this.children.length;
    await Promise.all(
      this.children.map((child, k) =>
        this.ask(child, { open: { streams: streams.filter((_, i) => i % n === k), rate: rate / n } }, (m) =>
          'opened' in m ? m.opened : undefined,
        ),
      ),
    );
  }

  async status(): Promise<{ ended: number; gaps: number[] }> {
    const all = await Promise.all(this.children.map((c) => this.ask(c, { status: true }, (m) => ('status' in m ? m.status : undefined))));
    return { ended: all.reduce((s, a) => s + a.ended, 0), gaps: all.flatMap((a) => a.gaps) };
  }

  async close(): Promise<void> {
    await Promise.all(this.children.map((c) => this.ask(c, { close: true }, (m) => ('closed' in m ? true : undefined))));
  }

  kill(): void {
    for (const c of this.children) c.kill('SIGKILL');
  }
}

/** Outbound messages at FANOUT_RATE to random chats, POSTed round-robin to `bases`; arrival from the POST's start and answer. */
async function fanOut(
  bases: string[],
  vaToken: string,
  customers: Customer[],
  arrivals: Map<string, (at: number) => void>,
  pids: number[],
  { seconds, cold }: { seconds: number; cold: boolean } = { seconds: FANOUT_SECONDS, cold: false },
) {
  const bots = bases.map((base) => new ApiClient('bot', { base, token: vaToken }));
  const fromStart: number[] = [];
  const fromAnswer: number[] = [];
  const waits: Promise<void>[] = [];
  let refused = 0;
  let missing = 0;
  const samples: [number, number, number][] = []; // [POST's start after the first, from start, from answer] ms
  const total = FANOUT_RATE * seconds;
  const cpu0 = pids.map((p) => processCpuMs(p) ?? Number.NaN);
  const t0 = nowMs();
  // The monotonic clock at the first POST, in µs: the clock a server's `--cpu-prof` stamps its samples with.
  const hr0 = Number(process.hrtime.bigint() / 1000n);
  // The bench's own stalls (its timers late by more than 20 ms): a stall here delays the reading of
  // answers and arrivals alike, and would pass for the server's. Written with the samples.
  const stalls: [number, number][] = [];
  let tick = t0;
  const watch = setInterval(() => {
    const now = nowMs();
    if (now - tick > 25) stalls.push([Math.round(tick - t0), Math.round(now - tick - 5)]);
    tick = now;
  }, 5);
  await paced(
    total,
    FANOUT_RATE,
    async (i) => {
      const c = customers[Math.floor(Math.random() * customers.length)];
      const text = `fan-${i}-${randomBytes(3).toString('hex')}`;
      // Listening before the POST: the message may arrive before its answer is read.
      const arrived = new Promise<number>((resolve) => arrivals.set(text, resolve));
      const r = await bots[i % bots.length].post(`/chats/${c.chatId}/messages`, { type: 'outbound', text });
      if (r.status !== 201) {
        refused++;
        arrivals.delete(text);
        return;
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('not received within 30 s of the answer')), 30_000);
      });
      waits.push(
        Promise.race([arrived, late])
          .then((at) => {
            fromStart.push(at - r.start);
            fromAnswer.push(at - r.at);
            samples.push([Math.round(r.start - t0), Math.round(at - r.start), Math.round((at - r.at) * 10) / 10]);
          })
          .catch(() => {
            missing++;
          })
          .finally(() => clearTimeout(timer)),
      );
    },
    1_000,
  );
  const took = (nowMs() - t0) / 1000;
  await Promise.all(waits);
  clearInterval(watch);
  const cpuMs = pids.reduce((sum, p, k) => sum + ((processCpuMs(p) ?? Number.NaN) - cpu0[k]), 0);
  // BENCH_SAMPLES=<file>: every message's timing, to see when in the run a tail happened; beside it
  // (`.stalls`) the wall-clock and monotonic time of the first POST and the bench's own stalls ([after it, ms]).
  if (process.env.BENCH_SAMPLES) {
    const file = `${process.env.BENCH_SAMPLES}.${bases.length}${cold ? '.cold' : ''}`;
    fs.writeFileSync(file, JSON.stringify(samples.sort((a, b) => a[0] - b[0])));
    fs.writeFileSync(`${file}.stalls`, JSON.stringify({ t0: new Date(t0).toISOString(), monotonicMicros: hr0, stalls }));
  }
  return {
    total,
    rate: total / took,
    refused,
    missing,
    start: spread(fromStart),
    answer: spread(fromAnswer),
    cpuPerMessage: cpuMs / total,
  };
}

async function startInstance(port: number, dbUrl: string): Promise<ProductionServer> {
  const server = startProductionServer(
    port,
    {
      DATABASE_URL: dbUrl,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      // The bot's tenant sends 30,000 messages a minute here; the widget's limits stay at their defaults.
      RATE_LIMIT_PER_MINUTE: '100000000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    (line) => console.log(line),
    // BENCH_NODE_ARGS: flags for the servers' node (a profile: `--cpu-prof --cpu-prof-dir=/tmp/p`).
    { keepOutput: false, nodeArgs: (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean) },
  );
  await waitForServer(server, 240_000, '/api/health/ready');
  return server;
}

/** The bare server (no `args`), or its clients (`hold`): answers once it prints its first line. */
function startBare(port: number, args: string[] = []): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join('bench', 'bare-sse-server.mjs'), ...args], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`bare server exited ${code}`)));
  });
}

type Result = Awaited<ReturnType<typeof runCase>>;

type Ctx = { appId: number; vaToken: string };

async function runCase(k: Case, dbUrl: string, prior: { customers: Customer[]; ctx: Ctx } | undefined) {
  const ports = await Promise.all(Array.from({ length: k.instances }, () => freePort()));
  const servers: ProductionServer[] = [];
  for (const p of ports) servers.push(await startInstance(p, dbUrl));
  const bases = servers.map((s) => s.base);
  let pids = servers.map((s) => s.child.pid as number);
  const barePort = await freePort();
  const bare = await startBare(barePort);
  let holders: Holders | undefined;
  const stop = async () => {
    holders?.kill();
    bare.kill('SIGTERM');
    for (const s of servers) await stopProductionServer(s);
  };
  try {
    const ctx = prior?.ctx ?? (await setUp(bases[0]));
    const load0 = loadNow();
    log(`${k.key}: ${WIDGETS} customers arrive at ${OPEN_RATE}/s from ${ADDRESSES} addresses`);
    const list = prior?.customers ?? (await arrive(bases[0], ctx.appId));
    // The streams' memory is read on fresh processes: the arrival's garbage would otherwise hide
    // them in a heap it had already grown. 50 streams opened and closed first load their code.
    for (let i = 0; i < servers.length; i++) {
      await stopProductionServer(servers[i]);
      servers[i] = await startInstance(ports[i], dbUrl);
    }
    pids = servers.map((s) => s.child.pid as number);
    for (const h of await openAll(streamsOf(bases, list.slice(0, 50)), OPEN_RATE, () => {})) await h.close();
    await sleep(3_000);
    const rssBefore = pids.map(rssMiB);
    const arrivals = new Map<string, (at: number) => void>();
    const hear = (text: string, at: number) => {
      arrivals.get(text)?.(at);
      arrivals.delete(text);
    };
    log(`${k.key}: opening ${list.length} streams at ${OPEN_RATE}/s from ${HOLDERS} holder processes`);
    holders = Holders.start(HOLDERS, hear);
    const openCpu0 = pids.map((p) => processCpuMs(p) ?? Number.NaN);
    const openPg0 = postgresCpu(new URL(dbUrl));
    await holders.open(streamsOf(bases, list), OPEN_RATE);
    // What opening one stream costs, from the first open to the last answer: server and PostgreSQL CPU.
    const opening = {
      server: pids.reduce((sum, p, k) => sum + ((processCpuMs(p) ?? Number.NaN) - openCpu0[k]), 0) / list.length,
      postgres: postgresCpuSince(new URL(dbUrl), openPg0) / list.length,
    };
    log(`${k.key}: opened; CPU ms a stream: server ${opening.server.toFixed(2)}, PostgreSQL ${opening.postgres.toFixed(2)}`);
    const bareRssBefore = rssMiB(bare.pid as number);
    const bareClients = await startBare(barePort, ['hold', String(list.length), String(ADDRESSES)]);
    await sleep(5_000);
    const rssOpen = pids.map(rssMiB);
    const bareRss = rssMiB(bare.pid as number);
    log(
      `${k.key}: open; resident ${rssOpen.map((r) => r.toFixed(0)).join(' + ')} MiB, bare ${bareRss.toFixed(0)} MiB; holding ${HOLD_SECONDS} s`,
    );
    const holdUntil = nowMs() + HOLD_SECONDS * 1000;
    let rssPeak = rssOpen.reduce((a, b) => a + b, 0);
    while (nowMs() < holdUntil) {
      await sleep(Math.min(30_000, Math.max(0, holdUntil - nowMs())));
      rssPeak = Math.max(
        rssPeak,
        pids.map(rssMiB).reduce((a, b) => a + b, 0),
      );
      log(`${k.key}: ${(await holders.status()).ended} ended; load ${loadNow()}`);
    }
    const held = await holders.status();
    const ended = held.ended;
    const gaps = spread(held.gaps);
    log(`${k.key}: fan-out at ${FANOUT_RATE}/s for ${FANOUT_SECONDS} s; server pids ${pids.join(' ')}`);
    // The servers were restarted before the streams opened and have not yet taken a bot's POST:
    // the first seconds of POSTs meet a cold process (its first calls to the route load its code,
    // and V8 has not yet optimised it). They run first, at the same rate, and are reported apart.
    log(`${k.key}: ${FANOUT_WARMUP_SECONDS} s of POSTs at ${FANOUT_RATE}/s on the cold servers first`);
    const cold =
      FANOUT_WARMUP_SECONDS > 0
        ? await fanOut(bases, ctx.vaToken, list, arrivals, pids, { seconds: FANOUT_WARMUP_SECONDS, cold: true })
        : null;
    const pg0 = postgresCpu(new URL(dbUrl));
    const fan = await fanOut(bases, ctx.vaToken, list, arrivals, pids);
    const pgCpuPerMessage = postgresCpuSince(new URL(dbUrl), pg0) / fan.total;
    const rssEnd = pids.map(rssMiB);
    await holders.close();
    holders = undefined;
    bareClients.kill('SIGTERM');
    return {
      k,
      customers: list,
      retried,
      ctx,
      rssBefore,
      rssOpen,
      rssEnd,
      rssPeak,
      bareRssBefore,
      bareRss,
      ended,
      gaps,
      fan,
      cold,
      pgCpuPerMessage,
      opening,
      load: `${load0} → ${loadNow()}`,
    };
  } finally {
    await stop();
  }
}

function report(results: Result[], started: Date, pg: string): string {
  const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
  const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '–');
  const met = (ok: boolean) => (ok ? 'met' : '**not met**');
  const rows = results.map((r) => {
    const server = r.rssOpen.reduce((a, b) => a + b, 0);
    const perStream = ((server - r.rssBefore.reduce((a, b) => a + b, 0)) * 1024) / WIDGETS;
    const barePer = ((r.bareRss - r.bareRssBefore) * 1024) / WIDGETS;
    return { r, server, perStream, barePer, ratio: server / r.bareRss, perRatio: perStream / barePer };
  });
  return [
    '<!-- bench:open-widgets:start -->',
    "## bench:open-widgets: a busy website's open widgets",
    '',
    `Run ${started.toISOString()} with \`npm run bench:open-widgets\` (\`tsx bench/open-widgets.ts\`): ${f0(WIDGETS)} customers arriving at ${OPEN_RATE}/s asked (visitor and chat: ${f0(arrivedPerSecond)}/s achieved; then the widget's stream, opened at ${OPEN_RATE}/s asked) from ${f0(ADDRESSES)} loopback addresses (127.1.x.y as the sockets' source; the widget's per-address and per-customer limits at their defaults, the bot tenant's limit raised for 30,000 messages a minute), held ${HOLD_SECONDS} s, then a bot POSTing outbound messages at ${FANOUT_RATE}/s for ${FANOUT_SECONDS} s to chats at random. Production servers (\`npm start\` of the build), restarted after the customers' arrival (the streams' memory is read on fresh processes, after 50 streams opened and closed), a fresh PostgreSQL database; ${HOLDERS} child processes of the bench holding the streams (node:http; each frame stamped where it is read) and a bare node:http server holding as many streams the same way (\`bench/bare-sse-server.mjs\`: the memory ceiling) run beside them. Latency from the POST's start (upper bound) and from its answer (lower bound) to the message read from the widget's stream.`,
    '',
    `Machine: ${os.cpus().length} CPUs, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.cpus()[0]?.model ?? ''}; Node ${process.version}; ${pg}, on the same machine. Load average (1, 5, 15 min) at each case's start and end: ${results.map((r) => `${r.k.key} ${r.load}`).join('; ')} (2.0 is a full machine).`,
    '',
    "| case | streams alive after the hold | longest silence on a stream s (p50 / max) | resident MiB: before → open (per stream KiB) | bare server MiB (per stream KiB) | ours ÷ bare, whole / per stream | messages/s (asked) | from the POST's start p50 / p99 ms | from its answer p50 / p99 ms | not received | CPU ms per message: server / PostgreSQL |",
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      ({ r, server, perStream, barePer, ratio, perRatio }) =>
        `| ${r.k.label} | ${f0(WIDGETS - r.ended)} of ${f0(WIDGETS)} | ${f1(r.gaps.p50 / 1000)} / ${f1(r.gaps.max / 1000)} | ${f0(r.rssBefore.reduce((a, b) => a + b, 0))} → ${f0(server)} (${f1(perStream)}) | ${f0(r.bareRss)} (${f1(barePer)}) | ${ratio.toFixed(2)}x / ${perRatio.toFixed(2)}x | ${f0(r.fan.rate)} (${FANOUT_RATE}) | ${f1(r.fan.start.p50)} / **${f1(r.fan.start.p99)}** | ${f1(r.fan.answer.p50)} / ${f1(r.fan.answer.p99)} | ${r.fan.missing + r.fan.refused} | ${r.fan.cpuPerMessage.toFixed(2)} / ${r.pgCpuPerMessage.toFixed(2)} |`,
    ),
    '',
    ...rows.map(({ r, ratio, perRatio }) =>
      [
        `- ${r.k.label}: memory within ${TARGET.memoryRatio}x of the bare server: whole process ${ratio.toFixed(2)}x (${met(ratio <= TARGET.memoryRatio)}), per stream ${perRatio.toFixed(2)}x (${met(perRatio <= TARGET.memoryRatio)});`,
        `opening a stream: ${r.opening.server.toFixed(2)} ms server and ${r.opening.postgres.toFixed(2)} ms PostgreSQL CPU (at ${OPEN_RATE}/s asked);`,
        `every stream alive with heartbeats (${HEARTBEAT_S} s apart): ${met(r.ended === 0 && r.gaps.max < 2 * HEARTBEAT_S * 1000)};`,
        `p99 < ${TARGET.p99Ms} ms from the POST's start at ${FANOUT_RATE}/s: ${r.fan.rate < 0.95 * FANOUT_RATE ? `**not met**: ${f0(r.fan.rate)}/s achieved` : met(r.fan.start.p99 < TARGET.p99Ms && r.fan.missing === 0)}. Arrival calls the server asked to retry (429/503 with Retry-After), retried: ${f0(r.retried)}.`,
        r.cold
          ? `The first ${FANOUT_WARMUP_SECONDS} s of POSTs after the restart (cold servers, not counted): ${f0(r.cold.rate)}/s carried, from the POST's start p50 ${f1(r.cold.start.p50)} / p99 ${f1(r.cold.start.p99)} ms, from its answer p99 ${f1(r.cold.answer.p99)} ms, ${r.cold.cpuPerMessage.toFixed(2)} ms server CPU a message, ${r.cold.missing + r.cold.refused} not received.`
          : '',
      ].join(' '),
    ),
    '<!-- bench:open-widgets:end -->',
  ].join('\n');
}

async function main() {
  const started = new Date();
  const admin = postgres(DB_URL, { max: 1, onnotice: () => {} });
  const name = `va_bench_open_widgets_${process.pid}`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(DB_URL);
  url.pathname = `/${name}`;
  const results: Result[] = [];
  try {
    for (const k of CASES) results.push(await runCase(k, url.toString(), results[0]));
    const [pg] = await admin`select version()`;
    const section = report(results, started, String(pg.version).split(' on ')[0]);
    console.log(section);
    if (process.env.BENCH_WRITE !== '0')
      writeSection(path.resolve('BENCHMARKS.md'), section, {
        start: '<!-- bench:open-widgets:start -->',
        end: '<!-- bench:open-widgets:end -->',
      });
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

if (process.argv[2] === '--holder') runHolder();
else await main();
