/**
 * `npm run drill:upgrade [-- --from <git ref>]`: a rolling upgrade rehearsed on one PostgreSQL
 * database (DATABASE_URL names the server; the drill creates and drops a database of its own).
 *
 *  1. The previous release (the latest `v*` tag before HEAD, or `--from`) is checked out into
 *     .data/drill/<commit>, installed and built there (once; kept for the next run), and started on
 *     an empty database: it migrates it and seeds its demo account.
 *  2. Load starts: workers each open a chat and post customer messages one after the other, each
 *     request to one of the instances serving at that moment (as a load balancer would).
 *  3. The current release starts on the same database while the old one serves: it runs the new
 *     migrations under the old code (expand now, contract later: docs/architecture.md).
 *  4. Both serve; then the old one is taken out of rotation and stopped with SIGTERM; load goes on
 *     against the new one, then stops.
 *  5. Checks: no 5xx answer other than a documented 503; every event written is delivered and
 *     reached the demo VA's webhook (a receiver in this process); per chat, the first 200 of each
 *     event came in the order of the chat's events.
 *
 * Exit code 0 when every check holds. Takes a few minutes (the first run also installs and builds
 * the previous release).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import postgres from 'postgres';
import { type ProductionServer, startProductionServer, stopProductionServer, waitForServer } from '../test/support/production-server';

const ROOT = path.resolve(import.meta.dirname, '..');
const PORT = Number(process.env.DRILL_PORT ?? 3470);
const PHASE_MS = Number(process.env.DRILL_PHASE_MS ?? 8_000);
const WORKERS = Number(process.env.DRILL_WORKERS ?? 8);
const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  console.error('Set DATABASE_URL to a PostgreSQL server (the drill creates and drops a database of its own).');
  process.exit(2);
}

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
const fromArg = process.argv.indexOf('--from');
const from =
  fromArg !== -1
    ? process.argv[fromArg + 1]
    : (() => {
        try {
          return git('describe', '--tags', '--abbrev=0', '--match', 'v*', 'HEAD^');
        } catch {
          console.error('No release tag (v*) before HEAD: name the previous release with --from <git ref>.');
          process.exit(2);
        }
      })();
const fromCommit = git('rev-parse', `${from}^{commit}`);
const log = (what: string) => console.log(`[drill +${((performance.now() - t0) / 1000).toFixed(1)}s] ${what}`);
const t0 = performance.now();

/** The previous release, installed and built in its own directory (kept between runs). */
function prepareOld(): string {
  const dir = path.join(ROOT, '.data', 'drill', fromCommit.slice(0, 12));
  if (!fs.existsSync(path.join(dir, '.next', 'BUILD_ID'))) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    log(`checking out ${from} (${fromCommit.slice(0, 12)}) into ${path.relative(ROOT, dir)}`);
    git('worktree', 'add', '--force', '--detach', dir, fromCommit);
    const run = (cmd: string, args: string[]) =>
      execFileSync(cmd, args, { cwd: dir, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
    log('installing the previous release');
    run('npm', ['ci', '--no-audit', '--no-fund']);
    log('building the previous release');
    run('npm', ['run', 'build']);
  }
  return dir;
}

type Server = ProductionServer & { name: string; serving: boolean };

function start(name: string, dir: string, port: number, databaseUrl: string): Server {
  const server = startProductionServer(
    port,
    {
      DATABASE_URL: databaseUrl,
      DELIVERY_ENGINE: 'embedded',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_PER_MINUTE: '1000000',
      // The demo account is seeded by the first start: no administrator from the environment.
      ADMIN_EMAIL: undefined,
      ADMIN_PASSWORD: undefined,
      DATA_DIR: undefined,
    },
    undefined,
    { cwd: dir },
  );
  return { ...server, name, serving: false };
}

/** Waits until `s` is ready (it builds first when its build is missing or stale), then puts it in the rotation. */
async function ready(s: Server, ms: number) {
  await waitForServer(s, ms, '/api/health/ready').catch((err) => {
    throw new Error(`${s.name}: ${(err as Error).message}`);
  });
  s.serving = true;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The demo VA's webhook (the service's port + 1, where the demo bot would listen). */
function startReceiver(port: number) {
  const got: { chat: string; id: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        got.push({ chat: body.chat_id, id: String(req.headers['webhook-id']) });
      } catch {}
      res.writeHead(200).end('ok');
    });
  });
  return new Promise<{ got: typeof got; close: () => void }>((resolve) =>
    server.listen(port, '127.0.0.1', () => resolve({ got, close: () => server.close() })),
  );
}

async function main() {
  const oldDir = prepareOld();

  const admin = postgres(serverUrl as string, { max: 1, onnotice: () => {} });
  const name = `va_drill_${process.pid}`;
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl as string);
  url.pathname = `/${name}`;
  const sql = postgres(url.toString(), { max: 2, onnotice: () => {} });
  const receiver = await startReceiver(PORT + 1);
  const servers: Server[] = [];
  const statuses = new Map<string, number>();
  const count = (s: Server, status: number) => statuses.set(`${s.name} ${status}`, (statuses.get(`${s.name} ${status}`) ?? 0) + 1);
  let failures: string[] = [];
  try {
    log(`starting the previous release (${from})`);
    const old = start(`old ${from}`, oldDir, PORT, url.toString());
    servers.push(old);
    await ready(old, 180_000);
    const key = old.out.map((l) => l.match(/Demo bot API key[^:]*:\s*(vak_\S+)/)?.[1]).find(Boolean);
    if (!key) throw new Error(`the previous release printed no demo API key:\n${old.out.join('\n')}`);
    const auth = await (
      await fetch(`${old.base}/api/v1/authorize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: key }),
      })
    ).json();
    const token: string = auth.response.access_token;
    const call = async (method: string, p: string, body?: unknown) => {
      const live = servers.filter((s) => s.serving);
      const s = live[Math.floor(Math.random() * live.length)];
      const res = await fetch(`${s.base}/api/v1${p}`, {
        method,
        headers: { access_token: token, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }).catch(() => null);
      const status = res?.status ?? 0;
      count(s, status);
      return { status, body: res ? await res.json().catch(() => null) : null };
    };
    const me = (await call('GET', '/me')).body.response;
    const page = (await call('GET', '/assets?channel=sms')).body.response as { assets: { id: number; channel: string }[] };
    const sms = page.assets[0];
    if (!sms) throw new Error(`the demo account has no sms asset: ${JSON.stringify(page)}`);

    let loading = true;
    const worker = async (w: number) => {
      let i = 0;
      while (loading) {
        const created = await call('POST', '/chats', {
          channel: sms.channel,
          asset_id: sms.id,
          customer: { destination_id: `+1555${String(w).padStart(3, '0')}${String(i++).padStart(4, '0')}`, name: 'Drill' },
          assignee: me.login_id,
        });
        if (created.status !== 201) continue;
        const chatId = created.body.response.chat_id;
        for (let m = 0; m < 5 && loading; m++) await call('POST', `/chats/${chatId}/messages`, { type: 'inbound', text: `drill ${m}` });
      }
    };
    log(`load: ${WORKERS} workers`);
    const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
    await sleep(PHASE_MS);
    log('starting the current release on the same database (it runs the new migrations)');
    const cur = start('current', ROOT, PORT + 2, url.toString());
    servers.push(cur);
    // It builds first when its build is missing or older than the sources, as `npm start` does.
    await ready(cur, 600_000);
    log('both serve');
    await sleep(PHASE_MS);
    log('the previous release leaves the rotation and gets SIGTERM');
    old.serving = false;
    old.child.kill('SIGTERM');
    await sleep(PHASE_MS);
    loading = false;
    await load;
    log('load stopped; waiting for every event to be delivered');
    const deadline = Date.now() + 120_000;
    let pending = -1;
    while (Date.now() < deadline) {
      [{ pending }] = await sql<{ pending: number }[]>`select count(*)::int as pending from events where status <> 'delivered'`;
      if (pending === 0) break;
      await sleep(500);
    }
    const rows = await sql<{ chat_id: string; transaction_id: string }[]>`select chat_id, transaction_id from events order by chat_id, seq`;
    const byChat = new Map<string, string[]>();
    for (const r of rows) byChat.set(r.chat_id, [...(byChat.get(r.chat_id) ?? []), r.transaction_id]);
    const received = new Set(receiver.got.map((g) => g.id));
    const lost = rows.filter((r) => !received.has(r.transaction_id)).length;
    let outOfOrder = 0;
    for (const [chat, ids] of byChat) {
      const seen = receiver.got
        .filter((g) => g.chat === chat)
        .map((g) => g.id)
        .filter((id, i, all) => all.indexOf(id) === i);
      if (seen.join() !== ids.join()) outOfOrder++;
    }
    const bad = [...statuses].filter(([k]) => /\s(5\d\d|0)$/.test(k) && !k.endsWith(' 503'));
    console.log('\nanswers by instance and status:');
    for (const [k, n] of [...statuses].sort()) console.log(`  ${k}: ${n}`);
    console.log(
      `chats: ${byChat.size}, events: ${rows.length}, not delivered: ${pending}, never received: ${lost}, chats out of order: ${outOfOrder}`,
    );
    failures = [
      ...(bad.length ? [`5xx or failed answers: ${bad.map(([k, n]) => `${k} x${n}`).join(', ')}`] : []),
      ...(pending ? [`${pending} events not delivered`] : []),
      ...(lost ? [`${lost} events never reached the webhook`] : []),
      ...(outOfOrder ? [`${outOfOrder} chats received their events out of order`] : []),
      ...(rows.length === 0 ? ['no events were written: the load did not run'] : []),
      ...(old.out.some((l) => /"level":"(error|fatal)"/.test(l)) ? ['the previous release logged errors'] : []),
      ...(cur.out.some((l) => /"level":"(error|fatal)"/.test(l)) ? ['the current release logged errors'] : []),
    ];
  } finally {
    // SIGKILL only after a full drain's time (SHUTDOWN_GRACE_MS, 10 s by default, then up to 10 s for the listener).
    await Promise.all(servers.map((s) => stopProductionServer(s, 30_000)));
    receiver.close();
    await sql.end();
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
  if (failures.length) {
    for (const s of servers)
      for (const l of s.out.filter((x) => /"level":"(error|fatal)"/.test(x)).slice(0, 5)) console.error(`${s.name}: ${l}`);
    console.error(`\nUPGRADE DRILL FAILED from ${from}:\n- ${failures.join('\n- ')}`);
    process.exit(1);
  }
  console.log(`\nupgrade drill from ${from} to the current code: passed`);
}

await main();
