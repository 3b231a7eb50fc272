import { randomBytes } from 'node:crypto';
import { NextRequest } from 'next/server';
import { adminApiHandler } from '@/app/api/admin/_routers';
import type { Db } from '@/db/client';
import { admins } from '@/db/schema';
import { createAccount } from '@/lib/accounts/create-account';
import { hashPassword } from '@/platform/auth/passwords';
import type { ApiReply } from './bot-api';

export type AdminReply = ApiReply & { setCookies: string[] };
export type AdminRequestOptions = { headers?: Record<string, string>; body?: unknown; raw?: string };

/**
 * An admin API client with a cookie jar, sending requests through the admin API's real handler
 * in process (as bot-api.ts does for the bot API). Paths are relative to /api/admin.
 */
export class AdminClient {
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
    const req = new NextRequest(`${this.origin}/api/admin${path}`, { method, headers, body });
    const res = await adminApiHandler(req);
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

  /** The cookies held, as a `cookie` request header. */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  get = (path: string, opts?: AdminRequestOptions) => this.request('GET', path, opts);
  post = (path: string, body?: unknown, opts?: AdminRequestOptions) => this.request('POST', path, { ...opts, body });
  patch = (path: string, body: unknown, opts?: AdminRequestOptions) => this.request('PATCH', path, { ...opts, body });
  put = (path: string, body: unknown, opts?: AdminRequestOptions) => this.request('PUT', path, { ...opts, body });
  delete = (path: string, opts?: AdminRequestOptions) => this.request('DELETE', path, opts);

  login(email: string, password: string): Promise<AdminReply> {
    return this.post('/login', { email, password });
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

export const ADMIN_PASSWORD = 'correct horse battery';

/** A new account with an administrator, and a client signed in as them. */
export async function signedInAdmin(db: Db, opts: { platform?: boolean } = {}) {
  const tag = randomBytes(4).toString('hex');
  const email = `admin-${tag}@example.test`;
  const { account } = await createAccount(db, {
    name: `Account ${tag}`,
    adminEmail: email,
    adminPassword: ADMIN_PASSWORD,
    isPlatformAdmin: opts.platform,
  });
  const client = new AdminClient();
  const reply = await client.login(email, ADMIN_PASSWORD);
  if (reply.status !== 200) throw new Error(`login failed: ${JSON.stringify(reply.body)}`);
  return { account, email, client, tag };
}

/** A further administrator of an existing account (e.g. a `createTenant` one), signed in. */
export async function signedInAdminOf(db: Db, accountId: number) {
  const email = `extra-${randomBytes(4).toString('hex')}@example.test`;
  await db.insert(admins).values({ accountId, email, passwordHash: await hashPassword(ADMIN_PASSWORD) });
  const client = new AdminClient();
  const reply = await client.login(email, ADMIN_PASSWORD);
  if (reply.status !== 200) throw new Error(`login failed: ${JSON.stringify(reply.body)}`);
  return { email, client };
}
