'use client';

import { type ApiFetcherArgs, tsRestFetchApi } from '@ts-rest/core';
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
  api: (args: ApiFetcherArgs) => tsRestFetchApi(args.method === 'DELETE' && args.body == null ? { ...args, body: '' } : args),
});

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
} as const;
