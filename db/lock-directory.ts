import fs from 'node:fs';

/**
 * Who holds a lock: the pid, and (on Linux) when that process started and on which boot, so that
 * a pid alone cannot fool the check after a crash: a process killed but not yet reaped (a zombie),
 * one being torn down, or, in a new container or after a reboot, an unrelated process that got the
 * same number.
 */
export type LockHolder = { pid: number; startTime?: string; bootId?: string };

export class DirectoryInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder,
  ) {
    super(`The embedded database ${dir} is in use by process ${holder.pid}. Stop that process, or set DATA_DIR to another directory.`);
    this.name = 'DirectoryInUseError';
  }
}

/** This process, as it is written into a lock. */
export function thisProcess(): LockHolder {
  const { startTime, bootId } = processIdentity(process.pid) ?? {};
  return { pid: process.pid, startTime, bootId };
}

/**
 * The state, start time (clock ticks since boot) and boot of `pid` from /proc, or null when no such
 * process exists. Without /proc (not Linux): `{}` when the process exists, so that only the pid is
 * compared there.
 */
function processIdentity(pid: number): { state?: string; startTime?: string; bootId?: string } | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ESRCH') return fs.existsSync('/proc/self/stat') ? null : signalZeroIdentity(pid);
    return signalZeroIdentity(pid);
  }
  // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so fields count from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0], startTime: fields[19], bootId: bootId() };
}

function signalZeroIdentity(pid: number): Record<string, never> | null {
  try {
    process.kill(pid, 0);
    return {};
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? {} : null;
  }
}

let cachedBootId: string | undefined;
function bootId(): string | undefined {
  if (cachedBootId === undefined) {
    try {
      cachedBootId = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      cachedBootId = '';
    }
  }
  return cachedBootId || undefined;
}

/**
 * Whether the process a lock names still runs: it exists, is not a zombie or dead (`Z`, `X`), and,
 * where the lock recorded them, started at the same tick of the same boot.
 */
export function holderRuns(holder: LockHolder): boolean {
  if (!Number.isInteger(holder.pid) || holder.pid <= 0) return false;
  const now = processIdentity(holder.pid);
  if (!now) return false;
  if (now.state === 'Z' || now.state === 'X' || now.state === 'x') return false;
  if (holder.bootId && now.bootId && holder.bootId !== now.bootId) return false;
  if (holder.startTime && now.startTime && holder.startTime !== now.startTime) return false;
  return true;
}

/** A lock file's holder: JSON `{pid, startTime, bootId}`, or the bare pid earlier versions wrote. */
export function parseHolder(text: string): LockHolder {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed) };
  try {
    const v = JSON.parse(trimmed) as Partial<LockHolder>;
    return { pid: Number(v.pid), startTime: v.startTime, bootId: v.bootId };
  } catch {
    // A file cut short by a crash while it was written: no holder.
    return { pid: 0 };
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Guards `dir` with the lock file `<dir>.lock` naming this process. A lock whose holder no longer
 * runs (see holderRuns) is taken over; one whose holder still runs is waited for up to `waitMs`
 * (a process killed a moment ago is still being torn down), then DirectoryInUseError.
 * Returns the release, which also runs at exit.
 */
export async function lockDirectory(dir: string, { waitMs = 5_000, pollMs = 100 } = {}): Promise<() => void> {
  const lockFile = `${dir}.lock`;
  const me = thisProcess();
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      fs.writeFileSync(lockFile, JSON.stringify(me), { flag: 'wx' });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.removeListener('exit', release);
        // Only our own lock: never one a later holder took over.
        try {
          if (parseHolder(fs.readFileSync(lockFile, 'utf8')).pid === me.pid) fs.rmSync(lockFile, { force: true });
        } catch {
          // already gone
        }
      };
      process.once('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder: LockHolder;
    try {
      holder = parseHolder(fs.readFileSync(lockFile, 'utf8'));
    } catch (err) {
      // Removed between our attempt and this read: try again.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    // Our own pid: a lock this process left, or one left by a dead process that had our number
    // (a container's first process has the same pid on every start).
    if (holder.pid === me.pid || !holderRuns(holder)) {
      fs.rmSync(lockFile, { force: true });
      continue;
    }
    if (Date.now() >= until) throw new DirectoryInUseError(dir, holder);
    await sleep(pollMs);
  }
}
