import fs from 'node:fs';
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
