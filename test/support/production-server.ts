import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export type ProductionServer = { base: string; child: ChildProcess; out: string[]; exited: Promise<number | null> };

/**
 * `npm start` (scripts/start.mjs: the build in .next on one node:http server, built first when it
 * is missing or stale) on 127.0.0.1:`port`, in production mode, with `env` over this process's
 * environment. Its output lines are kept in `out` (and handed to `onLine`); `exited` resolves with
 * the exit code once the process and its output have ended.
 */
export function startProductionServer(port: number, env: Record<string, string>, onLine?: (line: string) => void): ProductionServer {
  const child = spawn(process.execPath, ['scripts/start.mjs', '-H', '127.0.0.1'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: string[] = [];
  const keep = (line: string) => {
    if (!line) return;
    out.push(line);
    onLine?.(line);
  };
  // Whole lines: a chunk of a pipe can end in the middle of one.
  readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', keep);
  readline.createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', keep);
  const exited = new Promise<number | null>((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  return { base: `http://127.0.0.1:${port}`, child, out, exited };
}
