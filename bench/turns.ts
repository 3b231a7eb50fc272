/**
 * npm run bench:turns: turn-taking (docs/guide/turns.md) as a widget customer and a bot see it, on
 * the production server (`node scripts/start.mjs` of the build, one instance on BENCH_PORT, default
 * 3331) over a fresh PostgreSQL database beside DATABASE_URL's (dropped at the end). Written to
 * docs/benchmarks/turns.md (BENCHMARKS.md, kept short, has its headline row by hand).
 *
 * Each case of CASES runs with a webhook bot (a node:http receiver in this process, answering 200 at
 * once) and with a pulling bot (`GET /api/v1/events/stream`, acknowledged as it goes), each bot the
 * VA of its own livechat asset:
 *  - burst: BENCH_CONVERSATIONS (1,000) widget customers, BENCH_CONCURRENCY (150) at a time, VA with
 *    `turn_window_ms` 2000 and `on_new_turn: supersede`. A customer sends 3 fragments 1.5 s apart,
 *    typing between them as the widget reports it: each message sent "still typing", the customer
 *    going on within the widget's after-send pause (no other call), and "stopped" 400 ms after the
 *    3rd and the 4th (the pause with no key). The bot answers
 *    every turn with a stream naming its turn (a chunk every 200 ms, 12 chunks); once the customer's
 *    widget shows a chunk after the 3rd fragment, the customer sends a 4th. A refused chunk (2101
 *    expected) makes the bot try the whole answer as a late reply (2100 expected). Counted: the turns
 *    fragments 1-3 came in (the model calls), whether the 4th's turn superseded the 3rd's, stale
 *    replies (shown after the customer had written in a later turn), fragments lost or doubled.
 *  - lone message: BENCH_LONE (400) single messages from customers who are not typing, 10 chats at a
 *    time, in blocks of 50 with the window off, on, and on for a widget typist (the message "still
 *    typing", then "stopped" after the widget's 400 ms pause; BENCH_LONE / 2 samples): the time from
 *    the POST's start to the bot reading its `message.received`.
 * Knobs: BENCH_NOTE (what else ran on the machine, for the report), BENCH_WRITE=0 (print only), BENCH_CASES=burst|lone, BENCH_GRACE_MS (the server's
 * TURN_NOT_TYPING_GRACE_MS; its default, 150, when unset), and the ones above.
 */

import { randomBytes } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { ApiClient, readBody } from '@/test/support/api-client';
import { nowMs } from '@/test/support/clock';
import { type ProductionServer, startProductionServer, stopProductionServer, waitForServer } from '@/test/support/production-server';
import { spread } from '@/test/support/stats';
import { writeSection } from './report';
import { freePort } from './servers';
import { createWidgetTenant } from './widget-tenant';

const PORT = Number(process.env.BENCH_PORT ?? 3331);
const BASE = `http://127.0.0.1:${PORT}`;
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 1_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 150);
const LONE = Number(process.env.BENCH_LONE ?? 400);
const WRITE = process.env.BENCH_WRITE !== '0';
const ONLY = process.env.BENCH_CASES;
const GRACE_MS = process.env.BENCH_GRACE_MS;
const DB_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN = { email: 'bench-turns@example.test', password: 'bench-turns-password' };
const WINDOW_MS = 2_000;
const GAP_MS = 1_500;
/** The widget's wait for the customer's next key after a send before it says "stopped". */
const AFTER_SEND_PAUSE_MS = 400;
const CHUNK_EVERY_MS = 200;
const CHUNKS = 12;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

type BotKind = 'webhook' | 'pull';
type Case = { id: 'burst' | 'lone'; title: string; run: (bot: Bot) => Promise<Record<string, number>> };

const CASES: Case[] = [
  { id: 'burst', title: `${CONVERSATIONS} conversations: 3 fragments, then a 4th during the reply`, run: burstCase },
  { id: 'lone', title: `${LONE} lone messages, customer not typing: window on vs off`, run: loneCase },
];

// ---------------------------------------------------------------------------------------------
// The bot: what it received per chat, and how it answers a turn

type Received = { turnId: string; supersedes: string | null; texts: string[]; at: number };

class Bot {
  readonly chats = new Map<string, Received[]>();
  /** Per turn answered: how its streamed answer ended (a refusal's code, or closed) and the late whole reply's code. */
  readonly outcomes = new Map<string, { refusal?: number; lateReply?: number; closed?: boolean }>();
  readonly arrivals = new Map<string, (at: number) => void>();
  api: ApiClient;
  replying = true;
  constructor(
    readonly kind: BotKind,
    readonly vaId: number,
    token: string,
  ) {
    this.api = new ApiClient('bot', { base: BASE, token, agent });
  }

  /** One event, from the webhook receiver or the event stream. */
  hear(body: any, at: number) {
    if (body.event_type !== 'message.received') return;
    const texts: string[] = body.payload.messages.map((m: { text: string }) => m.text);
    const got = { turnId: body.payload.turn_id, supersedes: body.payload.supersedes_turn ?? null, texts, at };
    const list = this.chats.get(body.chat_id) ?? [];
    list.push(got);
    this.chats.set(body.chat_id, list);
    for (const t of texts) this.arrivals.get(t)?.(at);
    if (this.replying) void this.answer(body.chat_id, got).catch((err) => console.error('bot answer failed', err));
  }

  /**
   * Every turn gets one model call, answered as a slow stream naming its turn; when a chunk is refused
   * (the customer moved on), the bot tries the whole answer as a late reply to that turn, then stops.
   */
  private async answer(chatId: string, turn: Received) {
    const out: { refusal?: number; lateReply?: number; closed?: boolean } = {};
    this.outcomes.set(turn.turnId, out);
    const text = `[${turn.turnId}] answer to ${turn.texts.join(' ')}:`;
    const opened = await this.api.post(`/chats/${chatId}/messages`, {
      type: 'outbound',
      text,
      stream: true,
      in_reply_to_turn: turn.turnId,
    });
    if (opened.status !== 201) {
      out.refusal = opened.body?.status_code;
      return;
    }
    const transid = opened.body.response.transid;
    for (let seq = 1; seq <= CHUNKS; seq++) {
      await sleep(CHUNK_EVERY_MS);
      const r = await this.api.post(`/chats/${chatId}/messages/${transid}/chunks`, { seq, text: ` w${seq}` });
      if (r.status !== 200) {
        out.refusal = r.body?.status_code;
        const late = await this.api.post(`/chats/${chatId}/messages`, {
          type: 'outbound',
          text: `${text} (late)`,
          in_reply_to_turn: turn.turnId,
        });
        out.lateReply = late.body?.status_code;
        return;
      }
    }
    const closed = await this.api.patch(`/chats/${chatId}/messages/${transid}`, { stream_state: 'closed' });
    out.closed = closed.status === 200;
  }
}

/** A webhook bot: a node:http receiver in this process; each event answered 200 at once, then handled. */
async function webhookReceiver(bot: () => Bot): Promise<{ url: string; close: () => void }> {
  const port = await freePort();
  const server = http.createServer((req, res) => {
    void readBody(req).then((raw) => {
      const at = nowMs();
      res.writeHead(200).end();
      bot().hear(JSON.parse(raw), at);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}/hook`, close: () => server.close() };
}

/** A pulling bot: the VA's event stream, each item's body handled, acknowledged every half second. */
async function pullReader(bot: Bot): Promise<() => void> {
  let last: string | undefined;
  let acked: string | undefined;
  const opened = await bot.api.stream('/events/stream', {
    keep: false,
    onFrame: (f) => {
      if (!f.json?.body) return;
      last = f.json.cursor;
      bot.hear(JSON.parse(f.json.body), f.at);
    },
  });
  if (!opened.sse) throw new Error(`event stream refused: ${opened.status} ${JSON.stringify(opened.refusal)}`);
  const timer = setInterval(() => {
    if (last && last !== acked) {
      acked = last;
      void bot.api.post('/events/ack', { cursor: last });
    }
  }, 500);
  return () => {
    clearInterval(timer);
    opened.sse?.close();
  };
}

// ---------------------------------------------------------------------------------------------
// The customers

type Customer = { chatId: string; api: ApiClient; frames: any[]; close: () => void };

async function newCustomer(appId: number): Promise<Customer> {
  const anon = new ApiClient('widget', { base: BASE, agent });
  const v = await anon.post(`/apps/${appId}/visitors`);
  if (v.status !== 201) throw new Error(`visitor: ${v.status} ${v.raw.slice(0, 200)}`);
  const api = new ApiClient('widget', { base: BASE, token: v.body.response.token, agent });
  const chat = await api.post('/chats', {});
  if (chat.status !== 201 || chat.body.response.handled_by !== 'bot') throw new Error(`chat: ${chat.status} ${chat.raw.slice(0, 200)}`);
  const chatId = chat.body.response.chat_id;
  const frames: any[] = [];
  const opened = await api.stream(`/chats/${chatId}/stream`, {
    keep: false,
    onFrame: (f) => f.json && frames.push({ event: f.event, ...f.json }),
  });
  if (!opened.sse) throw new Error(`widget stream: ${opened.status}`);
  return { chatId, api, frames, close: () => opened.sse?.close() };
}

async function send(c: Customer, text: string, typing: boolean) {
  const r = await c.api.post(`/chats/${c.chatId}/messages`, { text, typing });
  if (r.status !== 201) throw new Error(`message: ${r.status} ${r.raw.slice(0, 200)}`);
  return r;
}

/** Refused "stopped" calls (a limit): the turn then closes by its window, as with a widget whose call failed. */
const typingRefused = new Map<number, number>();

/** The widget's "stopped" after its after-send pause with no key; a refusal is counted, not thrown (typing is a hint). */
async function stopped(c: Customer) {
  const r = await c.api.post(`/chats/${c.chatId}/typing`, { typing: false });
  if (r.status !== 200) typingRefused.set(r.status, (typingRefused.get(r.status) ?? 0) + 1);
}

async function until(what: string, check: () => boolean, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`no ${what} in ${timeoutMs} ms`);
    await sleep(25);
  }
}

/** Runs `work` for 0..n-1, `concurrency` at a time; answers how many threw. */
async function pool(n: number, concurrency: number, work: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        await work(i).catch((err) => {
          failed++;
          if (failed <= 5) console.error(`#${i}:`, (err as Error).message);
        });
      }
    }),
  );
  return failed;
}

// ---------------------------------------------------------------------------------------------
// The cases

async function burstCase(bot: Bot): Promise<Record<string, number>> {
  bot.replying = true;
  const settled: { c: Customer; f: string[] }[] = [];
  const tag = randomBytes(3).toString('hex');
  const t0 = nowMs();
  const failed = await pool(CONVERSATIONS, CONCURRENCY, async (i) => {
    const c = await newCustomer(appIdOf(bot));
    const f = [1, 2, 3, 4].map((k) => `${tag}-${i}-f${k}`);
    settled.push({ c, f });
    // As the widget (components/widget/chat.ts) does: each message says "still typing"; the customer
    // who goes on writing within its after-send pause sends no other call (typing is on, refreshed
    // every 3 s: the gap is shorter); the one who does not says "stopped" once the pause is over.
    for (const k of [0, 1]) {
      await send(c, f[k], true);
      await sleep(GAP_MS);
    }
    await send(c, f[2], true);
    await sleep(AFTER_SEND_PAUSE_MS);
    await stopped(c);
    const after = c.frames.length;
    await until('a chunk of the answer at the widget', () => c.frames.slice(after).some((x) => x.event === 'chunk'));
    await send(c, f[3], true);
    await sleep(AFTER_SEND_PAUSE_MS);
    await stopped(c);
    await until('the answer to the 4th', () => c.frames.some((x) => shown(x) && x.from === 'business' && x.text.includes(f[3])));
  });
  const seconds = (nowMs() - t0) / 1000;
  // Anything late (a stale reply would be) has time to arrive before the widgets are counted.
  await sleep(3_000);
  const n = { conversations: CONVERSATIONS, failed, seconds, turns1: 0, turns2: 0, turns3: 0, superseded: 0, refused2101: 0, late2100: 0 };
  const m = {
    withdrawnAtWidget: 0,
    repliesShown: 0,
    staleAtCustomer: 0,
    lostAtBot: 0,
    doubledAtBot: 0,
    lostAtWidget: 0,
    doubledAtWidget: 0,
  };
  for (const { c, f } of settled) {
    c.close();
    const got = bot.chats.get(c.chatId) ?? [];
    const turnOf = new Map(got.flatMap((g) => g.texts.map((t) => [t, g.turnId] as const)));
    // Model calls for fragments 1-3: the turns the bot was given them in.
    const calls = new Set(
      f
        .slice(0, 3)
        .map((t) => turnOf.get(t))
        .filter(Boolean),
    ).size;
    if (calls === 1) n.turns1++;
    else if (calls === 2) n.turns2++;
    else n.turns3++;
    const third = turnOf.get(f[2]);
    const fourth = got.find((g) => g.texts.includes(f[3]));
    if (third && fourth?.supersedes === third) n.superseded++;
    if (third && bot.outcomes.get(third)?.refusal === 2101) n.refused2101++;
    for (const g of got) if (bot.outcomes.get(g.turnId)?.lateReply === 2100) n.late2100++;
    // A reply is stale when the customer had written in a later turn before it was shown: the
    // customer's last message before it (message ids are the chat's order) is not of its turn.
    const messages = c.frames.filter((x) => x.event === 'message');
    m.withdrawnAtWidget += messages.filter((x) => x.from === 'business' && x.withdrawn).length;
    for (const reply of messages.filter((x) => shown(x) && x.from === 'business')) {
      m.repliesShown++;
      const answers = /^\[([^\]]+)\]/.exec(reply.text)?.[1];
      const before = messages.filter((x) => x.from === 'customer' && x.id < reply.id).at(-1);
      if (!answers || turnOf.get(before?.text) !== answers) m.staleAtCustomer++;
    }
    const mine = messages.filter((x) => x.from === 'customer').map((x) => x.text as string);
    for (const t of f) {
      const atBot = got.flatMap((g) => g.texts).filter((x) => x === t).length;
      const atWidget = mine.filter((x) => x === t).length;
      if (atBot === 0) m.lostAtBot++;
      if (atBot > 1) m.doubledAtBot++;
      if (atWidget === 0) m.lostAtWidget++;
      if (atWidget > 1) m.doubledAtWidget++;
    }
  }
  return { ...n, ...m };
}

/** A reply the customer was shown whole (not withdrawn). */
const shown = (x: any) => x.event === 'message' && !x.withdrawn && typeof x.text === 'string';

async function loneCase(bot: Bot): Promise<Record<string, number>> {
  bot.replying = false;
  const customers = await Promise.all(Array.from({ length: 10 }, () => newCustomer(appIdOf(bot))));
  const idle = [...customers];
  const lat: Record<'on' | 'off' | 'typist', number[]> = { on: [], off: [], typist: [] };
  const tag = randomBytes(3).toString('hex');
  let k = 0;
  // Blocks of 50 in turn: window off; on, customer not typing; on, a widget typist (below).
  for (let block = 0; block * 50 < (LONE * 3) / 2; block++) {
    const mode = (['off', 'on', 'typist'] as const)[block % 3];
    const on = mode !== 'off';
    const r = await admin.patch(`/virtual-agents/${bot.vaId}`, { turn_window_ms: on ? WINDOW_MS : 0 }, { headers: { origin: BASE } });
    if (r.status !== 200) throw new Error(`VA settings: ${r.status} ${r.raw.slice(0, 200)}`);
    await pool(50, customers.length, async () => {
      const text = `${tag}-lone-${k++}`;
      const heard = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${text} never reached the bot`)), 30_000);
        bot.arrivals.set(text, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      });
      heard.catch(() => undefined); // observed below; a failed send must not leave it unhandled
      // A customer with nothing in flight: two samples in one chat at once would share a turn.
      const c = idle.pop() as Customer;
      try {
        // A widget typist sends "still typing" and, with no key in the widget's after-send pause, "stopped".
        const sent = await send(c, text, mode === 'typist');
        if (mode === 'typist') {
          await sleep(AFTER_SEND_PAUSE_MS);
          await stopped(c);
        }
        lat[mode].push((await heard) - sent.start);
      } finally {
        idle.push(c);
        bot.arrivals.delete(text);
      }
    });
  }
  for (const c of customers) c.close();
  const on = spread(lat.on);
  const off = spread(lat.off);
  const typist = spread(lat.typist);
  return {
    samplesOn: on.n,
    samplesOff: off.n,
    offP50: off.p50,
    offP99: off.p99,
    onP50: on.p50,
    onP99: on.p99,
    extraP99: on.p99 - off.p99,
    typistN: typist.n,
    typistP50: typist.p50,
    typistP99: typist.p99,
    typistExtraP99: typist.p99 - off.p99,
  };
}

// ---------------------------------------------------------------------------------------------

const admin = new ApiClient('admin', { base: BASE, agent });
const apps = new Map<Bot, number>();
const appIdOf = (bot: Bot) => apps.get(bot) as number;

async function setUpBot(kind: BotKind, hookUrl: string): Promise<Bot> {
  const post = async (p: string, body: unknown) => {
    const r = await admin.post(p, body, { headers: { origin: BASE } });
    if (r.status !== 201) throw new Error(`${p}: ${r.status} ${r.raw.slice(0, 300)}`);
    return r.body.response;
  };
  const va = {
    turn_window_ms: WINDOW_MS,
    on_new_turn: 'supersede',
    ...(kind === 'webhook' ? { delivery_mode: 'webhook', webhook_url: hookUrl } : {}),
  };
  const names = { team: `Turns ${kind}`, asset: `Turns ${kind}`, va: `Turns ${kind} bot`, description: `the ${kind} bot of bench:turns` };
  const { assetId, apiKey, vaId } = await createWidgetTenant(post, names, va);
  const auth = await new ApiClient('bot', { base: BASE, agent }).post('/authorize', { api_key: apiKey });
  const bot = new Bot(kind, vaId, auth.body.response.access_token);
  apps.set(bot, assetId);
  return bot;
}

async function main() {
  const started = new Date();
  const dbName = `bench_turns_${randomBytes(4).toString('hex')}`;
  const pg = postgres(DB_URL, { max: 1, onnotice: () => {} });
  await pg.unsafe(`create database ${dbName}`);
  const url = new URL(DB_URL);
  url.pathname = `/${dbName}`;
  let server: ProductionServer | undefined;
  let webhookBot: Bot | undefined;
  const receiver = await webhookReceiver(() => webhookBot as Bot);
  const results: { kind: BotKind; c: Case; r: Record<string, number> }[] = [];
  try {
    server = startProductionServer(PORT, serverEnv(url.toString()), (line) => console.log(line), { keepOutput: false });
    await waitForServer(server, 600_000, '/api/health/ready');
    if ((await admin.post('/login', ADMIN, { headers: { origin: BASE } })).status !== 200) throw new Error('admin login failed');
    webhookBot = await setUpBot('webhook', receiver.url);
    const pullBot = await setUpBot('pull', '');
    const stopPull = await pullReader(pullBot);
    for (const c of CASES.filter((x) => !ONLY || x.id === ONLY)) {
      for (const bot of [webhookBot, pullBot]) {
        console.log(`${c.id} (${bot.kind} bot)...`);
        const r = await c.run(bot);
        console.log(c.id, bot.kind, r);
        results.push({ kind: bot.kind, c, r });
      }
    }
    stopPull();
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    const [v] = await pg`select version()`;
    const section = report({ started, load, pg: String(v.version).split(' on ')[0], results });
    console.log(section);
    if (WRITE)
      writeSection(path.resolve('docs/benchmarks/turns.md'), section, {
        start: '<!-- bench:turns:start -->',
        end: '<!-- bench:turns:end -->',
      });
  } finally {
    receiver.close();
    if (server) await stopProductionServer(server);
    await pg.unsafe(`drop database if exists ${dbName} with (force)`).catch((err) => console.error('drop failed', err));
    await pg.end();
    agent.destroy();
  }
}

function serverEnv(dbUrl: string): Record<string, string> {
  return {
    DATABASE_URL: dbUrl,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
    ADMIN_RATE_LIMIT_PER_MINUTE: '1000000',
    WIDGET_REQUESTS_PER_MINUTE_PER_ADDRESS: '100000000',
    WIDGET_VISITORS_PER_HOUR_PER_ADDRESS: '100000000',
    WIDGET_MESSAGES_PER_MINUTE: '1000000',
    STREAM_IDLE_SECONDS: '120',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    ...(GRACE_MS ? { TURN_NOT_TYPING_GRACE_MS: GRACE_MS } : {}),
  };
}

type Result = { kind: BotKind; c: Case; r: Record<string, number> };

function report(r: { started: Date; load: string; pg: string; results: Result[] }): string {
  const ms = (v: number) => v.toFixed(0);
  const burst = r.results
    .filter((x) => x.c.id === 'burst')
    .map(
      ({ kind, r: x }) =>
        `| ${kind} | ${x.conversations} (${x.failed} failed), ${ms(x.seconds)} s | ${x.turns1} / ${x.turns2} / ${x.turns3} | ${x.superseded} (${x.refused2101} streams refused 2101; ${x.late2100} late replies refused 2100) | ${x.staleAtCustomer} of ${x.repliesShown} shown (${x.withdrawnAtWidget} withdrawn) | ${x.lostAtBot} / ${x.doubledAtBot} | ${x.lostAtWidget} / ${x.doubledAtWidget} |`,
    );
  const lone = r.results
    .filter((x) => x.c.id === 'lone')
    .map(
      ({ kind, r: x }) =>
        `| ${kind} | ${x.samplesOff} / ${x.samplesOn} | ${ms(x.offP50)} / ${ms(x.offP99)} | ${ms(x.onP50)} / ${ms(x.onP99)} | **${ms(x.extraP99)}** | ${x.extraP99 <= 300 ? 'met' : '**not met**'} | ${x.typistN}: ${ms(x.typistP50)} / ${ms(x.typistP99)}, extra p99 ${ms(x.typistExtraP99)} |`,
    );
  return `<!-- bench:turns:start -->
## bench:turns: one turn per burst, stale replies stopped (issue 45)

Run ${r.started.toISOString()} with \`npm run bench:turns\` (\`tsx bench/turns.ts\`): the production server (one instance) on a fresh PostgreSQL database; the widget customers (API and live streams over HTTP), the webhook bot's receiver and the pulling bot's event stream in one process beside it. VA: \`turn_window_ms\` ${WINDOW_MS}, \`on_new_turn: supersede\`; \`TURN_NOT_TYPING_GRACE_MS\` ${GRACE_MS ?? '150 (the default)'}; ${CONCURRENCY} conversations at a time. Machine: ${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? ''}; Node ${process.version}; ${r.pg}, same machine. Load average at the end: ${r.load}${process.env.BENCH_NOTE ? ` (${process.env.BENCH_NOTE})` : ''}. What each case does and counts: the comment at the top of bench/turns.ts.

Bursts (3 fragments 1.5 s apart, customer typing; a 4th during the streamed answer):

| bot | conversations | fragments 1-3 in 1 / 2 / 3 turns | 4th superseded the reply to the 3rd | stale replies at a customer | fragments lost / doubled at the bot | at the widget |
|---|---|---|---|---|---|---|
${burst.join('\n')}

A lone message from a customer not typing, from the POST's start to the bot reading its event (ms):

| bot | samples off / on | window off p50 / p99 | window on p50 / p99 | extra p99 | bar ≤ 300 ms | a widget typist (window on, "stopped" after the 400 ms pause): samples: p50 / p99 |
|---|---|---|---|---|---|---|
${lone.join('\n')}

"Stopped" calls refused: ${typingRefused.size ? [...typingRefused].map(([status, n]) => `${n} × ${status}`).join(', ') : 'none'}.
<!-- bench:turns:end -->`;
}

await main();
