import { NextRequest } from 'next/server';
import { agentApiHandler } from '@/app/api/agent/_routers';
import { GET as streamRoute } from '@/app/api/agent/stream/route';
import type { Db } from '@/db/client';
import { createUser } from '@/lib/users/create-user';
import type { AdminClient, AdminReply, AdminRequestOptions } from './admin-api';

export const AGENT_PASSWORD = 'plum orbit lantern quietly';

/**
 * An agent workspace client with a cookie jar, sending requests through the workspace API's real
 * handler in process (as admin-api.ts does). Paths are relative to /api/agent.
 */
export class AgentClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly origin = 'http://localhost') {}

  async request(method: string, path: string, opts: AdminRequestOptions = {}): Promise<AdminReply> {
    const headers = new Headers(opts.headers);
    if (this.cookies.size && !headers.has('cookie')) headers.set('cookie', this.cookieHeader());
    let body: string | undefined = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    }
    if (body !== undefined && !headers.has('content-length')) headers.set('content-length', String(Buffer.byteLength(body)));
    const res = await agentApiHandler(new NextRequest(`${this.origin}/api/agent${path}`, { method, headers, body }));
    const setCookies = res.headers.getSetCookie();
    for (const cookie of setCookies) this.store(cookie);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: leave the text for the assertion to show
    }
    return { status: res.status, headers: res.headers, body: parsed, setCookies };
  }

  /** GET /api/agent/stream through its real route; the caller reads and cancels the body. */
  async stream(chatId?: string, signal?: AbortSignal): Promise<Response> {
    const url = `${this.origin}/api/agent/stream${chatId ? `?chat=${encodeURIComponent(chatId)}` : ''}`;
    return streamRoute(new NextRequest(url, { headers: { cookie: this.cookieHeader() }, signal }));
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  get = (path: string, opts?: AdminRequestOptions) => this.request('GET', path, opts);
  post = (path: string, body?: unknown, opts?: AdminRequestOptions) => this.request('POST', path, { ...opts, body });
  patch = (path: string, body: unknown, opts?: AdminRequestOptions) => this.request('PATCH', path, { ...opts, body });
  put = (path: string, body: unknown, opts?: AdminRequestOptions) => this.request('PUT', path, { ...opts, body });

  login(email: string, password = AGENT_PASSWORD): Promise<AdminReply> {
    return this.post('/login', { email, password });
  }

  private store(setCookie: string) {
    const [pair, ...attrs] = setCookie.split(';');
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    const expired = attrs.some((a) => /^\s*max-age\s*=\s*0\s*$/i.test(a));
    if (!value || expired) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

/** Invites the user through the admin API and accepts the invite; answers a signed-in client and the email. */
export async function signedInAgent(admin: AdminClient, userId: number, email: string) {
  const invite = await admin.post(`/users/${userId}/invite`, { email });
  if (invite.status !== 201) throw new Error(`invite failed: ${JSON.stringify(invite.body)}`);
  const token = new URL(invite.body.response.invite_url).hash.slice(1);
  const client = new AgentClient();
  const accepted = await client.post('/invite/accept', { token, password: AGENT_PASSWORD });
  if (accepted.status !== 200) throw new Error(`accept failed: ${JSON.stringify(accepted.body)}`);
  return client;
}

/** A further person of the account, in `teamIds`, signed in to the workspace. */
export async function newSignedInAgent(
  db: Db,
  admin: AdminClient,
  { accountId, teamIds, tag, capacity = 3 }: { accountId: number; teamIds: number[]; tag: string; capacity?: number },
) {
  const user = await createUser(db, {
    accountId,
    kind: 'agent',
    loginId: `person-${tag}`,
    name: `Person ${tag}`,
    teamIds,
    capacity,
    availability: 'unavailable',
  });
  const email = `person-${tag}@example.test`;
  return { user, email, client: await signedInAgent(admin, user.id, email) };
}
