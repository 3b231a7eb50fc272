import { SharedDetail, subscribe } from '@/platform/realtime/realtime';

/**
 * "This chat changed" (a message, a chunk, typing, a stream closed or cut, its status or assignee),
 * published by `withOutbox` after the change commits on the realtime topic `chat:<chat id>`
 * (platform/realtime: this process at once, the other instances through LISTEN/NOTIFY on
 * PostgreSQL), for the live views that show a chat. A subscriber uses the change it carries when it
 * can and otherwise re-reads from its cursor, so a missed or doubled wake costs nothing but a read.
 */
export const chatTopic = (chatId: string) => `chat:${chatId}`;

/**
 * "A chat of this account changed": the agent workspace's lists (queue and Mine) re-read on it.
 * One topic per account rather than per team, since a transfer moves a chat between teams and the
 * readers re-read anyway; a workspace stream coalesces a burst of wakes into one read.
 */
export const accountChatsTopic = (accountId: number) => `chats:${accountId}`;

/**
 * What changed in a chat, as its wake carries it to the live views of this process and, for the
 * kinds in SHARED_KINDS, of the other instances (the rest get the bare wake there and read from
 * their cursor). A view that cannot use it (it has not seen what came before, or the kind is not
 * one it sends on) reads as on any wake, so it is an optimisation that never costs an item. Noted
 * in the writer's `withOutbox` transaction (`noteChatChange`).
 *  - `chunk`: chunk `seq` appended to the open streamed reply `messageId`.
 *  - `message`: a message the customer sees (inbound or outbound, not streamed) added to a livechat
 *    chat, with `prevId`, the last such message before it (0 for none), read under the chat's lock:
 *    a view whose cursor is `prevId` has seen everything before it. Adding it changed nothing else
 *    the customer sees but the VA's typing, which an outbound message turns off (`typingOff`).
 *  - `stream-opened`: a streamed reply the customer sees opened in a livechat chat, `message` its
 *    opening (seq 0), with `prevId` and `typingOff` as for `message`.
 *  - `typing`: the VA's typing indicator as it now stands.
 *  - `stream-closed`: the streamed reply `messageId` was closed (its whole text is final):
 *    `message` as it now stands, and `lastId`, the last message the customer sees in the chat as the
 *    close read it (the reply's own id when nothing follows it).
 *  - `streams-cut`: the chat's open streamed replies were cut short (idle, or the chat left the VA).
 */
export type ChatChange =
  | { kind: 'chunk'; messageId: number; seq: number; text: string }
  | { kind: 'message'; message: ChatChangeMessage; prevId: number; typingOff: boolean }
  | { kind: 'stream-opened'; message: ChatChangeMessage; prevId: number; typingOff: boolean }
  | { kind: 'typing'; on: boolean; statusText: string | null; expiresAt: Date | null }
  | { kind: 'stream-closed'; messageId: number; message: ChatChangeMessage; lastId: number }
  | { kind: 'streams-cut' };
type ChatChangeMessage = { id: number; type: string; body: Record<string, unknown>; sentAt: Date };

/**
 * The kinds another instance's views act on as this one's do. Each is guarded by order where it is
 * used (a chunk by its seq, a message or an opening by `prevId`), so one that comes late, early or
 * twice (notifications of two instances are not ordered) costs a read, never a wrong view. Typing
 * and a close are not: an older state arriving last would be shown.
 */
const SHARED_KINDS: ReadonlySet<ChatChange['kind']> = new Set(['chunk', 'message', 'stream-opened']);
/** A change shared with the other instances is small (a NOTIFY holds under 8000 bytes); a larger one goes as the bare wake. */
const SHARED_MAX = 2_000;

/** The text form of a change for the other instances (`publish`'s `share`), when its kind is shared and it is small. */
export function shareChatChange(chatId: string, change: ChatChange | null | undefined): { topic: string; text: string } | undefined {
  if (!change || !SHARED_KINDS.has(change.kind)) return undefined;
  const text = JSON.stringify(change);
  return text.length <= SHARED_MAX ? { topic: chatTopic(chatId), text } : undefined;
}

const decoded = new WeakMap<SharedDetail, ChatChange | undefined>();

/** A change shared by another instance, decoded once for all of this process's views of the chat; undefined (a read) when it is not one this release knows. */
function sharedChange(detail: SharedDetail): ChatChange | undefined {
  if (decoded.has(detail)) return decoded.get(detail);
  let change: ChatChange | undefined;
  try {
    const c = JSON.parse(detail.text);
    const message = c?.message;
    if (c?.kind === 'chunk' && Number.isInteger(c.messageId) && Number.isInteger(c.seq) && typeof c.text === 'string') change = c;
    else if (
      (c?.kind === 'message' || c?.kind === 'stream-opened') &&
      Number.isInteger(c.prevId) &&
      typeof c.typingOff === 'boolean' &&
      Number.isInteger(message?.id) &&
      typeof message.type === 'string' &&
      typeof message.body === 'object' &&
      message.body !== null
    )
      change = { ...c, message: { ...message, sentAt: new Date(message.sentAt) } };
  } catch {
    change = undefined;
  }
  decoded.set(detail, change);
  return change;
}

/** Calls `listener` after each change of any chat of the account, on any instance. */
export function subscribeAccountChats(accountId: number, listener: () => void): () => void {
  return subscribe(accountChatsTopic(accountId), () => listener());
}

/**
 * Calls `listener` after each change of the chat, on any instance, with what changed when the
 * writer said so (made in this process, or shared by another: see SHARED_KINDS); returns the
 * unsubscribe.
 */
export function subscribeChatChanges(chatId: string, listener: (change?: ChatChange) => void): () => void {
  return subscribe(chatTopic(chatId), (_topic, detail) =>
    listener(detail instanceof SharedDetail ? sharedChange(detail) : (detail as ChatChange | undefined)),
  );
}
