import fs from 'node:fs';

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
