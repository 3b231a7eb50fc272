'use client';

import type { z } from 'zod';
import type {
  agentChatSchema,
  agentDirectorySchema,
  agentProfileSchema,
  mineItemSchema,
  queueItemSchema,
  workspaceListsSchema,
} from '@/contracts/agent/schemas';
import type { Message } from '@/contracts/bot/schemas/message';

export type Profile = z.infer<typeof agentProfileSchema>;
export type Lists = z.infer<typeof workspaceListsSchema>;
export type QueueItem = z.infer<typeof queueItemSchema>;
export type MineItem = z.infer<typeof mineItemSchema>;
export type AgentChat = z.infer<typeof agentChatSchema>;
export type Directory = z.infer<typeof agentDirectorySchema>;
export type { Message };

/** A refusal of the workspace API: its envelope's code and sentence. */
export class AgentApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly description: string,
  ) {
    super(description);
  }
}

/**
 * One call to /api/agent: same-origin, so the session cookie rides along and the API's cross-site
 * check passes. Answers the envelope's `response`; a refusal throws AgentApiError.
 */
export async function agentApi<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: {} };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  } else if (method !== 'GET') {
    init.body = '';
  }
  const res = await fetch(`/api/agent${path}`, init);
  let parsed: { status_code?: number; description?: string; response?: unknown } = {};
  try {
    parsed = await res.json();
  } catch {
    // not JSON (a proxy's page): described below
  }
  if (!res.ok) throw new AgentApiError(res.status, parsed.status_code ?? 0, parsed.description ?? `HTTP ${res.status}`);
  return parsed.response as T;
}

export const keys = { me: ['agent-me'], lists: ['agent-lists'], directory: ['agent-directory'], chat: (id: string) => ['agent-chat', id] };

export function isSignedOut(err: unknown): boolean {
  return err instanceof AgentApiError && err.code === 2080;
}
