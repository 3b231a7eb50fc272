import { buildOpenApiDocument } from '@/platform/openapi/build-document';
import { HTTP_METHODS, type OperationObject, type ParameterObject } from '@/platform/openapi/types';

/**
 * Random bad and odd input against a running server, driven by the OpenAPI documents. Every answer
 * must be a JSON envelope ({status_code, description, response}) with a status below 500.
 *
 * It signs in as the given administrator, registers a VA of its own, creates a chat, and then sends
 * `requests` requests spread over every operation: bodies made from each operation's example with
 * leaves replaced, removed or added (odd text, huge numbers, wrong types, deep nesting), odd query
 * values and path segments, odd headers, unknown methods and broken percent-encoding. A 308 (a
 * trailing slash redirected to the canonical path) counts as an answer. Behind Prism's validating
 * proxy (with `mild`), it also reports every answer Prism finds breaking the OpenAPI document (its
 * `sl-violations` header). `seed` makes a run repeatable. Point it at a server started with high
 * limits (RATE_LIMIT_PER_MINUTE, ADMIN_RATE_LIMIT_PER_MINUTE) or most answers will be 2012.
 * Two callers: test/ops/fuzz-server.integration.test.ts (the production build, in the test run)
 * and `npm run fuzz:server` (any server, Prism in front or not).
 */
export type FuzzOptions = { base: string; email: string; password: string; requests?: number; seed?: number; mild?: boolean };
export type FuzzResult = { seed: number; requests: number; statuses: Map<number, number>; failures: string[]; documentBreaks: string[] };

const ODD_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '\u202e\u200b',
  '😀'.repeat(300),
  'x'.repeat(70_000),
  '%00',
  '../../etc/passwd',
  "'; DROP TABLE chats; --",
  '<script>alert(1)</script>',
  'javascript:alert(1)',
  'data:text/html,hi',
  'http://[::127.0.0.1]/',
  '2026-13-45T99:99:99Z',
  '1970-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999999Z',
  'NaN',
  '-0',
  '1e999',
  '\r\nx-injected: 1',
];
const ODD_NUMBERS = [0, -1, 1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 2 ** 64, 1e308, -1e308, Number.MIN_VALUE];
const ODD_VALUES: unknown[] = [null, true, false, [], {}, [[[[[]]]]], { a: { b: { c: {} } } }, ...ODD_NUMBERS, ...ODD_TEXT];
type Op = { method: string; path: string; op: OperationObject; admin: boolean };

/** Longest a request may take before it counts as a hanging answer (a failure, not a wait forever). */
const CALL_TIMEOUT_MS = 20_000;

export async function fuzzServer(options: FuzzOptions): Promise<FuzzResult> {
  const base = options.base.replace(/\/$/, '');
  const total = options.requests ?? 4000;
  let seed = options.seed ?? Date.now() % 2 ** 31;
  const firstSeed = seed;
  /** Leaves out 5,000-deep JSON and 5,000-item arrays, which some proxies cannot parse. */
  const MILD = options.mild ?? false;
  const { email, password } = options;
  /** mulberry32: small, fast, repeatable. */
  function random(): number {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const oddValue = () => pick(ODD_VALUES);
  const oddSegment = () =>
    pick(['0', '-1', '2147483648', '1e3', 'abc', '%ZZ', '%00', '..', '%2e%2e', 'x'.repeat(300), '%ED%A0%80', '%F0%9F', '']);

  function mutate(value: unknown, budget = 3): unknown {
    if (budget <= 0 || random() < 0.2) return random() < 0.5 ? oddValue() : value;
    if (Array.isArray(value)) {
      const copy = value.map((v) => (random() < 0.5 ? mutate(v, budget - 1) : v));
      if (random() < 0.2) copy.push(oddValue());
      if (random() < 0.05 && !MILD) return Array.from({ length: 5000 }, () => copy[0] ?? 1);
      return copy;
    }
    if (value && typeof value === 'object') {
      const copy: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const r = random();
        if (r < 0.1) continue; // dropped
        copy[k] = r < 0.5 ? mutate(v, budget - 1) : v;
      }
      if (random() < 0.15) copy[pick(['zz', '__proto__', 'constructor', 'a\u0000', ''])] = oddValue();
      return copy;
    }
    return oddValue();
  }
  async function call(method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) {
    let res: Response;
    try {
      res = await fetch(base + path, {
        method,
        headers: init.headers,
        body: init.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
    } catch (err) {
      return { status: 0, text: `no answer within ${CALL_TIMEOUT_MS} ms (${(err as Error).name})`, headers: new Headers(), stream: false };
    }
    // A live stream accepted (200, text/event-stream) never ends by itself: its opening is the answer.
    if (res.ok && res.headers.get('content-type')?.startsWith('text/event-stream')) {
      await res.body?.cancel();
      return { status: res.status, text: '', headers: res.headers, stream: true };
    }
    const text = await res.text().catch((err: Error) => `the answer's body did not arrive whole (${err.name})`);
    return { status: res.status, text, headers: res.headers, stream: false };
  }

  const login = await call('POST', '/api/admin/login', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${login.text}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  // No Origin: a client that is not a browser sends none, and a proxy in front would not match it.
  const adminHeaders: Record<string, string> = { cookie };
  const adminJson = async (method: string, path: string, body?: unknown) => {
    const r = await call(method, path, {
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
    return JSON.parse(r.text).response;
  };
  const stamp = Date.now().toString(36);
  const team = await adminJson('POST', '/api/admin/teams', { name: `Fuzz ${stamp}`, auto_assign: false, skills: ['fuzz'] });
  const asset = await adminJson('POST', '/api/admin/assets', { channel: 'api', name: `Fuzz ${stamp}`, address: `fuzz-${stamp}` });
  const va = await adminJson('POST', '/api/admin/virtual-agents', {
    name: `Fuzz ${stamp}`,
    description: 'Receives random input',
    team_id: team.id,
    webhook_url: 'http://127.0.0.1:9/fuzz',
  });
  if (!team?.id || !asset?.id || !va?.login_id) throw new Error('could not set up a team, an asset and a VA');
  const auth = await call('POST', '/api/v1/authorize', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: va.api_key ?? va.credentials?.api_key }),
  });
  const token = JSON.parse(auth.text).response?.access_token as string;
  if (!token) throw new Error(`authorize failed: ${auth.text}`);
  const created = await call('POST', '/api/v1/chats', {
    headers: { access_token: token, team_id: String(team.id), 'content-type': 'application/json' },
    body: JSON.stringify({
      channel: 'api',
      asset_id: asset.id,
      customer: { name: 'Fuzz', destination_id: 'fuzz-1' },
      assignee: va.login_id,
    }),
  });
  const chatId = JSON.parse(created.text).response?.chat_id;
  if (!chatId) throw new Error(`could not create a chat: ${created.text}`);
  const real: Record<string, string> = { chat_id: chatId, id: String(va.id ?? 1), skill_id: '1' };

  const ops = operations();
  const failures: string[] = [];
  const documentBreaks: string[] = [];
  const statuses = new Map<number, number>();
  for (let i = 0; i < total; i++) {
    const o = pick(ops);
    const headers: Record<string, string> = o.admin ? { ...adminHeaders } : { access_token: token, team_id: String(team.id) };
    let path = o.path.replace(/\{(\w+)\}/g, (_, name: string) => (random() < 0.3 ? oddSegment() : (real[name] ?? '1')));
    const params = (o.op.parameters ?? []).filter((p): p is ParameterObject => 'in' in p);
    const query = params
      .filter((p) => p.in === 'query' && random() < 0.4)
      .map((p) => `${p.name}=${random() < 0.5 ? encodeURIComponent(Buffer.from(String(oddValue())).toString()) : oddSegment()}`);
    if (random() < 0.1) query.push(`${pick(['zz', 'limit', 'cursor', 'q'])}=${oddSegment()}`);
    if (query.length) path += `?${query.join('&')}`;
    for (const p of params.filter((p) => p.in === 'header')) headers[p.name] = random() < 0.5 ? String(oddValue()).slice(0, 200) : '1';
    const example = o.op.requestBody?.content['application/json']?.example;
    let body: string | undefined;
    let method = o.method;
    const r = random();
    if (r < 0.03) method = pick(['PROPFIND', 'OPTIONS', 'HEAD', 'PUT']); // fetch itself refuses TRACE and CONNECT
    if (example !== undefined || o.op.requestBody) {
      if (r < 0.05) body = '{"a":';
      else if (r < 0.08 && !MILD) body = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
      else if (r < 0.1) body = '\u0000';
      else body = JSON.stringify(mutate(example ?? {}));
      headers['content-type'] =
        random() < 0.05 ? pick(['text/plain', 'application/json; charset=latin1', 'multipart/form-data']) : 'application/json';
    }
    if (body !== undefined && body.length > 2_000_000) body = body.slice(0, 2_000_000);
    const safeHeaders = Object.fromEntries(Object.entries(headers).filter(([, v]) => /^[\t\x20-\x7e]*$/.test(v)));
    let reply: Awaited<ReturnType<typeof call>>;
    try {
      reply = await call(method, path, { headers: safeHeaders, body: method === 'HEAD' ? undefined : body });
    } catch (error) {
      failures.push(`${method} ${path}: request failed: ${(error as Error).message}`);
      continue;
    }
    statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
    // Behind Prism's validating proxy (`prism proxy <document> <server>`), each answer says how the
    // exchange breaks the document; the request side is what this script sets out to break.
    const violations = reply.headers.get('sl-violations');
    if (violations) {
      for (const v of JSON.parse(violations) as { location?: string[]; message?: string; severity?: string }[]) {
        if (v.location?.[0] === 'response' && v.severity === 'Error')
          documentBreaks.push(`${method} ${path.slice(0, 120)} → ${reply.status}: ${v.location.join('.')} ${v.message}`);
      }
    }
    // A path with a trailing slash (or one that `..` resolved to) is redirected to its canonical form.
    let envelope = method === 'HEAD' || reply.status === 204 || reply.status === 308 || reply.stream;
    // A JSON Lines answer (the replay export and results) is a success without an envelope: every line must be JSON.
    if (!envelope && reply.status === 200 && reply.headers.get('content-type')?.startsWith('application/x-ndjson')) {
      envelope = reply.text
        .split('\n')
        .filter((line) => line !== '')
        .every((line) => {
          try {
            JSON.parse(line);
            return true;
          } catch {
            return false;
          }
        });
    }
    if (!envelope) {
      try {
        const parsed = JSON.parse(reply.text);
        envelope = Number.isInteger(parsed.status_code) && typeof parsed.description === 'string' && 'response' in parsed;
      } catch {
        envelope = false;
      }
    }
    if (reply.status >= 500 || reply.status === 0 || !envelope)
      failures.push(`${method} ${path.slice(0, 160)} → ${reply.status} ${reply.text.slice(0, 200)} (body ${String(body).slice(0, 120)})`);
  }
  return { seed: firstSeed, requests: total, statuses, failures, documentBreaks: [...new Set(documentBreaks)] };
}

function operations(): Op[] {
  const out: Op[] = [];
  for (const [path, item] of Object.entries(buildOpenApiDocument().paths))
    for (const m of HTTP_METHODS) {
      const op = item[m] as OperationObject | undefined;
      if (op && op.operationId !== 'adminLogout') out.push({ method: m.toUpperCase(), path, op, admin: path.startsWith('/api/admin') });
    }
  return out;
}
