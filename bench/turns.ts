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
 *  - load (issue 49, a turn's overhead): BENCH_LOAD_CONVERSATIONS (1,000) customers, each with its
 *    chat and open widget stream, opened BENCH_LOAD_OPEN_RATE (50) a second; then each writes one
 *    message (not typing) every BENCH_LOAD_EVERY_S (10) s, staggered evenly, for BENCH_LOAD_SECONDS
 *    (60) s: about 100 turns a second. The VA's window is off for the case. The bot answers each turn
 *    after BENCH_LOAD_THINK_MS (300) with a stream opened with its first words, 4 chunks 100 ms apart
 *    and the close. Per turn, on one clock: the customer's POST to the bot reading its event, and the
 *    bot's opening POST to its first words (the stream's `chunk` seq 0) in that customer's widget
 *    stream, each from the request's start (an upper bound) and from its answer (a lower bound,
 *    clamped at 0 and the clamped ones counted); turns lost, server CPU per turn, load average.
 *    Written to its own section of docs/benchmarks/turns.md (`bench:turns-load`), so a run of it
 *    alone leaves the figures of the others in place.
 * Knobs: BENCH_NOTE (what else ran on the machine, for the report), BENCH_WRITE=0 (print only), BENCH_CASES=burst|lone|load, BENCH_GRACE_MS (the server's
 * TURN_NOT_TYPING_GRACE_MS; its default, 150, when unset), and the ones above.
 */

import { randomBytes } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { ApiClient, type ApiReply, readBody } from '@/test/support/api-client';
import { nowMs } from '@/test/support/clock';
import { type ProductionServer, startProductionServer, stopProductionServer, waitForServer } from '@/test/support/production-server';
import { spread } from '@/test/support/stats';
import { writeSection } from './report';
import { freePort, paced, processCpuMs } from './servers';
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
const LOAD_CONVERSATIONS = Number(process.env.BENCH_LOAD_CONVERSATIONS ?? 1_000);
const LOAD_OPEN_RATE = Number(process.env.BENCH_LOAD_OPEN_RATE ?? 50);
const LOAD_EVERY_S = Number(process.env.BENCH_LOAD_EVERY_S ?? 10);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const LOAD_THINK_MS = Number(process.env.BENCH_LOAD_THINK_MS ?? 300);
/** Issue 49's bar for the service's share of a turn, p99 in ms. */
const LOAD_TARGET_P99_MS = 15;
/** How long the server's CPU is read at rest, the customers' streams open, before the load case's steady state. */
const REST_MS = 3_000;
/** A turn whose event or first words have not come this long after the call that caused them is lost. */
const LOST_AFTER_MS = 30_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

type BotKind = 'webhook' | 'pull';
type Case = {
  id: 'burst' | 'lone' | 'load';
  title: string;
  /** The section of docs/benchmarks/turns.md its figures go to (its markers' name). */
  section: 'bench:turns' | 'bench:turns-load';
  run: (bot: Bot, server: ProductionServer) => Promise<Record<string, number>>;
};

const CASES: Case[] = [
  {
    id: 'burst',
    title: `${CONVERSATIONS} conversations: 3 fragments, then a 4th during the reply`,
    section: 'bench:turns',
    run: burstCase,
  },
  { id: 'lone', title: `${LONE} lone messages, customer not typing: window on vs off`, section: 'bench:turns', run: loneCase },
  {
    id: 'load',
    title: `a turn's overhead at ${LOAD_CONVERSATIONS} conversations, one message each every ${LOAD_EVERY_S} s`,
    section: 'bench:turns-load',
    run: loadCase,
  },
];

// ---------------------------------------------------------------------------------------------
// The bot: what it received per chat, and how it answers a turn

type Received = { turnId: string; supersedes: string | null; texts: string[]; at: number };

/** How the bot answers a turn: after `thinkMs`, a stream opened with its first words, `chunks` more `everyMs` apart, then closed. */
type AnswerStyle = { thinkMs: number; chunks: number; everyMs: number };
/** burst: at once, a slow stream the customer's next fragment can supersede. */
const SLOW_STREAM: AnswerStyle = { thinkMs: 0, chunks: CHUNKS, everyMs: CHUNK_EVERY_MS };
/** load: a model's think time, then a short stream. */
const THOUGHT_STREAM: AnswerStyle = { thinkMs: LOAD_THINK_MS, chunks: 4, everyMs: 100 };

class Bot {
  readonly chats = new Map<string, Received[]>();
  /** Per turn answered: how its streamed answer ended (a refusal's code, or closed) and the late whole reply's code. */
  readonly outcomes = new Map<string, { refusal?: number; lateReply?: number; closed?: boolean }>();
  /** Per turn answered: the POST opening its stream (with the first words), set as the turn is heard. */
  readonly openings = new Map<string, Promise<ApiReply>>();
  /** Called with the moment a customer's text reached the bot, and the turn it came in. */
  readonly arrivals = new Map<string, (at: number, turnId: string) => void>();
  api: ApiClient;
  /** How the bot answers each turn; null: it does not. */
  answering: AnswerStyle | null = SLOW_STREAM;
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
    // The answer first: its opening is in `openings` by the time anyone hears of the turn.
    if (this.answering) void this.answer(body.chat_id, got, this.answering).catch((err) => console.error('bot answer failed', err));
    for (const t of texts) this.arrivals.get(t)?.(at, got.turnId);
  }

  /**
   * Every turn gets one model call, answered as a stream naming its turn (its opening carries the
   * first words); when a chunk is refused (the customer moved on), the bot tries the whole answer as
   * a late reply to that turn, then stops.
   */
  private async answer(chatId: string, turn: Received, style: AnswerStyle) {
    const out: { refusal?: number; lateReply?: number; closed?: boolean } = {};
    this.outcomes.set(turn.turnId, out);
    const text = `[${turn.turnId}] answer to ${turn.texts.join(' ')}:`;
    const opening = (style.thinkMs > 0 ? sleep(style.thinkMs) : Promise.resolve()).then(() =>
      this.api.post(`/chats/${chatId}/messages`, {
        type: 'outbound',
        text,
        stream: true,
        in_reply_to_turn: turn.turnId,
      }),
    );
    this.openings.set(turn.turnId, opening);
    const opened = await opening;
    if (opened.status !== 201) {
      out.refusal = opened.body?.status_code;
      return;
    }
    const transid = opened.body.response.transid;
    for (let seq = 1; seq <= style.chunks; seq++) {
      await sleep(style.everyMs);
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

/** A customer with its chat and widget stream open; `onFrame`, when given, also hears each frame with the moment it arrived. */
async function newCustomer(appId: number, onFrame?: (frame: any, at: number) => void): Promise<Customer> {
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
    onFrame: (f) => {
      if (!f.json) return;
      const frame = { event: f.event, ...f.json };
      frames.push(frame);
      onFrame?.(frame, f.at);
    },
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
  bot.answering = SLOW_STREAM;
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
  bot.answering = null;
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

/** Moments by key, for a waiter that may come before or after the moment (a frame can beat the answer of the call that caused it). */
class Moments {
  private readonly seen = new Map<string, number>();
  private readonly waiting = new Map<string, (at: number) => void>();
  mark(key: string, at: number) {
    const waiter = this.waiting.get(key);
    if (waiter) waiter(at);
    else if (!this.seen.has(key)) this.seen.set(key, at);
  }
  /** The moment of `key`, or null when it has not come within `timeoutMs`. */
  wait(key: string, timeoutMs: number): Promise<number | null> {
    const at = this.seen.get(key);
    if (at !== undefined) {
      this.seen.delete(key);
      return Promise.resolve(at);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(key);
        resolve(null);
      }, timeoutMs);
      this.waiting.set(key, (t) => {
        clearTimeout(timer);
        this.waiting.delete(key);
        resolve(t);
      });
    });
  }
}

/** What `p` settles to within `ms`, or null (a rejection too). */
function within<T>(p: Promise<T>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  return Promise.race([p.catch(() => null), late]).finally(() => clearTimeout(timer));
}

/** The turn a reply's text names (`[turn_...] ...`). */
const turnNamed = (text: unknown) => (typeof text === 'string' ? /^\[([^\]]+)\]/.exec(text)?.[1] : undefined);

/** A turn's overhead (issue 49): the figures of one steady state, gathered per turn. */
type LoadTally = {
  /** Customer's POST start / answer → the bot reading the turn's `message.received`. */
  toBotStart: number[];
  toBotAnswer: number[];
  /** The bot's opening POST start / answer → its first words in the customer's widget stream. */
  toWidgetStart: number[];
  toWidgetAnswer: number[];
  /** Lower bounds below 0 (the event or frame came before the answer was read), counted as 0. */
  clampedBot: number;
  clampedWidget: number;
  sent: number;
  /** The customer's POST refused, failed, or not answered within LOST_AFTER_MS. */
  refused: number;
  lostAtBot: number;
  openingRefused: number;
  lostAtWidget: number;
  /** First words that came only inside the closed reply's `message` (the stream's `chunk` 0 never seen). */
  shownAsMessage: number;
  /** How late each customer's POST started against its schedule (the load generator keeping up). */
  lateness: number[];
};

async function loadCase(bot: Bot, server: ProductionServer): Promise<Record<string, number>> {
  bot.answering = THOUGHT_STREAM;
  const setWindow = async (ms: number) => {
    const r = await admin.patch(`/virtual-agents/${bot.vaId}`, { turn_window_ms: ms }, { headers: { origin: BASE } });
    if (r.status !== 200) throw new Error(`VA settings: ${r.status} ${r.raw.slice(0, 200)}`);
  };
  // The service's share of a turn: with the window off the event is due with the message (no grace
  // applies either: the grace only shortens a window), as for a VA that gathers nothing.
  await setWindow(0);
  const shown = new Moments();
  const chunkZero = new Set<string>();
  const hearFrame = (x: any, at: number) => {
    const first = x.event === 'chunk' && x.seq === 0;
    const whole = x.event === 'message' && x.from === 'business';
    const turn = first || whole ? turnNamed(x.text) : undefined;
    if (!turn) return;
    if (first) chunkZero.add(turn);
    shown.mark(turn, at);
  };
  const customers: Customer[] = [];
  bot.outcomes.clear();
  bot.openings.clear();
  const loadStart = os.loadavg()[0];
  try {
    let openFailed = 0;
    await paced(
      LOAD_CONVERSATIONS,
      LOAD_OPEN_RATE,
      async () => {
        const opening = newCustomer(appIdOf(bot), hearFrame);
        opening.catch((err) => openFailed < 5 && console.error('customer:', (err as Error).message));
        const c = await within(opening, LOST_AFTER_MS);
        if (c) customers.push(c);
        else {
          openFailed++;
          // One that opens after all is closed then.
          opening.then((late) => late.close()).catch(() => undefined);
        }
      },
      100,
    );
    console.log(`load (${bot.kind} bot): ${customers.length} customers open; steady state for ${LOAD_SECONDS} s`);
    const m: LoadTally = {
      toBotStart: [],
      toBotAnswer: [],
      toWidgetStart: [],
      toWidgetAnswer: [],
      clampedBot: 0,
      clampedWidget: 0,
      sent: 0,
      refused: 0,
      lostAtBot: 0,
      openingRefused: 0,
      lostAtWidget: 0,
      shownAsMessage: 0,
      lateness: [],
    };
    const tag = randomBytes(3).toString('hex');
    const everyMs = LOAD_EVERY_S * 1000;
    const turns: Promise<void>[] = [];
    let asked = 0;
    let lastAnswer = 0;
    // The server at rest with every stream open, for what a turn adds to it.
    const serverCpu = () => processCpuMs(server.child.pid as number) ?? Number.NaN;
    const rest0 = serverCpu();
    await sleep(REST_MS);
    const cpu0 = serverCpu();
    const restCpuPerS = ((cpu0 - rest0) * 1000) / REST_MS;
    const t0 = nowMs() + 100;
    await Promise.all(
      customers.map(async (c, i) => {
        for (let due = (i * everyMs) / customers.length, k = 0; due < LOAD_SECONDS * 1000; due += everyMs, k++) {
          asked++;
          const wait = t0 + due - nowMs();
          if (wait > 0) await sleep(wait);
          m.lateness.push(Math.max(0, nowMs() - t0 - due));
          const done = oneTurn(bot, c, `${tag}-${i}-${k}`, shown, chunkZero, m).then((answeredAt) => {
            lastAnswer = Math.max(lastAnswer, answeredAt);
          });
          turns.push(done);
        }
      }),
    );
    await Promise.all(turns);
    // Every answer ends (closed, or refused) before the CPU is read; bounded, as every wait here.
    const answered = [...bot.outcomes.values()];
    await until('every answer closed', () => answered.every((o) => o.closed !== undefined || o.refusal !== undefined), 10_000).catch(
      (err) => console.error((err as Error).message),
    );
    const wallMs = nowMs() - t0;
    const cpuMs = (processCpuMs(server.child.pid as number) ?? Number.NaN) - cpu0;
    const [botUp, botLow, widgetUp, widgetLow] = [m.toBotStart, m.toBotAnswer, m.toWidgetStart, m.toWidgetAnswer].map(spread);
    return {
      opened: customers.length,
      openFailed,
      asked,
      askedPerS: customers.length / LOAD_EVERY_S,
      sent: m.sent,
      perS: m.sent / ((lastAnswer - t0) / 1000),
      latenessP99: spread(m.lateness).p99,
      refused: m.refused,
      lostAtBot: m.lostAtBot,
      openingRefused: m.openingRefused,
      lostAtWidget: m.lostAtWidget,
      shownAsMessage: m.shownAsMessage,
      clampedBot: m.clampedBot,
      clampedWidget: m.clampedWidget,
      botN: botUp.n,
      botUpP50: botUp.p50,
      botUpP99: botUp.p99,
      botUpMax: botUp.max,
      botLowP50: botLow.p50,
      botLowP99: botLow.p99,
      botLowMax: botLow.max,
      widgetN: widgetUp.n,
      widgetUpP50: widgetUp.p50,
      widgetUpP99: widgetUp.p99,
      widgetUpMax: widgetUp.max,
      widgetLowP50: widgetLow.p50,
      widgetLowP99: widgetLow.p99,
      widgetLowMax: widgetLow.max,
      cpuPerTurnMs: cpuMs / m.sent,
      cpuShare: cpuMs / wallMs,
      restCpuPerS,
      cpuAddedPerTurnMs: (cpuMs - (restCpuPerS * wallMs) / 1000) / m.sent,
      loadStart,
      loadEnd: os.loadavg()[0],
    };
  } finally {
    for (const c of customers) c.close();
    bot.answering = SLOW_STREAM;
    await setWindow(WINDOW_MS);
  }
}

/**
 * One turn of the load case: the customer's message (not typing) to the bot's receipt, then the bot's
 * opening (first words) to their arrival in the customer's widget. Answers when the POST was answered.
 */
async function oneTurn(bot: Bot, c: Customer, text: string, shown: Moments, chunkZero: Set<string>, m: LoadTally): Promise<number> {
  const heard = new Promise<{ at: number; turnId: string }>((resolve) => bot.arrivals.set(text, (at, turnId) => resolve({ at, turnId })));
  const sending = send(c, text, false);
  sending.catch((err) => m.refused < 5 && console.error((err as Error).message));
  const sent = await within(sending, LOST_AFTER_MS);
  if (!sent) {
    m.refused++;
    bot.arrivals.delete(text);
    return 0;
  }
  m.sent++;
  const got = await within(heard, LOST_AFTER_MS);
  bot.arrivals.delete(text);
  if (!got) {
    m.lostAtBot++;
    return sent.at;
  }
  m.toBotStart.push(got.at - sent.start);
  if (got.at < sent.at) m.clampedBot++;
  m.toBotAnswer.push(Math.max(0, got.at - sent.at));
  const opened = await within(bot.openings.get(got.turnId) ?? Promise.reject(new Error('no answer')), LOAD_THINK_MS + LOST_AFTER_MS);
  if (opened?.status !== 201) {
    m.openingRefused++;
    return sent.at;
  }
  const arrived = await shown.wait(got.turnId, LOST_AFTER_MS);
  if (arrived === null) {
    m.lostAtWidget++;
    return sent.at;
  }
  if (!chunkZero.has(got.turnId)) m.shownAsMessage++;
  m.toWidgetStart.push(arrived - opened.start);
  if (arrived < opened.at) m.clampedWidget++;
  m.toWidgetAnswer.push(Math.max(0, arrived - opened.at));
  return sent.at;
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
  let stopPull: (() => void) | undefined;
  const receiver = await webhookReceiver(() => webhookBot as Bot);
  const results: Result[] = [];
  try {
    server = startProductionServer(PORT, serverEnv(url.toString()), (line) => console.log(line), {
      keepOutput: false,
      // BENCH_NODE_ARGS: flags for the server's node (a profile: `--cpu-prof --cpu-prof-dir=/tmp/p`).
      nodeArgs: (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
    });
    await waitForServer(server, 600_000, '/api/health/ready');
    if ((await admin.post('/login', ADMIN, { headers: { origin: BASE } })).status !== 200) throw new Error('admin login failed');
    webhookBot = await setUpBot('webhook', receiver.url);
    const pullBot = await setUpBot('pull', '');
    stopPull = await pullReader(pullBot);
    for (const c of CASES.filter((x) => !ONLY || x.id === ONLY)) {
      for (const bot of [webhookBot, pullBot]) {
        console.log(`${c.id} (${bot.kind} bot)...`);
        const r = await c.run(bot, server);
        console.log(c.id, bot.kind, r);
        results.push({ kind: bot.kind, c, r });
      }
    }
    const [v] = await pg`select version()`;
    writeReports({ started, load: loadNow(), pg: String(v.version).split(' on ')[0], results });
  } finally {
    stopPull?.();
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
type Facts = { started: Date; load: string; pg: string; results: Result[] };

const loadNow = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Each section of docs/benchmarks/turns.md whose cases ran, printed and written between its markers. */
function writeReports(facts: Facts) {
  const sections = { 'bench:turns': report, 'bench:turns-load': loadReport } as const;
  for (const [id, render] of Object.entries(sections)) {
    const results = facts.results.filter((x) => x.c.section === id);
    if (!results.length) continue;
    const section = render({ ...facts, results });
    console.log(section);
    if (WRITE)
      writeSection(path.resolve('docs/benchmarks/turns.md'), section, { start: `<!-- ${id}:start -->`, end: `<!-- ${id}:end -->` });
  }
}

function report(r: Facts): string {
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

function loadReport(r: Facts): string {
  const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '–');
  const three = (s: number, p: number, m: number) => `${ms(s)} / **${ms(p)}** / ${ms(m)}`;
  const met = (p99: number, n: number) => (n > 0 && p99 < LOAD_TARGET_P99_MS ? 'met' : '**not met**');
  const rows = r.results.map(
    ({ kind, r: x }) =>
      `| ${kind} | ${three(x.botUpP50, x.botUpP99, x.botUpMax)} | ${three(x.botLowP50, x.botLowP99, x.botLowMax)} (${x.clampedBot}) | ${three(x.widgetUpP50, x.widgetUpP99, x.widgetUpMax)} | ${three(x.widgetLowP50, x.widgetLowP99, x.widgetLowMax)} (${x.clampedWidget}) |`,
  );
  const counts = r.results.map(
    ({ kind, r: x }) =>
      `| ${kind} | ${x.opened} (${x.openFailed} failed) | ${x.asked} / ${x.sent} (${x.refused} refused or unanswered) | ${x.perS.toFixed(1)} (${x.askedPerS.toFixed(1)}) | ${ms(x.latenessP99)} | ${x.lostAtBot} | ${x.openingRefused} / ${x.lostAtWidget} (${x.shownAsMessage} only in the closed reply) | ${x.cpuPerTurnMs.toFixed(2)} (${(x.cpuShare * 100).toFixed(0)} % of a core; ${x.cpuAddedPerTurnMs.toFixed(2)} over its ${x.restCpuPerS.toFixed(0)} ms/s at rest) | ${x.loadStart.toFixed(2)} → ${x.loadEnd.toFixed(2)} |`,
  );
  const verdicts = r.results.map(
    ({ kind, r: x }) =>
      `- ${kind}: p99 < ${LOAD_TARGET_P99_MS} ms, customer's POST → bot: upper bound ${met(x.botUpP99, x.botN)}, lower bound ${met(x.botLowP99, x.botN)}; bot's first words → customer: upper bound ${met(x.widgetUpP99, x.widgetN)}, lower bound ${met(x.widgetLowP99, x.widgetN)}${x.lostAtBot + x.lostAtWidget + x.openingRefused + x.refused ? ` (and ${x.refused + x.lostAtBot + x.openingRefused + x.lostAtWidget} turns refused or lost)` : ''}.`,
  );
  const full = LOAD_CONVERSATIONS === 1_000 && LOAD_SECONDS === 60 && LOAD_EVERY_S === 10 && LOAD_THINK_MS === 300;
  const scale = full
    ? ''
    : ` **Not the issue's full measurement** (1,000 conversations for 60 s, a message every 10 s, 300 ms think time): ${LOAD_CONVERSATIONS} for ${LOAD_SECONDS} s, a message every ${LOAD_EVERY_S} s, ${LOAD_THINK_MS} ms think time.`;
  return `<!-- bench:turns-load:start -->
## bench:turns load: a turn's overhead at ${LOAD_CONVERSATIONS.toLocaleString('en-US')} conversations (issue 49)

Run ${r.started.toISOString()} with \`BENCH_CASES=load npm run bench:turns\` (\`tsx bench/turns.ts\`), on the server and database described in the section above (one production instance, a fresh PostgreSQL database, the customers and both bots in one process beside it). ${LOAD_CONVERSATIONS} widget customers, each with its chat and open widget stream (opened ${LOAD_OPEN_RATE} a second), then each writing one message, not typing, every ${LOAD_EVERY_S} s, staggered evenly, for ${LOAD_SECONDS} s (${(LOAD_CONVERSATIONS / LOAD_EVERY_S).toFixed(0)} turns a second asked). The VA's turn window is off for the case, so a turn's event is due with its message: the figures hold no deliberate wait (the not-typing grace only shortens a window that is on). The bot, on \`message.received\`, thinks ${LOAD_THINK_MS} ms, then opens a streamed reply with its first words (\`in_reply_to_turn\` set), sends 4 chunks 100 ms apart and closes it. Per turn, on one clock: the customer's POST to the bot reading the turn's event (the webhook receiver having read the call's body, or the event's frame arriving on the pulling bot's stream), and the bot's opening POST to its first words arriving in that customer's widget stream (the stream's \`chunk\` with seq 0); each from the request's start (an upper bound on the service's share) and from its answer read (a lower bound; one below 0, the event or frame having come before the answer, counts as 0, and how many did is in brackets). A turn not at the bot ${LOST_AFTER_MS / 1000} s after its POST's answer, or first words not at the customer ${LOST_AFTER_MS / 1000} s after the opening's answer, is lost. Machine: ${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? ''}; Node ${process.version}; ${r.pg}, same machine. Load average at the end: ${r.load}${process.env.BENCH_NOTE ? ` (${process.env.BENCH_NOTE})` : ''}.${scale}

Latency, ms, p50 / **p99** / max:

| bot | customer's POST → bot, from its start | from its answer (clamped) | bot's first words → customer, from the opening's start | from its answer (clamped) |
|---|---:|---:|---:|---:|
${rows.join('\n')}

| bot | customers open | turns asked / sent | turns/s achieved (asked) | sends late p99 ms | turns lost at the bot | openings refused / first words lost | server CPU ms per turn | load average (1 min) start → end |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
${counts.join('\n')}

${verdicts.join('\n')}
<!-- bench:turns-load:end -->`;
}
