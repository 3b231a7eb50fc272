import { after, beforeEach } from 'node:test';
import { type ChatChange, subscribeChatChanges } from '@/lib/events/chat-changes';
import { botApi } from './api-client';
import type { Tenant } from './tenant';

/** Creates a chat through the API and returns its body's `response`; throws on anything but 201. */
export async function newChat(t: Tenant, overrides: Record<string, unknown> = {}, token = t.token) {
  const channel = (overrides.channel as keyof Tenant['assets']) ?? 'sms';
  const res = await botApi('POST', '/chats', {
    token,
    body: {
      channel,
      asset_id: t.assets[channel].id,
      customer: { destination_id: `+1555${Math.floor(Math.random() * 1e7)}`, name: 'Ann' },
      team_id: t.botTeam.id,
      ...overrides,
    },
  });
  if (res.status !== 201) throw new Error(`create chat failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.response;
}

export function patchChat(t: Tenant, chatId: string, body: unknown, teamId: number = t.botTeam.id, token = t.token) {
  return botApi('PATCH', `/chats/${chatId}`, { token, headers: { team_id: String(teamId) }, body });
}

/**
 * The chat changes this process hears (lib/events/chat-changes.ts), for a `describe` block:
 * `listen(chatId)` follows a chat, `heard` holds what came, emptied before each test; the
 * listeners are removed after the block.
 */
export function chatChangesHeard() {
  const heard: (ChatChange | undefined)[] = [];
  const cleanups: (() => void)[] = [];
  beforeEach(() => {
    heard.length = 0;
  });
  after(() => {
    for (const c of cleanups) c();
  });
  return { heard, listen: (chatId: string) => cleanups.push(subscribeChatChanges(chatId, (change) => heard.push(change))) };
}
