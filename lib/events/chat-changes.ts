import { publish, subscribe } from '@/lib/realtime/realtime';

/**
 * "This chat changed" (a message added, its status or assignee changed), published after the
 * change commits on the realtime topic `chat:<chat id>` (lib/realtime: this process at once, the
 * other instances through LISTEN/NOTIFY on PostgreSQL), for the live views that show a chat (the
 * chat widget's stream). A subscriber re-reads what it shows from the database, so a wake carries
 * nothing but the topic, and a missed or doubled wake costs nothing but a read.
 */
export const chatTopic = (chatId: string) => `chat:${chatId}`;

/** Call after the transaction that changed the chats has committed. */
export function publishChatChanges(chatIds: Iterable<string>): void {
  const topics = [...new Set(chatIds)].map(chatTopic);
  if (topics.length) publish(topics);
}

/** Calls `listener` after each change of the chat, on any instance; returns the unsubscribe. */
export function subscribeChatChanges(chatId: string, listener: () => void): () => void {
  return subscribe(chatTopic(chatId), () => listener());
}
