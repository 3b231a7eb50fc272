import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * The flags `npm start` gives node in `cwd`'s package.json (`node <flags> scripts/start.mjs`): the
 * servers of the tests and benches run with them, as shipped.
 */
export function startNodeFlags(cwd = ROOT): string[] {
  const start: string = JSON.parse(fs.readFileSync(path.join(cwd, 'package.json'), 'utf8')).scripts.start;
  const flags = /^node((?: --\S+)*) scripts\/start\.mjs$/.exec(start);
  if (!flags) throw new Error(`package.json's start script is not \`node [flags] scripts/start.mjs\`: ${start}`);
  return flags[1].split(' ').filter(Boolean);
}

export type ProductionServer = { base: string; child: ChildProcess; out: string[]; exited: Promise<number | null> };

/**
 * `npm start` (scripts/start.mjs: the build in .next on one node:http server, built first when it
 * is missing or stale) on 127.0.0.1:`port`, in production mode, with `env` over this process's
 * environment (a variable given as undefined is left out). Its output lines are kept in `out` (and
 * handed to `onLine`); `exited` resolves with the exit code once the process and its output have ended.
 */
export function startProductionServer(
  port: number,
  env: Record<string, string | undefined>,
  onLine?: (line: string) => void,
  /**
   * `nodeArgs`: flags for node itself (a bench's `--cpu-prof`), after `npm start`'s own
   * (`startNodeFlags`), so one given again overrides it; `keepOutput: false` leaves `out`
   * empty (long runs); `cwd`: another checkout to start (an earlier release, in drill:upgrade);
   * `next`: the same build under plain `next start` (`npm start -- --next`).
   */
  {
    nodeArgs = [],
    keepOutput = true,
    cwd = ROOT,
    next = false,
  }: { nodeArgs?: string[]; keepOutput?: boolean; cwd?: string; next?: boolean } = {},
): ProductionServer {
  const child = spawn(
    process.execPath,
    [...startNodeFlags(cwd), ...nodeArgs, 'scripts/start.mjs', '-H', '127.0.0.1', ...(next ? ['--next'] : [])],
    {
      cwd,
      env: { ...process.env, NODE_ENV: 'production', PORT: String(port), LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const out: string[] = [];
  const keep = (line: string) => {
    if (!line) return;
    if (keepOutput) out.push(line);
    onLine?.(line);
  };
  // Whole lines: a chunk of a pipe can end in the middle of one.
  readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', keep);
  readline.createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', keep);
  const exited = new Promise<number | null>((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  return { base: `http://127.0.0.1:${port}`, child, out, exited };
}

/** Resolves once `url` answers 2xx; throws if `child` exits first or `timeoutMs` passes. */
export async function waitReady(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${url}: server exited (${child.exitCode ?? child.signalCode}) before it was ready`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready in ${timeoutMs / 1000} s`);
}

/**
 * Resolves once the server answers `path` 2xx (liveness by default; `/api/health/ready` once its
 * database is open too). A first start may build and migrate: minutes. Fails with the server's last
 * output lines if it exits first or the time runs out.
 */
export async function waitForServer(server: ProductionServer, timeoutMs = 240_000, path = '/api/health'): Promise<void> {
  try {
    await waitReady(`${server.base}${path}`, server.child, timeoutMs);
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${server.out.slice(-30).join('\n')}`);
  }
}

/** SIGTERM (the server drains, then exits), SIGKILL after `killAfterMs`; resolves once it has exited. */
export async function stopProductionServer(server: ProductionServer, killAfterMs = 10_000): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill('SIGTERM');
    const timer = setTimeout(() => server.child.kill('SIGKILL'), killAfterMs);
    await server.exited;
    clearTimeout(timer);
  } else await server.exited;
}
