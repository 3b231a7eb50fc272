/**
 * npm run bench:agent-pick: a chat picked by 20 people at once, on PostgreSQL. Each round queues
 * one chat in the people's team and sends 20 picks together through the agent workspace API's real
 * handler (guard, session, contract, pickChat) in this process, on the service's connection pool
 * (DATABASE_POOL_SIZE, 10 by default). Checks that every round has exactly one winner and 19
 * refusals (2083), and times every answer. Written to BENCHMARKS.md between
 * `<!-- bench:agent-pick:start -->` and `<!-- bench:agent-pick:end -->` (BENCH_WRITE=0: print only).
 *
 * Runs in its own database beside DATABASE_URL's (default postgres://postgres@127.0.0.1:5432/postgres),
 * dropped at the end. Knobs: BENCH_ROUNDS (50), BENCH_PICKERS (20).
 */
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { spread } from '@/test/support/stats';
import { writeSection } from './report';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 50);
const PICKERS = Number(process.env.BENCH_PICKERS ?? 20);
const baseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function main() {
  const name = `va_bench_agent_pick_${process.pid}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  process.env.LOG_LEVEL ??= 'warn';
  process.env.ADMIN_RATE_LIMIT_PER_MINUTE ??= '100000000';
  try {
    // Imported once the environment names the bench database.
    const { NextRequest } = await import('next/server');
    const { agentApiHandler } = await import('@/app/api/agent/_routers');
    const { getDb } = await import('@/db/client');
    const { openAgentSession } = await import('@/lib/agent-auth/open-agent-session');
    const { agentLogins } = await import('@/db/schema');
    const { createUser } = await import('@/lib/users/create-user');
    const { createTenant } = await import('@/test/support/tenant');
    const { newChat } = await import('@/test/support/chats');
    const db = await getDb();
    const t = await createTenant(db);
    const cookies: string[] = [];
    for (let i = 0; i < PICKERS; i++) {
      const u = await createUser(db, {
        accountId: t.account.id,
        kind: 'agent',
        loginId: `picker-${i}`,
        name: `Picker ${i}`,
        teamIds: [t.humanTeam.id],
        capacity: ROUNDS + 1,
      });
      await db.insert(agentLogins).values({ userId: u.id, accountId: t.account.id, email: `picker-${i}@example.test` });
      cookies.push(`va_agent_session=${(await openAgentSession(db, { userId: u.id })).token}`);
    }
    const pick = async (chatId: string, cookie: string) => {
      const s = performance.now();
      const res = await agentApiHandler(
        new NextRequest(`http://localhost/api/agent/chats/${chatId}/pick`, {
          method: 'POST',
          headers: { cookie, 'content-length': '0' },
          body: '',
        }),
      );
      const body = await res.json();
      return { ms: performance.now() - s, status: res.status, code: body.status_code as number };
    };
    const all: number[] = [];
    const winners: number[] = [];
    const losers: number[] = [];
    const loadBefore = os.loadavg()[0];
    for (let round = -3; round < ROUNDS; round++) {
      const chat = await newChat(t, { team_id: t.humanTeam.id });
      const answers = await Promise.all(cookies.map((c) => pick(chat.chat_id, c)));
      const won = answers.filter((a) => a.status === 200);
      const refused = answers.filter((a) => a.status === 409 && a.code === 2083);
      if (won.length !== 1 || refused.length !== PICKERS - 1) {
        throw new Error(`round ${round}: ${won.length} winners, ${refused.length} refused: ${JSON.stringify(answers.map((a) => a.code))}`);
      }
      if (round < 0) continue; // warm-up
      for (const a of answers) all.push(a.ms);
      winners.push(won[0].ms);
      for (const a of refused) losers.push(a.ms);
    }
    const loadAfter = os.loadavg()[0];
    const f = (xs: number[]) => {
      const s = spread(xs);
      return `p50 ${s.p50.toFixed(1)} ms · p99 ${s.p99.toFixed(1)} ms · max ${s.max.toFixed(1)} ms`;
    };
    const report = [
      '<!-- bench:agent-pick:start -->',
      '## Picking under contention (`npm run bench:agent-pick`)',
      '',
      `${new Date().toISOString().slice(0, 16)}Z · ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'} · Node ${process.version} · PostgreSQL on 127.0.0.1 · ` +
        `\`npm run bench:agent-pick\` (${ROUNDS} rounds after 3 to warm up, ${PICKERS} people picking one chat together each round, through the agent API's handler in process, pool of ${process.env.DATABASE_POOL_SIZE ?? 10} connections). ` +
        `1-minute load average ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after${Math.max(loadBefore, loadAfter) > 1 ? ' (other work shared the cores)' : ''}.`,
      '',
      `Every round: exactly one winner (200) and ${PICKERS - 1} refusals (409, 2083).`,
      '',
      `- every answer: ${f(all)}`,
      `- the winner's answer: ${f(winners)}`,
      `- a refusal: ${f(losers)}`,
      '<!-- bench:agent-pick:end -->',
    ].join('\n');
    console.log(`\n${report}`);
    if (process.env.BENCH_WRITE !== '0') {
      writeSection(path.join(process.cwd(), 'BENCHMARKS.md'), report, {
        start: '<!-- bench:agent-pick:start -->',
        end: '<!-- bench:agent-pick:end -->',
      });
    }
    const { closeDb } = await import('@/db/client');
    await closeDb();
  } finally {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await admin.end();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
