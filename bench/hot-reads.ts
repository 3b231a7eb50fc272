/**
 * npm run bench:hot-reads: what two reads on a conversation's path cost this process, per call: the
 * pulled page (lib/pull/read-event-page.ts: a pulling bot reads one for every turn it is woken for)
 * and the widget's read from its cursor (lib/widget/list-widget-messages.ts: an open widget runs it
 * whenever a change cannot be sent on without a read). Each is called BENCH_CALLS (4,000) times in
 * a row after 500 to warm up, three rounds, on a fresh migrated database beside DATABASE_URL's
 * (default postgres://postgres@127.0.0.1:5432/postgres) or on PGlite without it; an empty page, so
 * the figure is the statement's own cost (building, sending, reading the answer) and not the rows'.
 * Prints this process's CPU and the wall time per call. To compare two commits, run it in a worktree
 * of each (docs/benchmarks/turns.md).
 */
import os from 'node:os';
import { getHandle } from '@/db/client';
import { readEventPage } from '@/lib/pull/read-event-page';
import { widgetMessagesAfter } from '@/lib/widget/list-widget-messages';
import { openTestDatabase } from '@/test/support/db';

const CALLS = Number(process.env.BENCH_CALLS ?? 4_000);
const CHAT = '00000000-0000-4000-8000-000000000000';

const db = await openTestDatabase();

async function measure(label: string, call: () => PromiseLike<unknown>) {
  for (let i = 0; i < 500; i++) await call();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) await call();
  const cpu = process.cpuUsage(cpu0);
  const wall = (performance.now() - t0) / CALLS;
  console.log(`| ${label} | ${((cpu.user + cpu.system) / 1000 / CALLS).toFixed(3)} | ${wall.toFixed(3)} |`);
}

console.log(`${os.cpus()[0]?.model ?? 'cpu'}, ${CALLS} calls a round, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`);
console.log('| read | CPU ms a call | wall ms a call |\n|---|---:|---:|');
for (let round = 0; round < 3; round++) {
  await measure('pulled page', () => readEventPage(db, { accountId: 1, vaUserId: 1, after: { xid: 0, id: 0 }, limit: 100 }));
  await measure('widget read', () => widgetMessagesAfter(db, { chatId: CHAT, after: 0, limit: 100 }));
}
await (await getHandle()).close();
