import type { ClientInferRequest, ClientInferResponses } from '@ts-rest/core';
import { refusal } from '@/components/shared/errors';
import type { widgetContract } from '@/contracts/widget';

/**
 * The widget's API client: a thin fetch typed by contracts/widget. Only types come from the
 * contract (its zod schemas would weigh more than the whole page script); each route's method and
 * path are written once below and the compiler holds them to the contract's.
 */
type Contract = typeof widgetContract;
type RouteName = keyof Contract;

const ROUTES = {
  getApp: { method: 'GET', path: '/api/widget/apps/:app_id' },
  createVisitor: { method: 'POST', path: '/api/widget/apps/:app_id/visitors' },
  currentChat: { method: 'GET', path: '/api/widget/chats/current' },
  startChat: { method: 'POST', path: '/api/widget/chats' },
  getChat: { method: 'GET', path: '/api/widget/chats/:chat_id' },
  listMessages: { method: 'GET', path: '/api/widget/chats/:chat_id/messages' },
  sendMessage: { method: 'POST', path: '/api/widget/chats/:chat_id/messages' },
  setTyping: { method: 'POST', path: '/api/widget/chats/:chat_id/typing' },
  requestPerson: { method: 'POST', path: '/api/widget/chats/:chat_id/person-request' },
  streamChat: { method: 'GET', path: '/api/widget/chats/:chat_id/stream' },
} as const satisfies { [K in RouteName]: Contract[K] extends { method: infer M; path: infer P } ? { method: M; path: P } : never };

/** The routes answering JSON (the stream is read by stream.ts). */
export type JsonRoute = Exclude<RouteName, 'streamChat'>;
type Request<K extends JsonRoute> = Pick<
  ClientInferRequest<Contract[K]>,
  Extract<keyof ClientInferRequest<Contract[K]>, 'params' | 'query' | 'body'>
>;
/** What a route's success envelope carries in `response`. */
export type Answer<K extends JsonRoute> =
  Extract<ClientInferResponses<Contract[K]>, { status: 200 | 201 }> extends { body: { response: infer R } } ? R : never;

/** An answer other than success, in the contract's envelope (`status_code` from the code catalogue). */
export class ApiFailure extends Error {
  readonly status: number;
  readonly code: number | null;
  constructor(status: number, body: unknown) {
    const read = refusal(status, body);
    super(read.description);
    this.status = status;
    this.code = read.code;
  }
}

/** A route's path with its parameters filled in, and its query. */
export function routeUrl(name: RouteName, params: Record<string, string | number> = {}, query: Record<string, unknown> = {}): string {
  const path = ROUTES[name].path.replace(/:([a-z_]+)/g, (_, key: string) => encodeURIComponent(String(params[key])));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/** One call: the credential (if any) as a Bearer header, no cookies, no cache. */
export async function request<K extends JsonRoute>(
  name: K,
  args: Request<K>,
  token: string | undefined,
): Promise<{ ok: true; value: Answer<K> } | { ok: false; failure: ApiFailure }> {
  const { params, query, body } = args as { params?: Record<string, string | number>; query?: Record<string, unknown>; body?: unknown };
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(routeUrl(name, params, query), {
    method: ROUTES[name].method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'omit',
    cache: 'no-store',
  });
  const json = await res.json().catch(() => null);
  if (res.ok) return { ok: true, value: json.response };
  return { ok: false, failure: new ApiFailure(res.status, json) };
}
