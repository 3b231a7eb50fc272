import type { Db } from '@/db/client';
import { publish } from '@/platform/realtime/realtime';
import { accountChatsTopic, type ChatChange, chatTopic, shareChatChange } from './chat-changes';
import { signalOutbox } from './signal';

const written = Symbol('events written in this transaction');
const changed = Symbol('chats changed in this transaction, with what changed where the writer said');

/** A chat a transaction changed: its account, and what changed when one writer said it alone (`mixed`: more was said, or more happened). */
type Noted = { accountId: number; change: ChatChange | null; mixed: boolean };

/**
 * A transaction opened by `withOutbox`, the one path by which a change reaches anyone after its
 * commit: only such a handle can enqueue events (`enqueueEvent`) or note a chat change
 * (`noteChatChange`, which `lockChat` does for every chat change), and only `withOutbox` makes one.
 * So a writer cannot add an event and forget to wake delivery, nor change a chat and tell nobody.
 */
export type OutboxTx = Db & {
  readonly [written]: { ids: number[]; vaUserIds: Set<number> };
  readonly [changed]: Map<string, Noted>;
};

/**
 * Runs `work` in one transaction and, once it has committed, wakes the delivery engine for the
 * events enqueued in it and publishes the chat changes noted in it to the live views
 * (lib/events/chat-changes.ts). Nothing is signalled when the transaction fails: its events and
 * changes are gone with it.
 *
 * `oneStatement`: `work` runs one statement on the pool, with no BEGIN and COMMIT around it (its
 * statement is its own transaction), for the hot single-statement writes (a streamed reply's chunk,
 * its close, the idle cut). The handle is still the only way to note a change, and the changes are
 * still published once `work` has returned, after that statement committed.
 */
export async function withOutbox<T>(db: Db, work: (tx: OutboxTx) => Promise<T>, options?: { oneStatement?: boolean }): Promise<T> {
  const noted = { ids: [] as number[], vaUserIds: new Set<number>() };
  const chats = new Map<string, Noted>();
  const handle = (tx: Db): OutboxTx => Object.assign(tx, { [written]: noted, [changed]: chats });
  let result: T;
  if (options?.oneStatement) {
    result = await work(handle(Object.create(db) as Db));
  } else {
    result = await db.transaction(async (tx) => {
      // A retried transaction callback starts clean.
      noted.ids.length = 0;
      noted.vaUserIds.clear();
      chats.clear();
      return work(handle(tx as Db));
    });
  }
  signalOutbox(noted.ids, noted.vaUserIds);
  publishChatChanges(chats);
  return result;
}

/**
 * Marks a chat as changed by this transaction, with what changed (`change`, the data the live views
 * send on; see `ChatChange`): once the transaction commits, the chat's live views are told. A chat
 * noted twice with different data carries none: its views read, as after any bare change.
 */
export function noteChatChange(tx: OutboxTx, chatId: string, accountId: number, change: ChatChange | null = null): void {
  const before = tx[changed].get(chatId);
  if (!before) tx[changed].set(chatId, { accountId, change, mixed: false });
  else if (change && !before.mixed) {
    if (before.change) {
      before.change = null;
      before.mixed = true;
    } else before.change = change;
  }
}

/**
 * The chats a committed `withOutbox` transaction changed, published: one wake for all of them; the
 * change rides along only when a single chat changed (the usual case). Not exported: publishing a
 * chat change has no other way in than a `withOutbox` handle.
 */
function publishChatChanges(noted: ReadonlyMap<string, Noted>): void {
  if (!noted.size) return;
  const topics = [...noted.keys()].map(chatTopic);
  for (const accountId of new Set([...noted.values()].map((n) => n.accountId))) topics.push(accountChatsTopic(accountId));
  if (noted.size !== 1) {
    publish(topics);
    return;
  }
  const [[chatId, only]] = noted;
  publish(topics, only.change ?? undefined, shareChatChange(chatId, only.change));
}

/** The chat's live views must read it again after this transaction (it changed in more ways than a detail said). */
export function noteChatChangeUnsaid(tx: OutboxTx, chatId: string): void {
  const noted = tx[changed].get(chatId);
  if (!noted) return;
  noted.change = null;
  noted.mixed = true;
}

/** Called by `enqueueEvent` for each event it writes. */
export function noteEvent(tx: OutboxTx, eventId: number, vaUserId: number): void {
  tx[written].ids.push(eventId);
  tx[written].vaUserIds.add(vaUserId);
}
