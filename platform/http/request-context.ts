import { AsyncLocalStorage } from 'node:async_hooks';
import type { AdminAuth } from '@/lib/admin-auth/types';
import type { AgentAuth } from '@/lib/agent-auth/types';
import type { BotAuth } from '@/lib/bot-auth/types';
import type { WidgetVisitorAuth } from '@/lib/widget/types';
import { setLogContext } from '@/platform/util/logger';

// The identities are defined by the auth layers; this module only carries them. Routes read the
// caller from ts-rest's typed request (platform/http/create-api-handler.ts puts it there), not from here.
export type { AdminAuth, AgentAuth, BotAuth, WidgetVisitorAuth };

export type RequestContext = {
  trxid: string;
  bot?: BotAuth;
  admin?: AdminAuth;
  /** A person signed in to the agent workspace (lib/agent-auth). */
  agent?: AgentAuth;
  /** A chat widget customer (lib/widget). */
  widget?: WidgetVisitorAuth;
  /** The TCP peer's address, when the server adapter knows it (Next's request does not carry it). */
  socketAddress?: string;
  /** The client's address as the guard resolved it (platform/auth/client-address.ts). */
  clientAddress?: string;
  rateLimit?: { limit: number; remaining: number; resetSeconds: number };
  setCookies?: string[];
  /** Runs once the answer is built (the admin guard records the audit entry here). Must not throw. */
  afterResponse?: (answer: { status: number }) => Promise<void>;
};

// The outer handler runs each request inside this store, so handlers and the error mapping read
// what the guard established without threading it through ts-rest.
const storage = new AsyncLocalStorage<RequestContext>();
// Log lines written while a request is served carry its trxid.
setLogContext(() => storage.getStore()?.trxid);

export function runWithContext<T>(ctx: RequestContext, fn: () => Promise<T>): Promise<T> {
  return storage.run(ctx, fn);
}

export function currentContext(): RequestContext {
  const ctx = storage.getStore();
  if (!ctx) throw new Error('no request context');
  return ctx;
}

export function currentTrxid(): string {
  return storage.getStore()?.trxid ?? 'none';
}
