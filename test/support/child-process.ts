import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

/** The repository's root, where child processes run. */
export const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** The test API server as its own process (`node --import tsx` of this file). */
export const SERVER_PROCESS = path.join(ROOT, 'test', 'support', 'api-server-process.ts');

/**
 * Flags of this process's node that its node children take too: `--liftoff-only`, which `npm test`
 * gives the PGlite pass (scripts/test.mjs says why).
 */
export const INHERITED_NODE_FLAGS = process.execArgv.filter((flag) => flag === '--liftoff-only');

/** A skip reason when python3 3.9 or later is missing (the Python example bot cannot run), else false. */
export function pythonMissing(): string | false {
  const python = spawnSync('python3', ['-c', 'import sys; print(sys.version_info >= (3, 9))'], { encoding: 'utf8' });
  return python.error || python.stdout.trim() !== 'True'
    ? 'python3 (3.9 or later) is not installed: the Python example bot cannot run'
    : false;
}

/** A child process whose output lines (stdout and stderr, in arrival order) are kept for assertions and failure reports. */
export type Proc = { child: ChildProcess; lines: string[]; exited: Promise<number | null> };

/** Starts `command` in the repository's root with the test process's environment and `extraEnv`. */
export function startProcess(command: string, args: string[], extraEnv: Record<string, string>): Proc {
  const flags = command === process.execPath ? INHERITED_NODE_FLAGS : [];
  const child = spawn(command, [...flags, ...args], { cwd: ROOT, env: { ...process.env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (l) => l && lines.push(l));
  readline.createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (l) => l && lines.push(l));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, lines, exited };
}

/** Signs in to the admin API of the server at `base`; answers the session as a `cookie` header. */
export async function adminSignIn(base: string, credentials: { email: string; password: string }): Promise<string> {
  const login = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  assert.equal(login.status, 200, await login.clone().text());
  return login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** One admin API call with the session `cookie`; a refusal fails the test with its status and description. */
export async function adminCall<T>(base: string, cookie: string, method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}/api/admin${p}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json()) as { response: T; description: string };
  assert.ok(res.status < 300, `${method} ${p}: ${res.status} ${envelope.description}`);
  return envelope.response;
}
