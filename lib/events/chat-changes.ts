import { publish, subscribe } from '@/platform/realtime/realtime';

/**
 * "This chat changed" (a message added, its status or assignee changed), published after the
 * change commits on the realtime topic `chat:<chat id>` (platform/realtime: this process at once, the
 * other instances through LISTEN/NOTIFY on PostgreSQL), for the live views that show a chat (the
 * chat widget's stream). A subscriber re-reads what it shows from the database, so a wake carries
 * nothing but the topic, and a missed or doubled wake costs nothing but a read.
 */
export const chatTopic = (chatId: string) => `chat:${chatId}`;

/**
 * "A chat of this account changed": the agent workspace's lists (queue and Mine) re-read on it.
 * One topic per account rather than per team, since a transfer moves a chat between teams and the
 * readers re-read anyway; a workspace stream coalesces a burst of wakes into one read.
 */
export const accountChatsTopic = (accountId: number) => `chats:${accountId}`;

/**
 * What changed, as a chat's wake carries it to the live views of this process (other instances get
 * the bare wake and read). Only an optimisation: a view that cannot use it (it has not seen what
 * came before) reads as on any wake.
 *  - `chunk`: a chunk appended to an open streamed reply.
 *  - `message`: a message the customer sees (inbound or outbound, not streamed) added to a livechat
 *    chat, with `prevId`, the last such message before it (0 for none), read under the chat's lock:
 *    a view whose cursor is `prevId` has seen everything before it. Adding it changed nothing else
 *    the customer sees but the VA's typing, which an outbound message turns off (`typingOff`).
 */
export type ChatChange =
  | { kind: 'chunk'; messageId: number; seq: number; text: string }
  | { kind: 'message'; message: ChatChangeMessage; prevId: number; typingOff: boolean };
export type ChatChangeMessage = { id: number; type: string; body: Record<string, unknown>; sentAt: Date };

/**
 * Call after the transaction that changed the chats (chat id to account id) has committed, with
 * what changed where the writer said so (`details`, by chat id). One wake for all of them; the
 * detail rides along only when a single chat changed (the usual case).
 */
export function publishChatChanges(changed: Map<string, number>, details?: Map<string, ChatChange>): void {
  const topics = [...changed.keys()].map(chatTopic);
  for (const accountId of new Set(changed.values())) topics.push(accountChatsTopic(accountId));
  if (!topics.length) return;
  const [only] = changed.keys();
  publish(topics, changed.size === 1 ? details?.get(only) : undefined);
}

/** Call after chunk `seq` of message `messageId` was appended (one statement, committed). */
export function publishChunk(chatId: string, accountId: number, chunk: Omit<Extract<ChatChange, { kind: 'chunk' }>, 'kind'>): void {
  publish([chatTopic(chatId), accountChatsTopic(accountId)], { kind: 'chunk', ...chunk } satisfies ChatChange);
}

/** Calls `listener` after each change of any chat of the account, on any instance. */
export function subscribeAccountChats(accountId: number, listener: () => void): () => void {
  return subscribe(accountChatsTopic(accountId), () => listener());
}

/**
 * Calls `listener` after each change of the chat, on any instance, with what changed when the
 * change was made in this process and says so (a chunk); returns the unsubscribe.
 */
export function subscribeChatChanges(chatId: string, listener: (change?: ChatChange) => void): () => void {
  return subscribe(chatTopic(chatId), (_topic, detail) => listener(detail as ChatChange | undefined));
}
