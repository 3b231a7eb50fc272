'use client';

import { contractClient } from '@/components/shared/client';
import { adminContract } from '@/contracts/admin';

/** The console's typed API client: react-query hooks generated from contracts/admin. */
export const tsr = contractClient(adminContract);

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
