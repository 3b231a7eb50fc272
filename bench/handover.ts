/**
 * npm run bench:handover: the handover round trip, on PostgreSQL, through the real handlers in this
 * process (bot API, agent workspace API, widget API and their Server-Sent Events routes) with the
 * shared test harness (test/support). One row per case below; each case prints its figures and the
 * whole is written to docs/benchmarks/handover.md (BENCH_WRITE=0: print only).
 *
 *  - card: a person's workspace stream is open; the bot transfers a chat with context; time until
 *    the stream carries the chat with that context (the card's reason).
 *  - approval: a pulling bot's event stream is open; a person decides its request through the
 *    workspace API (the click, made at API level); time until the stream carries approval.decided.
 *  - queue: a customer's widget stream is open on a waiting chat second in its queue; a person picks
 *    the chat ahead; time until the widget stream says "number 1".
 *  - round trips: bot -> person -> bot, BENCH_CHATS chats (250) four times each, 10 at a time: each
 *    round the bot hands over with context, a person picks, the bot's write is tried (must be 2043),
 *    the customer and the person write, the person hands back with a note; then a fifth handover
 *    whose hand-back must be refused (2120, max_handovers_per_chat 5). Afterwards every hand-back's
 *    chat.assigned must carry exactly that round's two messages, and every transcript each message once.
 *
 * Runs in its own database beside DATABASE_URL's (default postgres://postgres@127.0.0.1:5432/postgres),
 * dropped at the end. Knobs: BENCH_SAMPLES (100 per latency case), BENCH_CHATS (250).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { nowMs } from '@/test/support/clock';
import type { SseFrame } from '@/test/support/sse';
import { spread } from '@/test/support/stats';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100);
const CHATS = Number(process.env.BENCH_CHATS ?? 250);
const ROUNDS = 4;
const baseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

type Stand = Awaited<ReturnType<typeof stand>>;

/** Printed under the table: what each figure includes. */
const HOW_TO_READ = `How to read it: each latency is measured from the start of the call that causes the change (the
bot's transfer, the person's decision, the person's pick of the chat ahead) to the frame arriving on
the already open stream (the workspace's, the pulling bot's \`/events/stream\`, the customer's widget
stream), all in one process on one PostgreSQL, so it includes the causing call itself. The
workspace stream reads at most once per 150 ms (the first change at once), so a card that follows
another change within 150 ms waits for the gap. The decision is made through the workspace API, not a browser click.
The round trips run 10 chats at a time while nothing else of the bench runs; each round is six calls
(transfer with context, pick, the bot's refused write, the customer's message, the person's reply,
the hand-back with a note), checked afterwards against the stored \`chat.assigned\` events and the
transcripts.`;
type Case = { name: string; target: string; run: (s: Stand) => Promise<string[]> };

/** Frames of one stream, awaited by a test on their raw data; the time is taken as each arrives. */
function watcher() {
  const waiting: { test: (f: SseFrame) => boolean; resolve: (at: number) => void }[] = [];
  const onFrame = (f: SseFrame) => {
    const at = nowMs();
    for (let i = waiting.length - 1; i >= 0; i--) {
      if (waiting[i].test(f)) {
        waiting[i].resolve(at);
        waiting.splice(i, 1);
      }
    }
  };
  const until = (test: (f: SseFrame) => boolean, what: string) =>
    new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no frame for ${what} within 15 s`)), 15_000);
      waiting.push({
        test,
        resolve: (at) => {
          clearTimeout(timer);
          resolve(at);
        },
      });
    });
  return { onFrame, until };
}

const ms = (xs: number[]) => {
  const s = spread(xs);
  return `p50 ${s.p50.toFixed(1)} ms · p99 ${s.p99.toFixed(1)} ms · max ${s.max.toFixed(1)} ms (n ${s.n})`;
};

const CASES: Case[] = [
  {
    name: 'card on an open workspace after the transfer',
    target: 'p99 ≤ 500 ms',
    run: async (s) => {
      const w = watcher();
      const live = await s.person.stream('/stream', { onFrame: w.onFrame, keep: false });
      if (!live.sse) throw new Error(`workspace stream refused: ${live.status}`);
      const took: number[] = [];
      for (let i = -5; i < SAMPLES; i++) {
        const chat = await s.botChat();
        const reason = `bench reason ${i} ${chat.chat_id.slice(0, 8)}`;
        const seen = w.until((f) => f.data?.includes(reason) ?? false, `the card of ${chat.chat_id}`);
        const t0 = nowMs();
        await s.ok(s.transfer(chat.chat_id, { reason, intent: 'refund', fields: { order_id: String(i) } }), 202);
        const at = await seen;
        if (i >= 0) took.push(at - t0);
        await s.ok(s.person.post(`/chats/${chat.chat_id}/pick`), 200);
        await s.ok(s.person.post(`/chats/${chat.chat_id}/close`, {}), 200);
      }
      await live.sse.close();
      return [ms(took)];
    },
  },
  {
    name: 'approval decision at a pulling bot after the click (API-level click)',
    target: 'p99 ≤ 1 s',
    run: async (s) => {
      const w = watcher();
      const live = await s.bot.stream('/events/stream', { onFrame: w.onFrame, keep: false });
      if (!live.sse) throw new Error(`event stream refused: ${live.status}`);
      const took: number[] = [];
      for (let i = -5; i < SAMPLES; i++) {
        const chat = await s.botChat();
        const asked = await s.ok(
          s.bot.post(`/chats/${chat.chat_id}/approvals`, {
            action: 'refund',
            summary: `Refund ${i}`,
            details: [{ key: 'amount', value: '10 EUR', editable: true }],
            expires_in_seconds: 600,
            team_id: s.t.humanTeam.id,
          }),
          201,
        );
        const id = asked.body.response.approval_id as string;
        const seen = w.until((f) => (f.data?.includes(id) ?? false) && f.data?.includes('approval.decided') === true, `decision ${id}`);
        const t0 = nowMs();
        await s.ok(s.person.post(`/approvals/${id}/decision`, { decision: 'approve', details: { amount: '9 EUR' } }), 200);
        const at = await seen;
        if (i >= 0) took.push(at - t0);
        await s.ok(s.bot.patch(`/chats/${chat.chat_id}`, { status: 'closed' }, { headers: { team_id: String(s.t.botTeam.id) } }), 200);
      }
      await live.sse.close();
      return [ms(took)];
    },
  },
  {
    name: 'queue position at the customer after the chat ahead is picked',
    target: 'p99 ≤ 1 s',
    run: async (s) => {
      const took: number[] = [];
      for (let i = -5; i < SAMPLES; i++) {
        const ahead = await s.widgetChat();
        const mine = await s.widgetChat();
        for (const c of [ahead, mine]) await s.ok(s.widget(c.token).post(`/chats/${c.chatId}/person-request`, {}), 200);
        const w = watcher();
        const live = await s.widget(mine.token).stream(`/chats/${mine.chatId}/stream`, { onFrame: w.onFrame, keep: false });
        if (!live.sse) throw new Error(`widget stream refused: ${live.status}`);
        await w.until((f) => f.event === 'chat' && f.json?.queue_position === 2, 'second in the queue');
        const first = w.until((f) => f.event === 'chat' && f.json?.queue_position === 1, 'first in the queue');
        const t0 = nowMs();
        await s.ok(s.person.post(`/chats/${ahead.chatId}/pick`), 200);
        const at = await first;
        if (i >= 0) took.push(at - t0);
        await live.sse.close();
        for (const c of [ahead, mine]) {
          if (c === mine) await s.ok(s.person.post(`/chats/${c.chatId}/pick`), 200);
          await s.ok(s.person.post(`/chats/${c.chatId}/close`, {}), 200);
        }
      }
      return [ms(took)];
    },
  },
  {
    name: `${CHATS * ROUNDS} bot → person → bot round trips (${CHATS} chats × ${ROUNDS}, 10 at a time)`,
    target: '0 lost or doubled, 0 bot writes accepted while a person holds the chat, loop limit held',
    run: async (s) => {
      let botWritesAccepted = 0;
      let limitHeld = 0;
      const started = nowMs();
      const one = async (n: number) => {
        const chat = await s.botChat();
        for (let round = 1; round <= ROUNDS + 1; round++) {
          await s.ok(s.transfer(chat.chat_id, { reason: `round ${round}` }), 202);
          await s.ok(s.person.post(`/chats/${chat.chat_id}/pick`), 200);
          const late = await s.bot.post(`/chats/${chat.chat_id}/messages`, { type: 'outbound', text: `bot late ${n}.${round}` });
          if (late.status !== 403 || late.body.status_code !== 2043) botWritesAccepted++;
          await s.ok(s.bot.post(`/chats/${chat.chat_id}/messages`, { type: 'inbound', text: `customer ${n}.${round}` }), 201);
          await s.ok(s.person.post(`/chats/${chat.chat_id}/reply`, { text: `person ${n}.${round}` }), 201);
          const back = await s.person.post(`/chats/${chat.chat_id}/hand-back`, { note: `note ${n}.${round}` });
          if (round <= ROUNDS) {
            if (back.status !== 200) throw new Error(`hand-back ${n}.${round}: ${back.status} ${JSON.stringify(back.body)}`);
          } else if (back.body.status_code === 2120) {
            limitHeld++;
            await s.ok(s.person.post(`/chats/${chat.chat_id}/close`, {}), 200);
          } else throw new Error(`hand-back past the limit accepted (${n}): ${JSON.stringify(back.body)}`);
        }
        return chat.chat_id;
      };
      const ids: string[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          while (next < CHATS) ids.push(await one(next++));
        }),
      );
      const seconds = (nowMs() - started) / 1000;
      const check = await s.checkRoundTrips(ids);
      return [
        `${CHATS * ROUNDS} round trips in ${seconds.toFixed(0)} s (${((CHATS * ROUNDS) / seconds).toFixed(1)}/s, each 6 calls)`,
        `hand-backs whose chat.assigned carried that round's two messages exactly once: ${check.exact} of ${CHATS * ROUNDS}; lost ${check.lost}, doubled ${check.doubled}`,
        `transcripts with every customer and person message once: ${check.transcriptsOk} of ${CHATS}`,
        `bot writes accepted while a person held the chat: ${botWritesAccepted} of ${CHATS * (ROUNDS + 1)} tried`,
        `loop limit held (5th hand-back refused with 2120): ${limitHeld} of ${CHATS}`,
      ];
    },
  },
];

/** A tenant with a pulling VA (max_handovers_per_chat 5), a person of the people's team, and calls on them. */
async function stand() {
  const { eq, and, sql } = await import('drizzle-orm');
  const { getDb } = await import('@/db/client');
  const { accounts, events, messages, teams, virtualAgents } = await import('@/db/schema');
  const { ApiClient, widgetApi } = await import('@/test/support/api-client');
  const { createTenant } = await import('@/test/support/tenant');
  const { newChat } = await import('@/test/support/chats');
  const { newSignedInAgent, newVisitor, signedInAdminOf } = await import('@/test/support/people');
  const db = await getDb();
  const t = await createTenant(db);
  await db
    .update(virtualAgents)
    .set({ deliveryMode: 'pull', maxHandoversPerChat: ROUNDS + 1, fallbackTeamId: t.humanTeam.id })
    .where(eq(virtualAgents.userId, t.bot.user.id));
  await db.update(teams).set({ autoAssign: true }).where(eq(teams.id, t.botTeam.id));
  await db.update(teams).set({ autoAssign: false }).where(eq(teams.id, t.humanTeam.id));
  await db.update(accounts).set({ defaultTeamId: t.botTeam.id }).where(eq(accounts.id, t.account.id));
  const admin = (await signedInAdminOf(db, t.account.id)).client;
  const person = (
    await newSignedInAgent(db, admin, { accountId: t.account.id, teamIds: [t.humanTeam.id], tag: 'bench', capacity: 100_000 })
  ).client;
  const bot = new ApiClient('bot', { token: t.token });
  const ok = async <R extends { status: number; body: any }>(call: Promise<R>, status: number): Promise<R> => {
    const res = await call;
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
    return res;
  };
  return {
    t,
    person,
    bot,
    ok,
    botChat: () => newChat(t, { assignee: t.bot.user.loginId }),
    transfer: (chatId: string, handover: Record<string, unknown>) =>
      bot.patch(`/internal/chats/${chatId}`, { transfer: { teamid: t.humanTeam.id }, handover }),
    widget: (token: string) => new ApiClient('widget', { token, address: '198.51.100.47' }),
    widgetChat: async () => {
      const v = await newVisitor(t.assets.livechat.id, '198.51.100.47');
      const started = await widgetApi('POST', '/chats', { token: v.token, address: '198.51.100.47', body: { text: 'hello' } });
      if (started.status !== 201) throw new Error(JSON.stringify(started.body));
      return { token: v.token, chatId: started.body.response.chat_id as string };
    },
    /** Each hand-back's chat.assigned against the round's messages, and each transcript's messages. */
    checkRoundTrips: async (chatIds: string[]) => {
      let exact = 0;
      let lost = 0;
      let doubled = 0;
      let transcriptsOk = 0;
      for (const chatId of chatIds) {
        const assigned = await db
          .select({ body: events.body })
          .from(events)
          .where(and(eq(events.chatId, chatId), eq(events.eventType, 'chat.assigned')));
        for (const { body } of assigned) {
          const handback = (body as { payload?: { handback?: { note: string; messages: { text: string }[] } } }).payload?.handback;
          if (!handback) continue;
          const round = handback.note.slice('note '.length);
          const texts = handback.messages.map((m) => m.text);
          const want = [`customer ${round}`, `person ${round}`];
          const counts = want.map((w) => texts.filter((x) => x === w).length);
          if (counts.every((c) => c === 1) && texts.length === 2) exact++;
          lost += counts.filter((c) => c === 0).length;
          doubled += counts.filter((c) => c > 1).length + Math.max(0, texts.length - want.length - counts.filter((c) => c === 0).length);
        }
        const rows = await db
          .select({ text: sql<string>`${messages.body}->>'text'` })
          .from(messages)
          .where(and(eq(messages.chatId, chatId), sql`${messages.type} <> 'announcement'`));
        const texts = rows.map((r) => r.text);
        const expected = texts.filter((x) => /^(customer|person) /.test(x));
        if (new Set(expected).size === expected.length && expected.length === 2 * (ROUNDS + 1)) transcriptsOk++;
      }
      return { exact, lost, doubled, transcriptsOk };
    },
    admin,
  };
}

async function main() {
  const name = `va_bench_handover_${process.pid}`;
  const server = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await server.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await server.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  process.env.LOG_LEVEL ??= 'warn';
  for (const k of [
    'RATE_LIMIT_PER_MINUTE',
    'ADMIN_RATE_LIMIT_PER_MINUTE',
    'WIDGET_MESSAGES_PER_MINUTE',
    'WIDGET_REQUESTS_PER_MINUTE_PER_ADDRESS',
  ]) {
    process.env[k] ??= '100000000';
  }
  process.env.WIDGET_VISITORS_PER_HOUR_PER_ADDRESS ??= '100000000';
  try {
    const s = await stand();
    const loadBefore = os.loadavg();
    const lines: string[] = [];
    for (const c of CASES) {
      const figures = await c.run(s);
      console.log(`${c.name} (target ${c.target}):\n  ${figures.join('\n  ')}`);
      lines.push(`| ${c.name} | ${c.target} | ${figures.join('<br>')} |`);
    }
    const loadAfter = os.loadavg();
    const report = [
      '# bench:handover',
      '',
      `${new Date().toISOString().slice(0, 16)}Z · ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'} · Node ${process.version} · PostgreSQL on 127.0.0.1 · ` +
        `\`npm run bench:handover\` (${SAMPLES} samples per latency case after 5 to warm up; handlers in process, pool of ${process.env.DATABASE_POOL_SIZE ?? 10} connections). ` +
        `Load average (1/5/15 min) ${loadBefore.map((x) => x.toFixed(1)).join('/')} before and ${loadAfter.map((x) => x.toFixed(1)).join('/')} after: ` +
        `${Math.max(loadBefore[0], loadAfter[0]) > os.cpus().length ? 'the machine was shared with other work (other builds and test runs), so the times are upper bounds of this code' : 'little other work'}.`,
      '',
      '| case | target | measured |',
      '|---|---|---|',
      ...lines,
      '',
      HOW_TO_READ,
      '',
    ].join('\n');
    console.log(`\n${report}`);
    if (process.env.BENCH_WRITE !== '0') fs.writeFileSync(path.join(process.cwd(), 'docs/benchmarks/handover.md'), report);
    const { closeDb } = await import('@/db/client');
    await closeDb();
  } finally {
    await server.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await server.end();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
