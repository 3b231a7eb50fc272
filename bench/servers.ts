import fs from 'node:fs';
import type { Sql } from 'postgres';
import { nowMs } from '@/test/support/clock';

export { freePort } from '@/test/support/private-cluster';
export { waitReady } from '@/test/support/production-server';

/** utime + stime of a process, in ms (Linux). */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `task(i)` for i < n, started at `rate` a second, at most `inFlight` at once. */
export async function paced(n: number, rate: number, task: (i: number) => Promise<void>, inFlight = 500) {
  const t0 = nowMs();
  const running = new Set<Promise<void>>();
  for (let i = 0; i < n; i++) {
    const wait = t0 + (i * 1000) / rate - nowMs();
    if (wait > 1) await sleep(wait);
    const p = task(i).finally(() => running.delete(p));
    running.add(p);
    if (running.size >= inFlight) await Promise.race(running);
  }
  await Promise.all(running);
}

/**
 * CPU (ms) of the PostgreSQL processes working for this benchmark, by pid: the backends connected
 * to its database and the server's own background processes (WAL writer, checkpointer...), not
 * other sessions' backends.
 */
export function postgresCpu(dbUrl: URL): Map<number, number> {
  const db = dbUrl.pathname.slice(1);
  const out = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      const title = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      // A backend's title is "postgres: <cluster>: <user> <database> <client> <state>".
      const backend = /^postgres: [^:]+: \S+ (\S+) /.exec(title);
      if (backend && backend[1] !== db) continue;
      const ms = processCpuMs(Number(entry));
      if (ms !== null) out.set(Number(entry), ms);
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/**
 * The sum of `postgresCpu` over its processes, for a before and after: CPU (ms) that PostgreSQL
 * spent for the benchmark's database between two readings (processes that started meanwhile count
 * from zero).
 */
export function postgresCpuSince(dbUrl: URL, before: Map<number, number>): number {
  let ms = 0;
  for (const [pid, now] of postgresCpu(dbUrl)) ms += now - (before.get(pid) ?? 0);
  return ms;
}

/** WAL bytes the cluster has written so far (pg_stat_wal), for a before and after. */
export async function walBytes(sql: Sql): Promise<number> {
  const [row] = await sql<{ bytes: string }[]>`select wal_bytes::text as bytes from pg_stat_wal`;
  return Number(row.bytes);
}
