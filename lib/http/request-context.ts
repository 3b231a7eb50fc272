import { AsyncLocalStorage } from 'node:async_hooks';
import type { AdminAuth } from '@/lib/admin-auth/types';
import type { AgentAuth } from '@/lib/agent-auth/types';
import type { BotAuth } from '@/lib/bot-auth/types';
import { setLogContext } from '@/lib/util/logger';
import type { WidgetVisitorAuth } from '@/lib/widget/types';

// The identities are defined by the auth layers; this module only carries them.
export type { AdminAuth, AgentAuth, BotAuth };

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
  /** The client's address as the guard resolved it (lib/auth/client-address.ts). */
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

export function botAuth(): BotAuth {
  const auth = currentContext().bot;
  if (!auth) throw new Error('bot route reached without authentication');
  return auth;
}

export function widgetAuth(): WidgetVisitorAuth {
  const auth = currentContext().widget;
  if (!auth) throw new Error('widget route reached without a customer credential');
  return auth;
}

export function adminAuth(): AdminAuth {
  const auth = currentContext().admin;
  if (!auth) throw new Error('admin route reached without a session');
  return auth;
}

export function agentAuth(): AgentAuth {
  const auth = currentContext().agent;
  if (!auth) throw new Error('agent route reached without a session');
  return auth;
}
