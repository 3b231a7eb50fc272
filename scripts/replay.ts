// `npm run replay -- <command>`: record, replay and diff conversations through the admin API of a
// running service (docs/guide/replay.md). USAGE below lists the commands and options.
// Exit code: 0 passed; 1 a threshold was passed or the run failed; 2 bad usage (arguments, the
// recording file, or a request the service refused as bad); 3 the service could not be reached,
// answered 5xx or did not answer as this service does.
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { recordingLineSchema } from '@/contracts/admin/schemas/recording';
import { CHANGE_KINDS, type ChangeKind } from '@/lib/replay/diff-chat';
import { checkThresholds, type DiffSummary } from '@/lib/replay/summarize-diff';

const USAGE = `usage: npm run replay -- <command> [options]
  export     --out FILE [--chat-ids a,b] [--tag T] [--va ID] [--from ISO] [--to ISO] [--limit N]
  sandbox-va --name NAME (--webhook-url URL | --pull) [--team NAME]
  run        --recording FILE --va ID [--label L] [--settle-ms N] [--turn-timeout-ms N] [--concurrency N]
             [--against recording|rpl_…] [--out FILE] [--diff-out FILE] [--text exact|normalised]
             [--fail-on KIND,…|any] [--max-changed-chats N] [--max-p95-latency-ms N]
  diff       RUN_ID [--against recording|rpl_…] [--diff-out FILE] [--text exact|normalised]
             [--fail-on KIND,…|any] [--max-changed-chats N] [--max-p95-latency-ms N]
The service and login: VA_BASE_URL, ADMIN_EMAIL, ADMIN_PASSWORD, else the demo's .data/demo-login.txt.
Exit code: 0 passed, 1 a threshold was passed or the run failed, 2 bad usage or a refused request,
3 the service unreachable or failing. Guide: docs/guide/replay.md.`;

const OPTIONS = {
  out: { type: 'string' },
  'chat-ids': { type: 'string' },
  tag: { type: 'string' },
  va: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  limit: { type: 'string' },
  name: { type: 'string' },
  'webhook-url': { type: 'string' },
  pull: { type: 'boolean' },
  team: { type: 'string' },
  recording: { type: 'string' },
  label: { type: 'string' },
  'settle-ms': { type: 'string' },
  'turn-timeout-ms': { type: 'string' },
  concurrency: { type: 'string' },
  against: { type: 'string' },
  'diff-out': { type: 'string' },
  text: { type: 'string' },
  'fail-on': { type: 'string' },
  'max-changed-chats': { type: 'string' },
  'max-p95-latency-ms': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function fail(message: string, code = 2): never {
  console.error(message);
  process.exit(code);
}
const usage = (problem: string): never => fail(`${problem}\n\n${USAGE}`, 2);
/** The service could not be reached or did not answer as it should: exit 3. */
const unreachable = (message: string): never => fail(message, 3);

const [command, ...rest] = process.argv.slice(2);
if (command === '--help' || command === '-h' || command === 'help') {
  console.log(USAGE);
  process.exit(0);
}
if (command === undefined) usage('no command given');
if (!['export', 'sandbox-va', 'run', 'diff'].includes(command)) usage(`unknown command "${command}"`);
const { values: opts, positionals } = (() => {
  try {
    return parseArgs({ args: rest, allowPositionals: true, strict: true, options: OPTIONS });
  } catch (err) {
    // node:util names the unknown option or the one missing its value.
    return usage(`${command}: ${(err as Error).message}`);
  }
})();
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}

const int = (name: string, v: string | undefined) => {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) usage(`--${name} takes a whole number, not "${v}"`);
  return Number(v);
};
const failOn = (opts['fail-on']?.split(',').filter(Boolean) ?? []) as (ChangeKind | 'any')[];

// Every argument is checked before the service is called.
switch (command) {
  case 'export':
    if (!opts.out) usage('export needs --out FILE');
    int('va', opts.va);
    int('limit', opts.limit);
    break;
  case 'sandbox-va':
    if (!opts.name || (!opts['webhook-url'] && !opts.pull)) usage('sandbox-va needs --name NAME and --webhook-url URL (or --pull)');
    break;
  case 'run':
    if (!opts.recording || !opts.va) usage('run needs --recording FILE and --va ID (a sandbox VA: npm run replay -- sandbox-va …)');
    for (const n of ['va', 'settle-ms', 'turn-timeout-ms', 'concurrency'] as const) int(n, opts[n]);
    break;
  case 'diff':
    if (positionals.length !== 1) usage('diff takes one RUN_ID');
    break;
}
if (positionals.length > (command === 'diff' ? 1 : 0)) usage(`${command}: unexpected argument "${positionals.at(-1)}"`);
if (command === 'run' || command === 'diff') {
  for (const k of failOn)
    if (k !== 'any' && !CHANGE_KINDS.includes(k)) usage(`--fail-on: "${k}" is not one of any, ${CHANGE_KINDS.join(', ')}`);
  int('max-changed-chats', opts['max-changed-chats']);
  int('max-p95-latency-ms', opts['max-p95-latency-ms']);
  if (opts.text !== undefined && !['exact', 'normalised'].includes(opts.text))
    usage(`--text takes exact or normalised, not "${opts.text}"`);
}
const lines = command === 'run' ? await readRecording(opts.recording as string) : [];

const file = path.resolve(
  process.env.DEMO_LOGIN_FILE ?? path.join(path.dirname(path.resolve(process.env.DATA_DIR ?? '.data/pglite')), 'demo-login.txt'),
);
const saved = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
const fromFile = (label: string) => saved.match(new RegExp(`^${label}:\\s*(.+)$`, 'm'))?.[1].trim();
const base = (process.env.VA_BASE_URL ?? fromFile('Service')?.split(/\s+/)[0] ?? '').replace(/\/$/, '');
const [fileEmail, filePassword] = (fromFile('Admin login') ?? '').split(/\s+\/\s+/);
const email = process.env.ADMIN_EMAIL ?? fileEmail;
const password = process.env.ADMIN_PASSWORD ?? filePassword;
if (!/^https?:\/\//.test(base)) usage(`Set VA_BASE_URL (or start the demo once so ${file} names the service).`);
if (!email || !password) usage(`Set ADMIN_EMAIL and ADMIN_PASSWORD (or start the demo once so ${file} names its login).`);

let cookie = '';
/** One call; a connection that fails (refused, reset, DNS) ends the command with exit 3 and says where. */
async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return unreachable(
      `Could not reach the service at ${base} (${cause?.code ?? cause?.message ?? (err as Error).message}). Is it running? Check VA_BASE_URL.`,
    );
  }
}
async function call(method: string, p: string, body?: unknown): Promise<Response> {
  return send(`${base}/api/admin${p}`, {
    method,
    headers: { cookie, origin: base, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
/** A failed answer as one message: the envelope's code and description, or what came instead. Exit 2 for a 4xx, 3 otherwise. */
async function refused(what: string, res: Response): Promise<never> {
  const raw = await res.text().catch(() => '');
  let envelope: { status_code?: number; description?: string; response?: unknown } | null = null;
  try {
    envelope = JSON.parse(raw);
  } catch {}
  const detail =
    envelope && typeof envelope === 'object' && 'status_code' in envelope
      ? `${envelope.status_code} ${envelope.description ?? ''}${envelope.response ? `\n${JSON.stringify(envelope.response)}` : ''}`
      : `not an answer of this service (${raw.slice(0, 120).replace(/\s+/g, ' ') || 'empty body'})`;
  return fail(`${what}: HTTP ${res.status}: ${detail}`, res.status >= 400 && res.status < 500 && envelope ? 2 : 3);
}
async function json<T>(method: string, p: string, body?: unknown): Promise<T> {
  const res = await call(method, p, body);
  if (!res.ok) return refused(`${method} /api/admin${p}`, res);
  const envelope = (await res.json().catch(() => null)) as { response?: unknown } | null;
  if (!envelope || typeof envelope !== 'object' || !('response' in envelope))
    unreachable(`${method} /api/admin${p}: HTTP ${res.status} but not an answer of this service. Check VA_BASE_URL.`);
  return (envelope as { response: T }).response;
}

const login = await send(`${base}/api/admin/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', origin: base },
  body: JSON.stringify({ email, password }),
});
if (!login.ok) await refused(`Could not sign in to ${base} as ${email}`, login);
cookie = login.headers
  .getSetCookie()
  .map((c) => c.split(';')[0])
  .join('; ');

switch (command) {
  case 'export':
    await exportChats();
    break;
  case 'sandbox-va':
    await sandboxVa();
    break;
  case 'run':
    process.exit(await run());
    break;
  case 'diff':
    process.exit(await diff(positionals[0]));
    break;
}

async function exportChats() {
  const query = new URLSearchParams();
  for (const [flag, param] of [
    ['chat-ids', 'chat_ids'],
    ['tag', 'tag'],
    ['va', 'virtual_agent_id'],
    ['from', 'from'],
    ['to', 'to'],
    ['limit', 'limit'],
  ] as const) {
    const v = opts[flag];
    if (typeof v === 'string') query.set(param, v);
  }
  const res = await call('GET', `/replay/export?${query}`);
  if (!res.ok || !res.body) return refused('GET /api/admin/replay/export', res);
  const out = fs.createWriteStream(opts.out as string);
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    out.write(chunk);
    for (const b of chunk) if (b === 10) lines++;
  }
  await new Promise<void>((resolve) => out.end(resolve));
  console.log(`wrote ${lines} chats to ${opts.out}`);
}

async function sandboxVa() {
  const va = await json<{ id: number; login_id: string; api_key: string; signing_secret: string }>('POST', '/replay/virtual-agents', {
    name: opts.name,
    ...(opts.pull ? { delivery_mode: 'pull' } : { webhook_url: opts['webhook-url'] }),
    ...(opts.team && { team_name: opts.team }),
  });
  console.log(`Sandbox VA ${va.id} (${va.login_id}). Start the bot under test with:`);
  console.log(`VA_API_KEY=${va.api_key} VA_SIGNING_SECRET=${va.signing_secret} VA_LOGIN_ID=${va.login_id}`);
  console.log(`then: npm run replay -- run --recording FILE --va ${va.id}`);
}

/** The recording's lines, checked before anything is sent: a bad line is named with its line number. */
async function readRecording(p: string) {
  if (!fs.existsSync(p)) usage(`no recording at ${p}`);
  const lines: unknown[] = [];
  let n = 0;
  for await (const raw of readline.createInterface({ input: fs.createReadStream(p) })) {
    n++;
    if (!raw.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      fail(`${p}:${n}: not JSON`);
    }
    const parsed = recordingLineSchema.safeParse(value);
    if (!parsed.success) fail(`${p}:${n}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(line)'}: ${i.message}`).join('; ')}`);
    lines.push(value);
  }
  if (!lines.length) fail(`${p} holds no chats`);
  return lines;
}

async function run(): Promise<number> {
  const created = await json<{ run_id: string }>('POST', '/replays', {
    virtual_agent_id: int('va', opts.va),
    label: opts.label ?? path.basename(opts.recording as string),
    settle_ms: int('settle-ms', opts['settle-ms']),
    turn_timeout_ms: int('turn-timeout-ms', opts['turn-timeout-ms']),
    concurrency: int('concurrency', opts.concurrency),
  });
  const runId = created.run_id;
  // Batches within the service's body limit (256 KiB by default) and 500 lines.
  let batch: unknown[] = [];
  let size = 0;
  const flush = async () => {
    if (batch.length) await json('POST', `/replays/${runId}/chats`, { chats: batch });
    batch = [];
    size = 0;
  };
  for (const line of lines) {
    const bytes = JSON.stringify(line).length + 1;
    if (batch.length === 500 || size + bytes > 200_000) await flush();
    batch.push(line);
    size += bytes;
  }
  await flush();
  await json('POST', `/replays/${runId}/start`);
  const started = Date.now();
  console.log(`replay ${runId}: ${lines.length} chats`);
  let status = 'running';
  while (status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const r = await json<{ status: string; chats_done: number; chats_total: number; chats_failed: number }>('GET', `/replays/${runId}`);
    status = r.status;
    process.stderr.write(
      `\r${r.chats_done}/${r.chats_total} chats (${r.chats_failed} failed), ${Math.round((Date.now() - started) / 1000)} s`,
    );
  }
  process.stderr.write('\n');
  if (status !== 'done') {
    console.error(`replay ${runId} ended ${status}`);
    return 1;
  }
  if (opts.out) {
    const res = await call('GET', `/replays/${runId}/results`);
    if (!res.ok) await refused(`GET /api/admin/replays/${runId}/results`, res);
    fs.writeFileSync(opts.out, await res.text());
    console.log(`wrote the replayed chats to ${opts.out}`);
  }
  return diff(runId);
}

async function diff(runId: string): Promise<number> {
  const query = new URLSearchParams({ against: opts.against ?? 'recording' });
  if (opts.text) query.set('text', opts.text);
  const result = await json<{ summary: DiffSummary; against: string }>('GET', `/replays/${runId}/diff?${query}`);
  if (opts['diff-out']) fs.writeFileSync(opts['diff-out'], `${JSON.stringify(result, null, 2)}\n`);
  const s = result.summary;
  console.log(
    `${runId} against ${result.against}: ${s.chats_changed} of ${s.chats_total} chats changed, ${s.handover_changed_chats} with a changed handover decision`,
  );
  console.log(`turns: ${s.turns_changed} of ${s.turns_compared} changed; ${s.turns_text_volatile_only} differ only in volatile text`);
  if (s.latency_ms.candidate) console.log(`reply latency p50 ${s.latency_ms.candidate.p50} ms, p95 ${s.latency_ms.candidate.p95} ms`);
  for (const c of s.changed.slice(0, 20))
    console.log(
      `  ${c.id} (line ${c.seq + 1}): from turn ${c.first_changed_turn}: ${c.changes.join(', ')}${c.error ? ` [${c.error}]` : ''}`,
    );
  if (s.changed.length > 20) console.log(`  … and ${s.changed.length - 20} more (--diff-out FILE has them all)`);
  const reasons = checkThresholds(s, {
    failOn,
    maxChangedChats: int('max-changed-chats', opts['max-changed-chats']),
    maxP95LatencyMs: int('max-p95-latency-ms', opts['max-p95-latency-ms']),
  });
  for (const r of reasons) console.error(`FAIL: ${r}`);
  return reasons.length ? 1 : 0;
}
