import type { Db } from '@/db/client';
import { type ChatChange, publishChatChanges } from './chat-changes';
import { signalOutbox } from './signal';

const written = Symbol('events written in this transaction');
const changedChats = Symbol('chats changed in this transaction');
const changeDetails = Symbol('what changed in them, where the writer said');

/**
 * A transaction opened by `withOutbox`. Only such a transaction can enqueue events (the type of
 * `enqueueEvent` asks for it), so no writer can add an event and forget to wake delivery.
 */
export type OutboxTx = Db & {
  readonly [written]: { ids: number[]; vaUserIds: Set<number> };
  readonly [changedChats]: Map<string, number>;
  readonly [changeDetails]: Map<string, ChatChange | null>;
};

/**
 * Runs `work` in one transaction and, once it has committed, wakes the delivery engine for the
 * events enqueued in it and tells the live views about the chats it changed (lib/events/chat-changes.ts).
 * Nothing is signalled when the transaction fails: its events are gone with it.
 */
export async function withOutbox<T>(db: Db, work: (tx: OutboxTx) => Promise<T>): Promise<T> {
  let noted = { ids: [] as number[], vaUserIds: new Set<number>() };
  let chatIds = new Map<string, number>();
  let details = new Map<string, ChatChange | null>();
  const result = await db.transaction(async (tx) => {
    noted = { ids: [], vaUserIds: new Set() };
    chatIds = new Map();
    details = new Map();
    const outboxTx: OutboxTx = Object.assign(tx as Db, { [written]: noted, [changedChats]: chatIds, [changeDetails]: details });
    return work(outboxTx);
  });
  signalOutbox(noted.ids, noted.vaUserIds);
  const said = new Map<string, ChatChange>();
  for (const [chatId, detail] of details) if (detail) said.set(chatId, detail);
  publishChatChanges(chatIds, said);
  return result;
}

/**
 * Marks a chat as changed by this transaction (lockChat does it for every chat change): once it
 * commits, the chat's live views are told. Outside a `withOutbox` transaction it does nothing.
 */
export function noteChatChange(tx: Db, chatId: string, accountId: number): void {
  (tx as Partial<OutboxTx>)[changedChats]?.set(chatId, accountId);
}

/**
 * Says what changed in a chat noted by `noteChatChange` (lib/events/chat-changes.ts `ChatChange`),
 * for the live views of this process. A chat with two details in one transaction gets none: its
 * views read, as on a bare wake.
 */
export function noteChatChangeDetail(tx: OutboxTx, chatId: string, detail: ChatChange): void {
  tx[changeDetails].set(chatId, tx[changeDetails].has(chatId) ? null : detail);
}

/** The chat's live views must read it again after this transaction (it changed in more ways than a detail said). */
export function noteChatChangeUnsaid(tx: OutboxTx, chatId: string): void {
  tx[changeDetails].set(chatId, null);
}

/** Called by `enqueueEvent` for each event it writes. */
export function noteEvent(tx: OutboxTx, eventId: number, vaUserId: number): void {
  tx[written].ids.push(eventId);
  tx[written].vaUserIds.add(vaUserId);
}
