import { publish, subscribe } from '@/lib/realtime/realtime';

/**
 * "This chat changed" (a message added, its status or assignee changed), published after the
 * change commits on the realtime topic `chat:<chat id>` (lib/realtime: this process at once, the
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

/** Call after the transaction that changed the chats (chat id to account id) has committed. */
export function publishChatChanges(changed: Map<string, number>): void {
  const topics = [...changed.keys()].map(chatTopic);
  for (const accountId of new Set(changed.values())) topics.push(accountChatsTopic(accountId));
  if (topics.length) publish(topics);
}

/** Calls `listener` after each change of any chat of the account, on any instance. */
export function subscribeAccountChats(accountId: number, listener: () => void): () => void {
  return subscribe(accountChatsTopic(accountId), () => listener());
}

/** Calls `listener` after each change of the chat, on any instance; returns the unsubscribe. */
export function subscribeChatChanges(chatId: string, listener: () => void): () => void {
  return subscribe(chatTopic(chatId), () => listener());
}
