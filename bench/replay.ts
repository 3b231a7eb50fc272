/**
 * npm run bench:replay: 1,000 generated recorded chats of 5 to 7 turns replayed against the
 * TypeScript example bot (examples/bot, its real webhook server) through the admin API's real
 * handler, with the bot API on a real node:http server and signed webhooks sent by the embedded
 * engine, all in this process. The table of cases below runs in order:
 *   baseline  the bot as it is: how long 1,000 chats take (the bar: 10 minutes on this machine);
 *   again     the same bot once more: 0 chats may differ from the baseline;
 *   regressed the bot with BOT_REGRESSION=no-refund-handover: exactly the chats that mention a
 *             refund (before any other handover) may differ, each first at the refund's turn,
 *             with a changed handover decision.
 * A case whose check fails makes the bench exit 1. Figures go to docs/benchmarks/replay.md
 * (BENCH_WRITE=0: print only); it prints the row for BENCHMARKS.md's table. The database is a fresh one beside DATABASE_URL's (PostgreSQL), or
 * PGlite in memory without it. Knobs: BENCH_CHATS (1000), BENCH_CONCURRENCY (32), BENCH_SETTLE_MS (300).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { RecordingLineInput } from '@/contracts/admin/schemas/recording';

const CHATS = Number(process.env.BENCH_CHATS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 300);
const BAR_MS = 10 * 60_000;
Object.assign(process.env, {
  NODE_ENV: process.env.NODE_ENV ?? 'production',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
  DELIVERY_ENGINE: 'embedded',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  // The sandbox bot makes tens of thousands of calls in minutes; the budgets are not what is measured.
  RATE_LIMIT_PER_MINUTE: '10000000',
  ADMIN_RATE_LIMIT_PER_MINUTE: '10000000',
  ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: '10000',
});

type Generated = { lines: RecordingLineInput[]; refundTurn: Map<string, number> };
type Diff = {
  summary: {
    chats_total: number;
    chats_changed: number;
    handover_changed_chats: number;
    turns_compared: number;
    latency_ms: { candidate: { p50: number; p95: number; max: number } | null };
    changed: { id: string; first_changed_turn: number | null; changes: string[] }[];
  };
};
type Outcome = { ms: number; runId: string; diff?: Diff; failures: string[] };
type Case = {
  name: string;
  what: string;
  regression?: 'no-refund-handover';
  /** The run to diff against (a case's name), and what the diff must show. */
  against?: string;
  check: (diff: Diff, data: Generated) => string[];
};

const PLAIN = [
  'hello',
  'my parcel has not arrived',
  'it is order {n}',
  'can you check the address',
  'the colour is wrong',
  'thanks',
  'ok',
  'what are your opening hours',
  'is it in stock',
];
const REFUND = ['I want a refund for order {n}', 'please refund me', 'how do refunds work?'];
const PERSON = ['can I talk to a person?', 'I want an agent'];

/** Deterministic chats: ~20% mention a refund at some turn, ~10% ask for a person (never both), a quarter on livechat. */
function generate(count: number): Generated {
  let seed = 46;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const lines: RecordingLineInput[] = [];
  const refundTurn = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const id = `bench-${String(i).padStart(4, '0')}`;
    const turns = Array.from({ length: 5 + rand(3) }, () => PLAIN[rand(PLAIN.length)].replace('{n}', String(1000 + rand(9000))));
    const kind = rand(10);
    if (kind < 2) {
      const at = 1 + rand(turns.length - 1);
      turns[at] = REFUND[rand(REFUND.length)].replace('{n}', String(1000 + rand(9000)));
      refundTurn.set(id, at + 1);
    } else if (kind === 2) turns[1 + rand(turns.length - 1)] = PERSON[rand(PERSON.length)];
    lines.push({
      format: 'va-chat-recording',
      version: 1,
      id,
      channel: rand(4) === 0 ? 'livechat' : 'api',
      customer: { destination_id: `bench-customer-${i}`, name: `Customer ${i}` },
      turns: turns.map((text) => ({ customer: [{ text }] })),
    });
  }
  return { lines, refundTurn };
}

const CASES: Case[] = [
  { name: 'baseline', what: 'the example bot as it is', check: () => [] },
  {
    name: 'again',
    what: 'the same bot again, diffed against the baseline',
    against: 'baseline',
    check: (d) => (d.summary.chats_changed === 0 ? [] : [`${d.summary.chats_changed} chats changed, expected 0`]),
  },
  {
    name: 'regressed',
    what: 'BOT_REGRESSION=no-refund-handover, diffed against the baseline',
    regression: 'no-refund-handover',
    against: 'baseline',
    check: (d, { refundTurn }) => {
      const failures: string[] = [];
      const changed = new Map(d.summary.changed.map((c) => [c.id, c]));
      for (const [id, turn] of refundTurn) {
        const c = changed.get(id);
        if (!c) failures.push(`${id} mentions a refund at turn ${turn} but was not flagged`);
        else if (c.first_changed_turn !== turn) failures.push(`${id}: first changed turn ${c.first_changed_turn}, expected ${turn}`);
        else if (!c.changes.includes('handover')) failures.push(`${id}: no changed handover decision (${c.changes.join(', ')})`);
      }
      for (const id of changed.keys()) if (!refundTurn.has(id)) failures.push(`${id} was flagged but mentions no refund`);
      return failures;
    },
  },
];

async function main() {
  const { openTestDatabase } = await import('@/test/support/db');
  const { signedInAdminOf } = await import('@/test/support/people');
  const { createTenant } = await import('@/test/support/tenant');
  const { freePort } = await import('@/test/support/private-cluster');
  const { botApiHandler } = await import('@/app/api/v1/_routers');
  const { serveNode, answerClientError } = await import('@/platform/http/node-entry');
  const { startDelivery } = await import('@/lib/delivery/start-delivery');
  const { stopEmbeddedEngine } = await import('@/lib/delivery/embedded-engine');
  const { replayRunFinished } = await import('@/lib/replay/start-replay-run');
  const { startBot } = await import('@/examples/bot/bot');

  const db = await openTestDatabase();
  const t = await createTenant(db);
  const { client: admin } = await signedInAdminOf(db, t.account.id);
  const server = http.createServer((req, res) => void serveNode(botApiHandler.core, req, res));
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await startDelivery();
  const data = generate(CHATS);
  const turns = data.lines.reduce((n, l) => n + l.turns.length, 0);
  const call = async <T>(method: 'get' | 'post', p: string, body?: unknown): Promise<T> => {
    const res = method === 'get' ? await admin.get(p) : await admin.post(p, body);
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { response: T }).response;
  };

  const loadBefore = os.loadavg();
  const outcomes = new Map<string, Outcome>();
  for (const c of CASES) {
    const port = await freePort();
    const va = await call<{ id: number; api_key: string; signing_secret: string; login_id: string }>('post', '/replay/virtual-agents', {
      name: `Bench ${c.name}`,
      webhook_url: `http://127.0.0.1:${port}/webhook`,
    });
    const bot = await startBot({
      baseUrl,
      apiKey: va.api_key,
      signingSecret: va.signing_secret,
      loginId: va.login_id,
      port,
      handoverTeam: 'Humans',
      regression: c.regression,
      log: () => {},
    });
    const { run_id: runId } = await call<{ run_id: string }>('post', '/replays', {
      virtual_agent_id: va.id,
      label: `bench ${c.name}`,
      settle_ms: SETTLE_MS,
      concurrency: CONCURRENCY,
    });
    for (let i = 0; i < data.lines.length; i += 500) await call('post', `/replays/${runId}/chats`, { chats: data.lines.slice(i, i + 500) });
    const started = performance.now();
    await call('post', `/replays/${runId}/start`);
    await replayRunFinished(runId);
    const ms = performance.now() - started;
    await bot.close();
    const run = await call<{ status: string; chats_done: number; chats_failed: number }>('get', `/replays/${runId}`);
    const failures = run.status === 'done' && run.chats_failed === 0 ? [] : [`run ${run.status}, ${run.chats_failed} chats failed`];
    if (ms > BAR_MS) failures.push(`took ${Math.round(ms / 1000)} s, over the 10-minute bar`);
    let diff: Diff | undefined;
    if (c.against) {
      diff = await call<Diff>('get', `/replays/${runId}/diff?against=${outcomes.get(c.against)?.runId}`);
      failures.push(...c.check(diff, data));
    }
    outcomes.set(c.name, { ms, runId, diff, failures });
    console.log(
      `${c.name}: ${(ms / 1000).toFixed(1)} s, ${diff ? `${diff.summary.chats_changed} chats changed` : 'baseline'}${failures.length ? `; FAILED: ${failures.slice(0, 5).join('; ')}` : ''}`,
    );
  }
  const loadAfter = os.loadavg();
  await stopEmbeddedEngine();
  server.close();
  report(data, turns, outcomes, loadBefore, loadAfter);
  process.exit([...outcomes.values()].some((o) => o.failures.length) ? 1 : 0);
}

function report(data: Generated, turns: number, outcomes: Map<string, Outcome>, loadBefore: number[], loadAfter: number[]) {
  const cpu = os.cpus();
  const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(' / ');
  const database = process.env.DATABASE_URL ? 'PostgreSQL (a fresh database beside DATABASE_URL)' : 'PGlite in memory';
  const machine = `${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${database}`;
  const command = `npm run bench:replay (BENCH_CHATS=${CHATS} BENCH_CONCURRENCY=${CONCURRENCY} BENCH_SETTLE_MS=${SETTLE_MS})`;
  const rows = CASES.map((c) => {
    const o = outcomes.get(c.name) as Outcome;
    const s = o.diff?.summary;
    return `| ${c.name} | ${c.what} | ${(o.ms / 1000).toFixed(1)} s | ${(CHATS / (o.ms / 1000)).toFixed(1)} | ${s ? `${s.chats_changed} (${s.handover_changed_chats} handover)` : '–'} | ${s?.latency_ms.candidate ? `${s.latency_ms.candidate.p50} / ${s.latency_ms.candidate.p95}` : '–'} | ${o.failures.length ? `**failed**: ${o.failures.slice(0, 3).join('; ')}` : 'passed'} |`;
  });
  const detail = `# bench:replay: 1,000 recorded chats against the example bot

Written by \`bench/replay.ts\` (the run of ${new Date().toISOString().slice(0, 16)}Z).

- Command: \`${command}\`
- Machine: ${machine}
- Other load: the machine is shared with other helpers' builds and tests; load average (1 / 5 / 15 min) ${load(loadBefore)} at the start and ${load(loadAfter)} at the end.
- Data: ${CHATS} generated chats, ${turns} customer turns (5 to 7 a chat), ${data.refundTurn.size} mention a refund (at turn 2 or later), a tenth ask for a person, a quarter on livechat. Each case replays all of them against a sandbox VA served by the example bot's webhook server (settle ${SETTLE_MS} ms, ${CONCURRENCY} chats at once).

| case | what | time | chats/s | chats changed vs baseline | bot reply latency p50 / p95 (ms) | check |
|---|---|---|---|---|---|---|
${rows.join('\n')}

Checks: every case under 10 minutes with no chat failed; \`again\` 0 chats changed; \`regressed\` flags every one of the ${data.refundTurn.size} refund chats with \`handover\` among its changes and its first changed turn the refund's turn, and no other chat.
A turn lasts at least the settle time after the bot's last action, so the time is mostly waiting: ${CHATS} chats × ~${(turns / CHATS).toFixed(1)} turns × ${SETTLE_MS} ms / ${CONCURRENCY} at once ≈ ${Math.round((turns * SETTLE_MS) / CONCURRENCY / 1000)} s is the floor of the settle alone.
`;
  // BENCHMARKS.md keeps one row per bench in its table (written by hand from this line).
  const row = `| bench:replay (\`npm run bench:replay\`) | ${CHATS} recorded chats against the example bot: ${CASES.map((c) => {
    const o = outcomes.get(c.name) as Outcome;
    return `${(o.ms / 1000).toFixed(0)} s (${c.name}${o.diff ? `: ${o.diff.summary.chats_changed} changed` : ''})`;
  }).join(
    ', ',
  )} | ≤ 10 min; 0 diffs; 100 % of refund chats, no other | ${[...outcomes.values()].some((o) => o.failures.length) ? 'no' : 'yes'} | ${new Date().toISOString().slice(0, 16)}, ${cpu[0]?.model ?? 'cpu'}, ${loadBefore[0].toFixed(1)}-${loadAfter[0].toFixed(1)} |`;
  console.log(detail);
  console.log(`BENCHMARKS.md row:\n${row}`);
  if (process.env.BENCH_WRITE === '0') return;
  const root = path.resolve(import.meta.dirname, '..');
  fs.writeFileSync(path.join(root, 'docs', 'benchmarks', 'replay.md'), detail);
}

await main();
