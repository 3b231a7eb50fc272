'use client';

import { type ApiFetcherArgs, isAppRouteOtherResponse, tsRestFetchApi } from '@ts-rest/core';
import { initTsrReactQuery } from '@ts-rest/react-query/v5';
import { adminContract } from '@/contracts/admin';

/**
 * The typed admin API client for the pages: react-query hooks generated from the contract.
 * Same-origin requests carry the session cookie; the API refuses cross-site ones.
 */
export const tsr = initTsrReactQuery(adminContract, {
  baseUrl: '',
  baseHeaders: {},
  credentials: 'same-origin',
  // A body-less DELETE from a browser carries no Content-Length, which the API's size and type
  // check reads as a body without a Content-Type (2009); an empty body makes it send `0`.
  api: (args: ApiFetcherArgs) =>
    isJsonLines(args) ? fetchJsonLines(args) : tsRestFetchApi(args.method === 'DELETE' && args.body == null ? { ...args, body: '' } : args),
});

/** A route whose success is JSON Lines (a recording export, a run's results): ts-rest would parse it as one JSON value. */
function isJsonLines(args: ApiFetcherArgs): boolean {
  const ok = args.route.responses[200];
  return isAppRouteOtherResponse(ok) && ok.contentType === 'application/x-ndjson';
}

/** Its success comes back as the text of its lines (the typed body says stream: read it as a string); a refusal as its envelope. */
async function fetchJsonLines(args: ApiFetcherArgs) {
  const res = await fetch(args.path, { method: args.method, headers: args.headers, credentials: 'same-origin' });
  const text = await res.text();
  if (res.ok) return { status: res.status, body: text, headers: res.headers };
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body, headers: res.headers };
}

/** Query keys shared by pages that read or invalidate the same data. */
export const keys = {
  me: ['me'],
  teams: ['teams'],
  skills: ['skills'],
  users: (kind?: string) => (kind ? ['users', kind] : ['users']),
  virtualAgents: ['virtual-agents'],
  virtualAgent: (id: number) => ['virtual-agents', id],
  vaHealth: ['va-health'],
  assets: ['assets'],
  routingRules: ['routing-rules'],
  chats: (filters?: unknown) => (filters ? ['chats', filters] : ['chats']),
  chat: (id: string) => ['chat', id],
  deliveryStats: (window: string) => ['delivery-stats', window],
  replays: ['replays'],
  replay: (id: string) => ['replays', id],
  replayDiff: (id: string, query: unknown) => ['replays', id, 'diff', query],
  sandboxVas: ['sandbox-virtual-agents'],
} as const;
