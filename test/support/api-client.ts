import http from 'node:http';
import { readSse, type SseFrame } from '../support/sse';
import { nowMs } from './clock';

/**
 * The one API client of the tests and benches, for all four surfaces. In process (the default) it
 * hands a NextRequest to the surface's real handler, the function Next.js calls; with `base` (an
 * origin such as `http://127.0.0.1:3000`) it goes over HTTP through node:http with a keep-alive
 * agent (cheaper per call than fetch, which matters when the load generator shares the machine).
 *
 * How each surface authenticates: the bot API with the `access_token` header (`token`), the widget
 * with `Authorization: Bearer` (`token`) from a client address (`address`, sent as X-Forwarded-For),
 * the console and the workspace with a session cookie this client keeps from `Set-Cookie`.
 */
export type Surface = 'bot' | 'admin' | 'agent' | 'widget';

const PREFIX: Record<Surface, string> = { bot: '/api/v1', admin: '/api/admin', agent: '/api/agent', widget: '/api/widget' };

export type ApiReply = {
  status: number;
  headers: Headers;
  /** The JSON body, or the text when it is not JSON. */
  body: any;
  raw: string;
  setCookies: string[];
  /** When the request started and when its whole answer had been read (`nowMs`). */
  start: number;
  at: number;
};

export type RequestOptions = {
  token?: string;
  headers?: Record<string, string>;
  /** JSON-encoded as the body. */
  body?: unknown;
  /** Sent as the body as is. */
  raw?: string;
  /** The widget's client address (X-Forwarded-For); unset, the client's own. */
  address?: string;
  signal?: AbortSignal;
};

type Handler = (req: import('next/server').NextRequest) => Promise<Response>;

export class ApiClient {
  readonly cookies = new Map<string, string>();
  readonly origin: string;
  readonly token?: string;
  readonly address?: string;
  private readonly base?: string;
  private readonly agent?: http.Agent;
  private readonly localAddress?: string;

  /**
   * Over HTTP, `localAddress` is the address this client's sockets come from (any of 127.0.0.0/8
   * on Linux), so that one load generator can be many customers to the server's per-address limits.
   */
  constructor(
    readonly surface: Surface,
    opts: { base?: string; origin?: string; token?: string; address?: string; agent?: http.Agent; localAddress?: string } = {},
  ) {
    this.base = opts.base;
    this.origin = opts.base ?? opts.origin ?? 'http://localhost';
    this.token = opts.token;
    this.address = opts.address ?? (surface === 'widget' && !opts.base ? '198.51.100.7' : undefined);
    this.localAddress = opts.localAddress;
    this.agent = opts.base
      ? (opts.agent ?? new http.Agent({ keepAlive: true, maxSockets: 256, localAddress: opts.localAddress }))
      : undefined;
  }

  /** Sends one request; `path` is relative to the surface's prefix (`/chats`, not `/api/v1/chats`). */
  async request(method: string, path: string, opts: RequestOptions = {}): Promise<ApiReply> {
    const start = nowMs();
    const { headers, body } = this.prepare(opts);
    const url = `${this.origin}${PREFIX[this.surface]}${path}`;
    if (this.base) return this.overHttp(method, url, headers, body, start);
    const { NextRequest } = await import('next/server');
    const res = await (await handlerOf(this.surface))(new NextRequest(url, { method, headers, body, signal: opts.signal }));
    if (isLiveStream(res.status, res.headers.get('content-type'))) {
      await res.body?.cancel();
      throw new LiveStreamAnswer(method, url);
    }
    const setCookies = res.headers.getSetCookie();
    for (const cookie of setCookies) this.store(cookie);
    const raw = await res.text();
    return { status: res.status, headers: res.headers, body: parseJson(raw), raw, setCookies, start, at: nowMs() };
  }

  get = (path: string, opts?: RequestOptions) => this.request('GET', path, opts);
  post = (path: string, body?: unknown, opts?: RequestOptions) => this.request('POST', path, { ...opts, body });
  patch = (path: string, body: unknown, opts?: RequestOptions) => this.request('PATCH', path, { ...opts, body });
  put = (path: string, body: unknown, opts?: RequestOptions) => this.request('PUT', path, { ...opts, body });
  delete = (path: string, opts?: RequestOptions) => this.request('DELETE', path, opts);

  /** The console's and the workspace's sign-in (their `/login`), keeping the session cookie. */
  login(email: string, password: string): Promise<ApiReply> {
    return this.post('/login', { email, password });
  }

  /**
   * Opens a Server-Sent Events route of the surface (`/events/stream`, `/chats/{id}/stream`,
   * `/stream`...) and reads it with the shared reader. A refusal (not 200) is answered as
   * `{status, reply}` for the caller's assertions instead.
   */
  async stream(path: string, opts: RequestOptions & { lastEventId?: string; onFrame?: (f: SseFrame) => void; keep?: boolean } = {}) {
    const abort = new AbortController();
    const extra: Record<string, string> = { accept: 'text/event-stream', ...opts.headers };
    if (opts.lastEventId) extra['last-event-id'] = opts.lastEventId;
    const { headers } = this.prepare({ ...opts, headers: extra });
    const url = `${this.origin}${PREFIX[this.surface]}${path}`;
    if (this.base) {
      const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const req = http.request(
          url,
          { headers: Object.fromEntries(headers), agent: false, localAddress: this.localAddress, signal: abort.signal },
          resolve,
        );
        req.on('error', reject);
        req.end();
      });
      if (res.statusCode !== 200) {
        const raw = await readBody(res);
        return { status: res.statusCode ?? 0, headers: toHeaders(res.headers), refusal: parseJson(raw) as any, sse: undefined };
      }
      return {
        status: 200,
        headers: toHeaders(res.headers),
        refusal: undefined,
        sse: readSse(res, { onFrame: opts.onFrame, keep: opts.keep, close: () => abort.abort() }),
      };
    }
    const { NextRequest } = await import('next/server');
    const req = new NextRequest(url, { headers, signal: abort.signal });
    const res = await (await handlerOf(this.surface))(req);
    if (res.status !== 200)
      return { status: res.status, headers: res.headers, refusal: parseJson(await res.text()) as any, sse: undefined };
    return {
      status: 200,
      headers: res.headers,
      refusal: undefined,
      sse: readSse(res.body as ReadableStream<Uint8Array>, {
        onFrame: opts.onFrame,
        keep: opts.keep,
        close: () => abort.abort(),
      }),
    };
  }

  /** The cookies held, as a `cookie` request header. */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private prepare(opts: RequestOptions): { headers: Headers; body?: string } {
    const headers = new Headers(opts.headers);
    const token = opts.token ?? this.token;
    if (token && this.surface === 'bot' && !headers.has('access_token')) headers.set('access_token', token);
    if (token && this.surface === 'widget' && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    const address = opts.address ?? this.address;
    if (address && !headers.has('x-forwarded-for')) headers.set('x-forwarded-for', address);
    if (this.cookies.size && !headers.has('cookie')) headers.set('cookie', this.cookieHeader());
    let body = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    }
    if (body !== undefined && !headers.has('content-length')) headers.set('content-length', String(Buffer.byteLength(body)));
    return { headers, body };
  }

  private async overHttp(method: string, url: string, headers: Headers, body: string | undefined, start: number): Promise<ApiReply> {
    const reply = await httpCall(url, { method, headers: Object.fromEntries(headers), body, agent: this.agent });
    for (const cookie of reply.setCookies) this.store(cookie);
    return { ...reply, start };
  }

  private store(setCookie: string) {
    const [pair, ...attrs] = setCookie.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const expired = attrs.some((a) => /^\s*max-age\s*=\s*0\s*$/i.test(a));
    if (!value || expired) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

/**
 * One call over node:http (`agent` keep-alive for a load generator): the answer read whole, parsed
 * when JSON, with the moments it started and ended. The client's HTTP transport; benches that
 * address every surface from one place call it with full paths.
 */
function httpCall(
  url: string,
  { method = 'GET', headers = {}, body, agent }: { method?: string; headers?: Record<string, string>; body?: string; agent?: http.Agent },
): Promise<ApiReply> {
  const start = nowMs();
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers }, (res) => {
      if (isLiveStream(res.statusCode ?? 0, res.headers['content-type'])) {
        req.destroy();
        reject(new LiveStreamAnswer(method, url));
        return;
      }
      readBody(res).then((raw) => {
        const setCookies = res.headers['set-cookie'] ?? [];
        resolve({
          status: res.statusCode ?? 0,
          headers: toHeaders(res.headers),
          body: parseJson(raw),
          raw,
          setCookies,
          start,
          at: nowMs(),
        });
      }, reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A 200 `text/event-stream` answer: it never ends by itself, so reading it whole would wait for good. */
function isLiveStream(status: number, contentType: string | null | undefined): boolean {
  return status === 200 && (contentType ?? '').startsWith('text/event-stream');
}

/**
 * Thrown at once when a one-shot call (`request`, `jsonCall`) is answered with a live stream: the
 * test meant `stream()` (bounded reads), or the server opened a stream the test did not expect.
 */
export class LiveStreamAnswer extends Error {
  constructor(method: string, url: string) {
    super(
      `${method} ${url} answered 200 text/event-stream: a live stream never ends, so request() does not wait for it; open it with stream()`,
    );
    this.name = 'LiveStreamAnswer';
  }
}

/** A JSON call with full path for benches: `body` JSON-encoded, `headers` added. */
export function jsonCall(agent: http.Agent, url: string, method: string, body?: unknown, headers: Record<string, string> = {}) {
  const data = body === undefined ? undefined : JSON.stringify(body);
  return httpCall(url, {
    method,
    agent,
    body: data,
    headers: {
      accept: 'application/json',
      ...(data && { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(data)) }),
      ...headers,
    },
  });
}

/** The session cookies an answer set, as a `cookie` request header. */
export const cookieOf = (reply: ApiReply) => reply.setCookies.map((c) => c.split(';')[0]).join('; ');

/** The whole body of a node:http request or answer, as UTF-8. */
export function readBody(stream: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let raw = '';
    stream.setEncoding('utf8');
    stream.on('data', (c: string) => {
      raw += c;
    });
    stream.on('end', () => resolve(raw));
    stream.on('error', reject);
  });
}

function toHeaders(incoming: http.IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [k, v] of Object.entries(incoming)) {
    for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) out.append(k, one);
  }
  return out;
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw; // not JSON: the text, for the assertion to show
  }
}

async function handlerOf(surface: Surface): Promise<Handler> {
  switch (surface) {
    case 'bot':
      return (await import('@/app/api/v1/_routers')).botApiHandler;
    case 'admin':
      return (await import('@/app/api/admin/_routers')).adminApiHandler;
    case 'agent':
      return (await import('@/app/api/agent/_routers')).agentApiHandler;
    case 'widget':
      return (await import('@/app/api/widget/_routers')).widgetApiHandler;
  }
}

/** One in-process bot API call (`token` in the `access_token` header). */
export const botApi = (method: string, path: string, opts?: RequestOptions) => new ApiClient('bot').request(method, path, opts);

/** One in-process widget API call (`token` as the Bearer credential, `address` the client's). */
export const widgetApi = (method: string, path: string, opts?: RequestOptions) => new ApiClient('widget').request(method, path, opts);
