/**
 * `npx tsx scripts/attack-run.ts` (after `npm run build`): the public surface attacked as an
 * outsider would, against production servers (`npm start` of the build) on a PostgreSQL cluster of
 * its own, and the findings printed as a table (and as JSON with `--json`). Re-runnable; nothing of
 * the machine's own PostgreSQL is touched.
 *
 * For each limiter store (`database`, the default with DATABASE_URL, and `memory`): two instances
 * on one database, small limits so a flood is quick, and each limit flooded well past its first
 * refusal from one address (the script is the trusted proxy: TRUSTED_PROXIES=1). A limit holds
 * when nothing passes after its first refusal and nothing answers 5xx. Widget streams are opened
 * on both instances and held, so their caps must hold over the two. Then (database store) the
 * cluster is stopped for 12 s under widget, console, workspace and pull traffic and started again:
 * every answer is tallied per surface and phase, a bad-credential answer (2070, 2080, 401) during
 * the outage is a finding, and afterwards the same customer credential must reach the same chat.
 */
import { chunkFor } from '@/platform/limits/local-allowance';
import { createPrivateCluster, freePort, privateClusterUnavailable } from '@/test/support/private-cluster';
import { type ProductionServer, startProductionServer, stopProductionServer, waitForServer } from '@/test/support/production-server';

const ADMIN = { email: 'attack-admin@example.test', password: 'attack-password-123' };
const AGENT_PASSWORD = 'quiet harbour lantern seventeen';
const PAST = 30;
const LIMITS = {
  RATE_LIMIT_PER_MINUTE: 200,
  ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: 10,
  WIDGET_REQUESTS_PER_MINUTE_PER_ADDRESS: 60,
  WIDGET_VISITORS_PER_HOUR_PER_ADDRESS: 8,
  WIDGET_MESSAGES_PER_MINUTE: 10,
  WIDGET_STREAMS_PER_CUSTOMER: 4,
  WIDGET_STREAMS_PER_CHAT: 3,
};

type Finding = {
  store: string;
  check: string;
  sent: number;
  passed: number;
  refused: number;
  passedAfterRefusal: number;
  errors5xx: number;
  codes: string;
  holds: boolean;
};
const findings: Finding[] = [];
const outage: Record<string, Record<string, number>> = {};
const notes: string[] = [];

let addressSeq = 0;
const newAddress = () => `198.51.${100 + Math.floor(++addressSeq / 250)}.${addressSeq % 250}`;

async function call(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; headers?: Record<string, string>; address?: string } = {},
) {
  const headers: Record<string, string> = { accept: 'application/json', origin: base, ...opts.headers };
  if (opts.address) headers['x-forwarded-for'] = opts.address;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const res = await fetch(`${base}${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
    const text = await res.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, code: json?.status_code as number | undefined, json, headers: res.headers };
  } catch {
    return { status: 0, code: undefined, json: null, headers: new Headers() };
  }
}

/** Sends `n` requests one after another and records whether anything passed after the first refusal. */
/**
 * `slack`: passes allowed after the first refusal. Only for a per-account limit flooded over two
 * instances on the database store: each instance reserves a fiftieth of the budget at a time
 * (platform/limits/local-allowance.ts), so one may spend what it holds after the other's first
 * refusal; the budget itself is never exceeded.
 */
async function flood(store: string, check: string, n: number, send: (i: number) => Promise<{ status: number; code?: number }>, slack = 0) {
  const codes = new Map<string, number>();
  let passed = 0;
  let refused = 0;
  let after = 0;
  let errors = 0;
  let seenRefusal = false;
  for (let i = 0; i < n; i++) {
    const r = await send(i);
    const key = `${r.status}${r.code ? `/${r.code}` : ''}`;
    codes.set(key, (codes.get(key) ?? 0) + 1);
    if (r.status >= 500 || r.status === 0) errors++;
    if (r.status === 429) {
      refused++;
      seenRefusal = true;
    } else if (r.status < 300) {
      passed++;
      if (seenRefusal) after++;
    }
  }
  const codeText = [...codes].map(([k, v]) => `${v}×${k}`).join(' ');
  findings.push({
    store,
    check,
    sent: n,
    passed,
    refused,
    passedAfterRefusal: after,
    errors5xx: errors,
    codes: codeText,
    holds: refused > 0 && after <= slack && errors === 0,
  });
}

async function login(base: string) {
  const res = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify(ADMIN),
  });
  if (res.status !== 200) throw new Error(`admin login: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** A tenant on the servers: a livechat asset routed to a team whose VA pulls its events, and a person. */
async function setUp(base: string, tag: string) {
  const cookie = await login(base);
  const admin = async (path: string, body: unknown, method = 'POST') => {
    const r = await call(base, method, `/api/admin${path}`, { body, headers: { cookie } });
    if (r.status >= 300) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json.response;
  };
  const team = await admin('/teams', { name: `Attack bots ${tag}`, auto_assign: true });
  const people = await admin('/teams', { name: `Attack people ${tag}`, auto_assign: false });
  const asset = await admin('/assets', { channel: 'livechat', name: `Attack shop ${tag}` });
  await admin('/routing-rules', {
    name: `Attack ${tag}`,
    position: 0,
    conditions: [{ field: 'asset_id', op: 'equals', value: String(asset.id) }],
    team_id: team.id,
  });
  const va = await admin('/virtual-agents', {
    name: `Attack Bot ${tag}`,
    description: 'pulls its events',
    webhook_url: 'http://127.0.0.1:9/webhook',
    subscriptions: ['chat.assigned', 'message.received'],
    team_id: team.id,
  });
  await admin(`/virtual-agents/${va.id}`, { delivery_mode: 'pull' }, 'PATCH');
  const user = await admin('/users', {
    kind: 'agent',
    login_id: `attack-${tag}`,
    name: `Attack Agent ${tag}`,
    email: `attack-${tag}@example.test`,
    availability: 'available',
    team_ids: [people.id],
  });
  const invite = await admin(`/users/${user.id}/invite`, {});
  const token = new URL(invite.invite_url).hash.slice(1);
  const accepted = await call(base, 'POST', '/api/agent/invite/accept', { body: { token, password: AGENT_PASSWORD } });
  const auth = await call(base, 'POST', '/api/v1/authorize', { body: { api_key: va.api_key } });
  return {
    cookie,
    assetId: asset.id as number,
    accessToken: auth.json.response.access_token as string,
    agentEmail: invite.email as string,
    agentCookie:
      accepted.headers
        .getSetCookie?.()
        .map((c) => c.split(';')[0])
        .join('; ') ?? '',
  };
}

async function floods(store: string, a: string, b: string, tenant: Awaited<ReturnType<typeof setUp>>) {
  // The memory store counts in each process: its limits are flooded on one instance. Stream caps
  // are counted in the database with either store, so streams alternate over both.
  const lb = store === 'memory' ? a : b;
  const widgetBudget = LIMITS.WIDGET_REQUESTS_PER_MINUTE_PER_ADDRESS;
  const one = newAddress();
  await flood(store, 'widget: requests per address', widgetBudget + PAST, () =>
    call(a, 'GET', `/api/widget/apps/${tenant.assetId}`, { address: one }),
  );
  const two = newAddress();
  await flood(store, 'widget: new customers per address', LIMITS.WIDGET_VISITORS_PER_HOUR_PER_ADDRESS + PAST, () =>
    call(a, 'POST', `/api/widget/apps/${tenant.assetId}/visitors`, { address: two }),
  );
  const visitor = await call(a, 'POST', `/api/widget/apps/${tenant.assetId}/visitors`, { address: newAddress() });
  const bearer = { authorization: `Bearer ${visitor.json.response.token}` };
  const chat = await call(a, 'POST', '/api/widget/chats', { headers: bearer, body: { text: 'first' }, address: newAddress() });
  const chatId = chat.json.response.chat_id as string;
  // Streams, held open, alternating instances, each from an address of its own.
  const held: AbortController[] = [];
  const openStream = async (i: number, id = chatId, auth = bearer) => {
    const abort = new AbortController();
    try {
      const res = await fetch(`${i % 2 ? a : b}/api/widget/chats/${id}/stream`, {
        headers: { ...auth, accept: 'text/event-stream', 'x-forwarded-for': newAddress() },
        signal: abort.signal,
      });
      if (res.status === 200) held.push(abort);
      else {
        const json = (await res.json().catch(() => null)) as { status_code?: number } | null;
        return { status: res.status, code: json?.status_code };
      }
      return { status: res.status };
    } catch {
      return { status: 0 };
    }
  };
  await flood(
    store,
    `widget: streams on one chat (cap ${LIMITS.WIDGET_STREAMS_PER_CHAT}, two instances)`,
    LIMITS.WIDGET_STREAMS_PER_CHAT + PAST,
    (i) => openStream(i),
  );
  // The customer's cap (4) over two chats: the first chat's streams stay open, it is closed, and
  // the customer's next chat may take only what is left of their cap (1).
  const teams = await call(a, 'GET', '/api/v1/teams', { headers: { access_token: tenant.accessToken } });
  const teamId = String(
    (teams.json?.response ?? []).find((x: { team_name: string }) => x.team_name.startsWith('Attack bots'))?.team_id ?? '',
  );
  const closed = await call(a, 'PATCH', `/api/v1/chats/${chatId}`, {
    headers: { access_token: tenant.accessToken, team_id: teamId },
    body: { status: 'closed' },
  });
  const next = await call(a, 'POST', '/api/widget/chats', { headers: bearer, body: { text: 'second' }, address: newAddress() });
  if (closed.status !== 200 || next.status !== 201) {
    notes.push(`${store}: the per-customer stream check was not run (close ${closed.status}, new chat ${next.status})`);
  } else {
    await flood(
      store,
      `widget: streams per customer over two chats (cap ${LIMITS.WIDGET_STREAMS_PER_CUSTOMER}, two instances)`,
      1 + PAST,
      (i) => openStream(i, next.json.response.chat_id),
    );
  }
  for (const h of held.splice(0)) h.abort();
  // Messages per customer, each from an address of its own: only the customer's budget counts.
  await flood(store, 'widget: messages per customer', LIMITS.WIDGET_MESSAGES_PER_MINUTE + PAST, (i) =>
    call(i % 2 ? a : lb, 'POST', `/api/widget/chats/${next.json?.response?.chat_id ?? chatId}/messages`, {
      headers: bearer,
      body: { text: `m${i}` },
      address: newAddress(),
    }),
  );
  const bot = await call(a, 'GET', '/api/v1/teams', { headers: { access_token: tenant.accessToken } });
  if (bot.status !== 200) notes.push(`bot API before the flood answered ${bot.status}`);
  const twoInstances = lb !== a;
  await flood(
    store,
    `bot API: requests per account${twoInstances ? ` (two instances, up to ${chunkFor(LIMITS.RATE_LIMIT_PER_MINUTE)} reserved by the other)` : ''}`,
    LIMITS.RATE_LIMIT_PER_MINUTE + PAST,
    (i) => call(i % 2 ? a : lb, 'GET', '/api/v1/teams', { headers: { access_token: tenant.accessToken }, address: newAddress() }),
    twoInstances ? chunkFor(LIMITS.RATE_LIMIT_PER_MINUTE) : 0,
  );
  const three = newAddress();
  await flood(store, 'console: sign-ins per address (wrong password)', LIMITS.ADMIN_LOGIN_ATTEMPTS_PER_MINUTE + PAST, () =>
    call(a, 'POST', '/api/admin/login', { body: { email: ADMIN.email, password: 'wrong-password-1' }, address: three }),
  );
  const four = newAddress();
  await flood(store, 'workspace: sign-ins per address (wrong password)', LIMITS.ADMIN_LOGIN_ATTEMPTS_PER_MINUTE + PAST, () =>
    call(a, 'POST', '/api/agent/login', { body: { email: tenant.agentEmail, password: 'wrong-password-1' }, address: four }),
  );
  const five = newAddress();
  await flood(store, 'workspace: invite acceptance per address (bad token)', LIMITS.ADMIN_LOGIN_ATTEMPTS_PER_MINUTE + PAST, (i) =>
    call(a, 'POST', '/api/agent/invite/accept', {
      body: { token: `forged-${i}-${'x'.repeat(40)}`, password: AGENT_PASSWORD },
      address: five,
    }),
  );
}

async function outageRun(
  a: string,
  b: string,
  tenant: Awaited<ReturnType<typeof setUp>>,
  cluster: ReturnType<typeof createPrivateCluster>,
) {
  const visitor = await call(a, 'POST', `/api/widget/apps/${tenant.assetId}/visitors`, { address: newAddress() });
  const bearer = { authorization: `Bearer ${visitor.json.response.token}` };
  const chatId = (
    await call(a, 'POST', '/api/widget/chats', { headers: bearer, body: { text: 'before the outage' }, address: newAddress() })
  ).json.response.chat_id as string;
  let phase = 'before';
  const tally = (surface: string, r: { status: number; code?: number }) => {
    const key = `${surface} ${phase}`;
    outage[key] ??= {};
    const k = `${r.status}${r.code ? `/${r.code}` : ''}`;
    outage[key][k] = (outage[key][k] ?? 0) + 1;
  };
  let running = true;
  const loops = [
    (async () => {
      for (let i = 0; running; i++) {
        const base = i % 2 ? a : b;
        tally('widget current chat', await call(base, 'GET', '/api/widget/chats/current', { headers: bearer, address: newAddress() }));
        // A message every fourth round: within the customer's budget (10 a minute) over the run.
        if (i % 4 === 0)
          tally(
            'widget message',
            await call(base, 'POST', `/api/widget/chats/${chatId}/messages`, {
              headers: bearer,
              body: { text: `o${i}` },
              address: newAddress(),
            }),
          );
        tally(
          'widget messages list',
          await call(base, 'GET', `/api/widget/chats/${chatId}/messages`, { headers: bearer, address: newAddress() }),
        );
        await new Promise((r) => setTimeout(r, 150));
      }
    })(),
    (async () => {
      for (let i = 0; running; i++) {
        tally('console chats list', await call(i % 2 ? a : b, 'GET', '/api/admin/chats', { headers: { cookie: tenant.cookie } }));
        tally('workspace lists', await call(i % 2 ? a : b, 'GET', '/api/agent/chats', { headers: { cookie: tenant.agentCookie } }));
        await new Promise((r) => setTimeout(r, 250));
      }
    })(),
    (async () => {
      for (let i = 0; running; i++) {
        tally('pull events', await call(i % 2 ? a : b, 'GET', '/api/v1/events', { headers: { access_token: tenant.accessToken } }));
        await new Promise((r) => setTimeout(r, 250));
      }
    })(),
  ];
  await new Promise((r) => setTimeout(r, 5_000));
  phase = 'during';
  await cluster.stopAsync();
  await new Promise((r) => setTimeout(r, 12_000));
  phase = 'after';
  await cluster.startAsync();
  await new Promise((r) => setTimeout(r, 8_000));
  running = false;
  await Promise.all(loops);
  const back = await call(a, 'GET', '/api/widget/chats/current', { headers: bearer, address: newAddress() });
  notes.push(
    `after the outage the same credential ${back.status === 200 && back.json.response.chat?.chat_id === chatId ? 'reaches its chat' : `answered ${back.status} ${JSON.stringify(back.json)}`}`,
  );
}

async function main() {
  const json = process.argv.includes('--json');
  const why = privateClusterUnavailable();
  if (why) throw new Error(`a private PostgreSQL cluster is needed (${why})`);
  const cluster = createPrivateCluster(await freePort());
  const servers: ProductionServer[] = [];
  try {
    for (const store of ['database', 'memory'] as const) {
      const db = `attack_${store}`;
      const admin = await import('postgres').then((m) => m.default(cluster.url, { max: 1, onnotice: () => {} }));
      await admin.unsafe(`CREATE DATABASE ${db}`);
      await admin.end();
      const url = cluster.url.replace(/\/postgres$/, `/${db}`);
      const env = {
        DATABASE_URL: url,
        RATE_LIMIT_STORE: store,
        TRUSTED_PROXIES: '1',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: 'error',
        ...Object.fromEntries(Object.entries(LIMITS).map(([k, v]) => [k, String(v)])),
      };
      const [pa, pb] = [await freePort(), await freePort()];
      const sa = startProductionServer(pa, env, undefined, { keepOutput: true });
      servers.push(sa);
      await waitForServer(sa, 600_000, '/api/health/ready');
      const sb = startProductionServer(pb, env, undefined, { keepOutput: true });
      servers.push(sb);
      await waitForServer(sb, 120_000, '/api/health/ready');
      const tenant = await setUp(sa.base, store);
      // The outage first: the floods leave the account's and the customers' budgets spent.
      if (store === 'database') await outageRun(sa.base, sb.base, tenant, cluster);
      await floods(store, sa.base, sb.base, tenant);
      await Promise.all([stopProductionServer(sa), stopProductionServer(sb)]);
      const errors = [...sa.out, ...sb.out].filter((l) => /"level":(50|60)|unhandled|URIError/i.test(l));
      notes.push(
        `${store} store: ${errors.length} error lines in the servers' logs${errors.length ? `: ${errors.slice(0, 3).join(' | ')}` : ''}`,
      );
    }
  } finally {
    await Promise.all(servers.map((s) => stopProductionServer(s)));
    cluster.remove();
  }
  if (json) {
    console.log(JSON.stringify({ limits: LIMITS, findings, outage, notes }, null, 2));
  } else {
    console.log(`limits: ${JSON.stringify(LIMITS)}\n`);
    console.log('| store | check | sent | passed | refused | passed after refusal | 5xx | answers | holds |');
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const f of findings)
      console.log(
        `| ${f.store} | ${f.check} | ${f.sent} | ${f.passed} | ${f.refused} | ${f.passedAfterRefusal} | ${f.errors5xx} | ${f.codes} | ${f.holds ? 'yes' : 'NO'} |`,
      );
    console.log('\nPostgreSQL stopped for 12 s under traffic (two instances), answers per surface and phase:');
    for (const [k, v] of Object.entries(outage))
      console.log(
        `  ${k}: ${Object.entries(v)
          .map(([c, n]) => `${n}×${c}`)
          .join(' ')}`,
      );
    console.log(`\n${notes.join('\n')}`);
  }
  const badOutage = Object.entries(outage).some(([, v]) => Object.keys(v).some((c) => /^(401|500)/.test(c)));
  process.exitCode = findings.every((f) => f.holds) && !badOutage ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
