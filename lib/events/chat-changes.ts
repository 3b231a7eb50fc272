import { EventEmitter } from 'node:events';

/**
 * "This chat changed" (a message added, its status or assignee changed), published after the
 * change commits, for the live views that show a chat (the chat widget's stream). A subscriber
 * re-reads what it shows from the database, so a wake carries nothing but the chat id, and a
 * missed or doubled wake costs nothing but a read.
 *
 * This is the seam to the service's real-time mechanism (topic publish/subscribe across
 * instances): publishers and subscribers only use these two functions.
 */
type Shared = { emitter: EventEmitter };
const store = globalThis as unknown as { __vaChatChanges?: Shared };
store.__vaChatChanges ??= { emitter: new EventEmitter().setMaxListeners(0) };
const shared = store.__vaChatChanges;

/** Call after the transaction that changed the chats has committed. */
export function publishChatChanges(chatIds: Iterable<string>): void {
  for (const id of new Set(chatIds)) shared.emitter.emit(id);
}

/** Calls `listener` after each change of the chat; returns the unsubscribe. */
export function subscribeChatChanges(chatId: string, listener: () => void): () => void {
  shared.emitter.on(chatId, listener);
  return () => {
    shared.emitter.off(chatId, listener);
  };
}
