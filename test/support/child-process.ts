import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { freePort } from './private-cluster';
import { databaseForServer } from './server-database';

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

/** SERVER_PROCESS's environment: its database, port, first administrator, production mode, the embedded engine. */
export function apiServerEnv({
  database,
  port,
  admin,
}: {
  database: Record<string, string>;
  port: number;
  admin: { email: string; password: string };
}): Record<string, string> {
  return {
    ...database,
    PORT: String(port),
    NEXT_RUNTIME: 'nodejs',
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DELIVERY_ENGINE: 'embedded',
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
  };
}

/** A chat on livechat created by a bot (`token`) and assigned to `assignee`, with the customer's first message if `text` is given; answers its id. */
export async function botCreateChat(
  base: string,
  token: string,
  { assetId, visitor, assignee, text }: { assetId: number; visitor: string; assignee: string; text?: string },
): Promise<string> {
  const created = await fetch(`${base}/api/v1/chats`, {
    method: 'POST',
    headers: { access_token: token, 'content-type': 'application/json' },
    body: JSON.stringify({
      channel: 'livechat',
      asset_id: assetId,
      customer: { destination_id: visitor },
      assignee,
      ...(text === undefined ? {} : { messages: [{ type: 'inbound', text }] }),
    }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  return ((await created.json()) as { response: { chat_id: string } }).response.chat_id;
}

/** The test API server (SERVER_PROCESS) as its own process on a database of its own; `stop` ends both. */
export type ApiServer = { proc: Proc; base: string; stop: () => Promise<void> };

/**
 * Starts SERVER_PROCESS on a free port over a database of its own (a PGlite directory under `dir`,
 * or a database copied from the test template on PostgreSQL), with the embedded delivery engine,
 * first administrator `admin` and `extraEnv`; resolves once it listens. Its output is printed if it
 * exits before `stop`.
 */
export async function startApiServer({
  dir,
  tag,
  admin,
  extraEnv = {},
}: {
  dir: string;
  tag: string;
  admin: { email: string; password: string };
  extraEnv?: Record<string, string>;
}): Promise<ApiServer> {
  const database = await databaseForServer(dir, tag);
  const port = await freePort();
  let stopping = false;
  let exitCode: number | null | undefined;
  const proc = startProcess(process.execPath, ['--import', 'tsx', SERVER_PROCESS], {
    ...apiServerEnv({ database: database.env, port, admin }),
    ...extraEnv,
  });
  void proc.exited.then((code) => {
    exitCode = code;
    if (!stopping) console.log(`server exited (${code}):\n${proc.lines.join('\n')}`);
  });
  const deadline = Date.now() + 120_000;
  while (!proc.lines.some((l) => l.includes('"listening"'))) {
    if (exitCode !== undefined) assert.fail(`the server exited (${exitCode}) before it listened:\n${proc.lines.join('\n')}`);
    if (Date.now() > deadline) assert.fail(`the server did not listen within 120 s:\n${proc.lines.join('\n')}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    proc,
    base: `http://127.0.0.1:${port}`,
    stop: async () => {
      stopping = true;
      proc.child.kill('SIGTERM');
      const timer = setTimeout(() => proc.child.kill('SIGKILL'), 20_000);
      await proc.exited;
      clearTimeout(timer);
      await database.drop();
    },
  };
}
