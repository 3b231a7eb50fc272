/**
 * `npm run check:prism`: drives a running service through Stoplight Prism's validating proxy
 * (`prism proxy`), as a partner who trusts the OpenAPI documents would, and reports every
 * `sl-violations` header Prism adds.
 *
 * - Valid traffic: every operation of both documents with its documented example (every named
 *   example of `postMessage`), the example's IDs replaced by ones this run creates. Each must be
 *   answered 2xx with no violation.
 * - Invalid traffic: requests breaking a rule the service enforces. Each must be refused by the
 *   service (4xx) with no response violation, and the rule must be in the document: in a schema
 *   (Prism flags the request), or, where OpenAPI 3.0 cannot express it (map key lengths, unknown
 *   query parameters), in the document's text; rules about stored data (a name in use) only need
 *   their answer documented.
 *
 * Prism is not a dependency of the project. Set up (outside the repository):
 *   npm install --prefix /tmp/prism @stoplight/prism-cli@5.16.0
 *   curl -s $SERVICE/api/v1/openapi.json > /tmp/prism/bot.json; curl -s $SERVICE/api/admin/openapi.json > /tmp/prism/admin.json
 *   /tmp/prism/node_modules/.bin/prism proxy /tmp/prism/bot.json $SERVICE -p 4011 --errors=false
 *   /tmp/prism/node_modules/.bin/prism proxy /tmp/prism/admin.json $SERVICE -p 4012 --errors=false
 * and run against a fresh database whose first administrator is ADMIN_EMAIL / ADMIN_PASSWORD, with
 * WEBHOOK_ALLOW_PRIVATE=true (the run registers a bot at http://127.0.0.1:9/hook):
 *   PRISM_BOT=http://127.0.0.1:4011 PRISM_ADMIN=http://127.0.0.1:4012 SERVICE=http://127.0.0.1:3000 npm run check:prism
 * Exit status 1 when anything is reported.
 */
import { randomBytes } from 'node:crypto';

type Doc = { paths: Record<string, Record<string, Operation>> };
type Parameter = { name: string; in: string; example?: unknown };
type Operation = {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }> };
};
/** `schema`: the document's schemas say it, Prism must flag the request. `words`: OpenAPI 3.0 cannot say it; the document's text must (`phrase`). `state`: it depends on stored data; the answer must be documented. */
type Kind = { kind: 'schema' } | { kind: 'words'; phrase: string } | { kind: 'state' };
type Result = { label: string; status: number; code: unknown; violations: Violation[]; body: unknown };
type Violation = { location: string[]; severity: string; code: string | number; message: string };

const SERVICE = process.env.SERVICE ?? 'http://127.0.0.1:3000';
const PRISM_BOT = process.env.PRISM_BOT ?? 'http://127.0.0.1:4011';
const PRISM_ADMIN = process.env.PRISM_ADMIN ?? 'http://127.0.0.1:4012';
const ADMIN_EMAIL = process.env.ADMIN_EMAIL ?? 'ops@acme.example';
const ADMIN_PASSWORD = process.env.ADMIN_PASSWORD ?? 'correct-horse-battery-staple';
const HOOK = 'http://127.0.0.1:9/hook';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

let cookie = '';
let token = '';
const tag = randomBytes(3).toString('hex');

async function send(method: string, url: string, headers: Record<string, string> = {}, body?: unknown, label = `${method} ${url}`) {
  const admin = url.startsWith('/api/admin');
  const h: Record<string, string> = { ...headers };
  if (admin && cookie) h.cookie = cookie;
  if (!admin && token && !('access_token' in h)) h.access_token = token;
  if (body !== undefined) h['content-type'] = 'application/json';
  const res = await fetch(`${admin ? PRISM_ADMIN : PRISM_BOT}${url}`, {
    method,
    headers: h,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const set = res.headers.getSetCookie().find((c) => c.includes('='));
  if (set && admin) cookie = set.split(';')[0];
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  const raw = res.headers.get('sl-violations');
  const violations = raw ? (JSON.parse(raw) as Violation[]) : [];
  return { label, status: res.status, code: (parsed as { status_code?: unknown })?.status_code, violations, body: parsed } satisfies Result;
}

const ok = (r: Result) => {
  if (r.status >= 300) throw new Error(`${r.label}: ${r.status} ${JSON.stringify(r.body)}`);
  return (r.body as { response: any }).response;
};

async function main() {
  const bot = (await (await fetch(`${SERVICE}/api/v1/openapi.json`)).json()) as Doc;
  const adminDoc = (await (await fetch(`${SERVICE}/api/admin/openapi.json`)).json()) as Doc;
  const valid: Result[] = [];
  const invalid: { result: Result; rule: string; kind: Kind }[] = [];
  const docText = JSON.stringify([bot, adminDoc]);

  // Fixtures, created through the proxy too.
  valid.push(await send('POST', '/api/admin/login', {}, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, 'fixture: login'));
  const me = ok(await send('GET', '/api/admin/me'));
  const botTeam = ok(
    await send('POST', '/api/admin/teams', {}, { name: `Prism bots ${tag}`, auto_assign: false, skills: ['billing', 'sales'] }),
  );
  const humanTeam = ok(
    await send('POST', '/api/admin/teams', {}, { name: `Prism humans ${tag}`, auto_assign: false, skills: ['billing'] }),
  );
  const assets: Record<string, { id: number }> = {};
  for (const channel of ['sms', 'social1', 'social2', 'livechat', 'email', 'abc', 'messenger', 'api']) {
    assets[channel] = ok(await send('POST', '/api/admin/assets', {}, { channel, name: `Prism ${channel} ${tag}` }));
  }
  const va = ok(
    await send(
      'POST',
      '/api/admin/virtual-agents',
      {},
      {
        name: `Prism bot ${tag}`,
        description: 'Checks the document',
        webhook_url: HOOK,
        webhook_headers: {},
        subscriptions: ['chat.assigned', 'message.received', 'chat.closed', 'chat.unassigned'],
        team_id: botTeam.id,
        skills: ['billing'],
      },
    ),
  );
  token = ok(await send('POST', '/api/v1/authorize', {}, { api_key: va.api_key })).access_token;
  const humanBilling = humanTeam.skills.find((s: { name: string }) => s.name === 'billing').id;
  const agent = ok(
    await send(
      'POST',
      '/api/admin/users',
      {},
      { kind: 'agent', login_id: `prism-agent-${tag}`, name: `Prism agent ${tag}`, availability: 'available', team_ids: [humanTeam.id] },
    ),
  );
  const spare = ok(await send('POST', '/api/admin/teams', {}, { name: `Prism spare ${tag}`, auto_assign: false, skills: ['gone'] }));
  const rule = ok(await send('POST', '/api/admin/routing-rules', {}, { name: `Prism rule ${tag}`, conditions: [], team_id: botTeam.id }));
  const newChat = async (channel = 'livechat') =>
    ok(
      await send(
        'POST',
        '/api/v1/chats',
        {},
        {
          channel,
          asset_id: assets[channel].id,
          customer: { destination_id: `prism-${randomBytes(3).toString('hex')}`, name: 'Dana' },
          team_id: botTeam.id,
          assignee: va.login_id,
        },
      ),
    ).chat_id as string;
  // An event that can be redelivered: the bot's chat.assigned, superseded when it hands the chat over.
  const handed = await newChat('sms');
  ok(await send('PATCH', `/api/v1/internal/chats/${handed}`, {}, { transfer: { teamid: humanTeam.id } }));
  const handedView = ok(await send('GET', `/api/admin/chats/${handed}`));
  const eventId = handedView.events?.[0]?.id;

  const swap = (value: unknown): unknown => {
    if (typeof value === 'number')
      return ({ 672: botTeam.id, 673: humanTeam.id, 3101: assets.livechat.id, 21: humanBilling } as Record<number, number>)[value] ?? value;
    if (typeof value === 'string') {
      if (/^[0-9]+$/.test(value)) return String(swap(Number(value)));
      if (value === 'va-billing-bot') return va.login_id;
      if (value.startsWith('vak_')) return va.api_key;
      if (value === 'correct-horse-battery-staple') return ADMIN_PASSWORD;
      if (value.startsWith('https://bot.acme.example/')) return HOOK;
      return value;
    }
    if (Array.isArray(value)) return value.map(swap);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swap(v)]));
    return value;
  };
  const idsFor = (path: string): Record<string, string> => {
    if (path.includes('/teams/')) return { id: String(spare.id), skill_id: String(spare.skills[0].id) };
    if (path.includes('/users/')) return { id: String(agent.id) };
    if (path.includes('/virtual-agents/')) return { id: String(va.id) };
    if (path.includes('/routing-rules/')) return { id: String(rule.id) };
    if (path.includes('/events/')) return { id: String(eventId) };
    if (path.includes('/accounts/')) return { id: String(me.account.id) };
    if (path.includes('/assets/')) return { id: String(assets.sms.id) };
    return {};
  };

  // Valid traffic: every operation's example. These go last: they end the session, revoke the token, or stop transfers.
  const last = ['adminUpdateAccount', 'adminRotateApiKey', 'adminLogout'];
  const operations = [bot, adminDoc]
    .flatMap((doc) =>
      Object.entries(doc.paths).flatMap(([path, item]) =>
        METHODS.filter((m) => item[m]).map((m) => ({ method: m.toUpperCase(), path, op: item[m] })),
      ),
    )
    .sort((a, b) => last.indexOf(a.op.operationId ?? '') - last.indexOf(b.op.operationId ?? ''));
  const invalidFirst = async () => {
    const chat = await newChat();
    const h = { team_id: String(botTeam.id) };
    const S: Kind = { kind: 'schema' };
    const cases: [string, Kind, string, string, Record<string, string>, unknown?][] = [
      ['PATCH /chats needs at least one field', S, 'PATCH', `/api/v1/chats/${chat}`, h, {}],
      [
        'other_details keys of at most 100 characters',
        { kind: 'words', phrase: 'Keys: up to 100 characters' },
        'PATCH',
        `/api/v1/chats/${chat}`,
        h,
        { other_details: { ['k'.repeat(101)]: 'v' } },
      ],
      [
        'unknown query parameters are refused',
        { kind: 'words', phrase: 'Unknown query parameters are refused (2001)' },
        'GET',
        '/api/v1/chats?colour=blue',
        {},
      ],
      [
        'team_id header is decimal digits',
        S,
        'PATCH',
        `/api/v1/chats/${chat}`,
        { team_id: `0x${botTeam.id.toString(16)}` },
        { tags: ['a'] },
      ],
      ['chat_id of at most 100 characters', S, 'GET', `/api/v1/chats/${'c'.repeat(101)}`, {}],
      ['page_size is at most 100', S, 'GET', '/api/v1/chats?page_size=1000', {}],
      ['message needs a type', S, 'POST', `/api/v1/chats/${chat}/messages`, {}, { text: 'hi' }],
      [
        'at most 20 webhook_headers',
        S,
        'POST',
        '/api/admin/virtual-agents',
        {},
        {
          name: `Headers ${tag}`,
          description: 'd',
          webhook_url: HOOK,
          webhook_headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`x-h${i}`, 'v'])),
          subscriptions: ['chat.assigned'],
          team_id: botTeam.id,
        },
      ],
      ['names are trimmed before their minimum length', S, 'POST', '/api/admin/teams', {}, { name: '   ' }],
      ['a user login_id cannot change', S, 'PATCH', `/api/admin/users/${agent.id}`, {}, { login_id: 'other' }],
      ['a user kind cannot change', S, 'PATCH', `/api/admin/users/${agent.id}`, {}, { kind: 'manager' }],
      ['a VA name cannot change', S, 'PATCH', `/api/admin/virtual-agents/${va.id}`, {}, { name: 'Renamed' }],
      ['a VA description cannot change', S, 'PATCH', `/api/admin/virtual-agents/${va.id}`, {}, { description: 'Other' }],
      ['out-of-range team id', S, 'PATCH', '/api/admin/teams/99999999999', {}, { name: 'x' }],
      ['date-times are RFC 3339', S, 'GET', '/api/admin/audit-entries?since=2026-01-01', {}],
    ];
    for (const [rule, kind, method, url, headers, body] of cases) {
      invalid.push({ rule, kind, result: await send(method, url, headers, body, `${rule}: ${method} ${url}`) });
    }
    // RFC 3339 allows a lower-case t and z: both documents say `format: date-time`, so both spellings must work.
    valid.push(
      await send(
        'GET',
        '/api/admin/audit-entries?since=2026-01-01t00:00:00z',
        {},
        undefined,
        'adminListAuditEntries (lower-case date-time)',
      ),
    );
    valid.push(await send('GET', '/api/v1/chats?updated_since=2026-01-01t00:00:00z', {}, undefined, 'listChats (lower-case date-time)'));
    // A display name already used in the account: 409/3004 naming `name`.
    const dup = await send(
      'POST',
      '/api/admin/users',
      {},
      { kind: 'agent', login_id: `prism-other-${tag}`, name: `Prism agent ${tag}`, availability: 'available', team_ids: [humanTeam.id] },
      'POST /api/admin/users with a display name in use',
    );
    invalid.push({ rule: 'user display names are unique (409/3004)', kind: { kind: 'state' }, result: dup });
    const field = (dup.body as { response?: { errors?: { field: string }[] } }).response?.errors?.[0]?.field;
    if (field !== 'name')
      invalid.push({ rule: `the clash names the field 'name', not '${field}'`, kind: { kind: 'state' }, result: { ...dup, status: 200 } });
  };
  await invalidFirst();

  for (const { method, path, op } of operations) {
    const content = op.requestBody?.content['application/json'];
    const named = Object.keys(content?.examples ?? {});
    for (const name of named.length ? named : [undefined]) {
      const params = op.parameters ?? [];
      const ids = idsFor(path);
      const channel = name?.split('-')[0];
      const needsChat = params.some((p) => p.name === 'chat_id');
      const chatId = needsChat ? await newChat(channel && channel !== 'any' ? channel : 'livechat') : '';
      let url = path.replace(/\{(\w+)\}/g, (_, n: string) => (n === 'chat_id' ? chatId : ids[n]));
      const query = new URLSearchParams();
      const headers: Record<string, string> = {};
      for (const p of params) {
        if (p.example === undefined || p.in === 'path') continue;
        const value = String(swap(p.example));
        if (p.in === 'query') query.set(p.name, value);
        if (p.in === 'header') headers[p.name] = p.name === 'Idempotency-Key' ? `${value}-${tag}-${op.operationId}-${name ?? ''}` : value;
      }
      // The fixture's event is superseded (its VA handed the chat over), which asks for confirmation.
      if (op.operationId === 'adminRedeliverEvent') query.set('force', 'true');
      if (query.size) url += `?${query}`;
      const body = content ? swap(name ? content.examples?.[name]?.value : content.example) : undefined;
      if (op.operationId === 'adminCreateAccount' && body && typeof body === 'object') {
        (body as Record<string, unknown>).admin_email = `prism-${tag}@example.test`;
      }
      valid.push(await send(method, url, headers, body, `${op.operationId}${name ? ` (${name})` : ''}`));
    }
  }

  let problems = 0;
  console.log(`\nValid requests: ${valid.length}`);
  for (const r of valid) {
    const bad = r.status >= 300 || r.violations.length > 0;
    if (bad) problems++;
    if (bad || process.env.VERBOSE) {
      console.log(`${bad ? 'FAIL' : 'ok  '} ${r.label} -> ${r.status} ${r.code ?? ''}`);
      for (const v of r.violations) console.log(`       ${v.severity} ${v.location.join('.')}: ${v.message}`);
      if (r.status >= 300) console.log(`       ${JSON.stringify(r.body).slice(0, 300)}`);
    }
  }
  console.log(`\nInvalid requests: ${invalid.length}`);
  for (const { rule, kind, result: r } of invalid) {
    const flagged = r.violations.some((v) => v.location[0] === 'request');
    const refused = r.status >= 400 && r.status < 500;
    const stated = kind.kind === 'schema' ? flagged : kind.kind === 'words' ? docText.includes(kind.phrase) : true;
    const bad = !stated || !refused || r.violations.some((v) => v.location[0] === 'response');
    if (bad) problems++;
    const how =
      kind.kind === 'words' ? `; stated in words${stated ? '' : ' NOWHERE'}` : kind.kind === 'state' ? '; depends on stored data' : '';
    console.log(
      `${bad ? 'FAIL' : 'ok  '} ${rule}: service ${r.status} ${r.code ?? ''}; Prism ${flagged ? 'flags the request' : 'lets it pass'}${how}`,
    );
    for (const v of r.violations) console.log(`       ${v.severity} ${v.location.join('.')}: ${v.message}`);
    if (r.status >= 400) console.log(`       ${JSON.stringify((r.body as { description?: string })?.description ?? r.body).slice(0, 200)}`);
  }
  console.log(`\n${problems} problem(s)`);
  process.exit(problems ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
