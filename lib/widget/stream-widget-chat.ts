import type { WidgetChat, WidgetChunk, WidgetTyping } from '@/contracts/widget/schemas';
import type { Db } from '@/db/client';
import { requireCursorWithin } from '@/lib/chats/follow-transcript';
import { subscribeAccountChats, subscribeChatChanges } from '@/lib/events/chat-changes';
import { liveStream, type SendEvent } from '@/platform/realtime/live-stream';
import type { EventStream } from '@/platform/realtime/sse-stream';
import { widgetMessagesAfter } from './list-widget-messages';
import type { WidgetVisitorAuth } from './types';
import { loadOwnChatLive, sameWidgetChat, TYPING_OFF, toWidgetMessage, typingView } from './widget-chat-view';

const BATCH = 100;

/** Reads made by this process's widget streams (tests and benches count them). */
let reads = 0;
export function widgetStreamReads(): number {
  return reads;
}

/**
 * The customer's live view of their chat as Server-Sent Events: `chat` (status and who answers)
 * when it changes, `typing` when the VA's indicator goes on, changes or off, each `chunk` of a
 * streamed reply while it is open, and each `message` with its id as the event id. It starts after
 * `after` (the last message the page holds, or the `Last-Event-ID` of a reconnect), so a reconnect
 * loses and repeats nothing. Every wake (topic `chat:<id>`, published by whatever wrote: a
 * message, a typing call, a chunk, a close or cut) re-reads from the database after the last id
 * sent; the wake carries nothing that must arrive, so a missed one is made up by the next and a
 * doubled one sends nothing twice. The exceptions to the read, for changes made in this process:
 * a chunk that is the next of a stream this connection follows, a message or a streamed reply's
 * opening whose predecessor is the last message sent, and the close of the first reply it follows
 * when nothing came after it, are sent on from the wake itself (two reads per chunk or message were
 * most of its cost at 20 chunks a second per chat, or 500 messages a second over 5,000 widgets; the
 * opening's and the close's reads, a third of a bot's turn's statements).
 *
 * An open streamed reply holds the cursor: its chunks go out as `chunk` events (each seq once per
 * connection, in order), and it and the messages after it go out as `message` events once it is
 * closed or cut, so message ids only grow and a reconnect after the last id resends the open
 * stream's chunks from the start (the page keeps what it has). Throws (2031) before streaming
 * when the chat is not the customer's.
 */
export async function streamWidgetChat(
  db: Db,
  { visitor, chatId, after, signal }: { visitor: WidgetVisitorAuth; chatId: string; after: number; signal?: AbortSignal },
): Promise<EventStream> {
  let { chat: state, typing } = await loadOwnChatLive(db, { visitor, chatId });
  await requireCursorWithin(db, { chatId, after });
  let cursor = after;
  /** Per open stream (message id): the last seq sent on this connection. */
  const sentSeq = new Map<number, number>();
  const sendChunks = (
    send: SendEvent,
    row: { id: number; body: Record<string, unknown>; streamSeq: number | null; streamEnds: number[] | null },
  ) => {
    const ends = row.streamEnds ?? [];
    const last = Math.min(row.streamSeq ?? 0, ends.length - 1);
    const full = String(row.body.text ?? '');
    for (let seq = (sentSeq.get(row.id) ?? -1) + 1; seq <= last; seq++) {
      const piece = full.slice(seq === 0 ? 0 : ends[seq - 1], ends[seq]);
      // The opening without text is no chunk; every appended seq is one, even if empty.
      if (seq > 0 || piece) send('chunk', { message_id: row.id, seq, text: piece } satisfies WidgetChunk);
      sentSeq.set(row.id, seq);
    }
  };

  /** Sent when it goes on, changes or goes off; one that ran out goes off on the page by `seconds_left`. */
  const showTyping = (send: SendEvent, next: WidgetTyping) => {
    if (next.on === typing.on && next.expires_at === typing.expires_at && next.status_text === typing.status_text) return;
    typing = next;
    send('typing', typing);
  };
  /**
   * Whether the last read held a finished message behind an open reply. The close's `lastId` is read
   * at its statement's start, so it can miss a message committed meanwhile; that message's own wake
   * brings it, unless a read already held it before the close arrived: then the close reads too.
   */
  let heldBehind = false;
  /** The first open reply this connection follows (the one holding the cursor), if any. */
  const firstFollowed = () => {
    let first: number | undefined;
    for (const id of sentSeq.keys()) if (first === undefined || id < first) first = id;
    return first;
  };

  const queue = whileWaiting(visitor.accountId, isWaiting(state));

  return liveStream({
    what: 'widget',
    // The client going away cancels the stream; a signal, where given, closes it too.
    signal,
    subscribe: (wake, send, busy) => [
      subscribeChatChanges(chatId, (change) => {
        // A chunk appended in this process, next after the last one sent for its stream: sent on
        // as it is, with no read (nothing else changed). Anything else reads from the cursor.
        if (change?.kind === 'chunk' && sentSeq.get(change.messageId) === change.seq - 1) {
          send('chunk', { message_id: change.messageId, seq: change.seq, text: change.text } satisfies WidgetChunk);
          sentSeq.set(change.messageId, change.seq);
          return;
        }
        // The VA's typing set in this process, no read under way (it could hold the typing from
        // before): shown as the read would show it.
        if (change?.kind === 'typing' && !busy()) {
          showTyping(send, typingView(state, change.expiresAt, change.statusText));
          return;
        }
        // A streamed reply closed in this process, the first open one this connection follows,
        // with nothing after it: the whole message goes out, as the read would send it.
        if (change?.kind === 'stream-closed' && change.lastId === change.messageId && firstFollowed() === change.messageId && !heldBehind) {
          send('message', toWidgetMessage(change.message), change.messageId);
          sentSeq.delete(change.messageId);
          cursor = change.messageId;
          return;
        }
        // A message added in this process right after the last one sent: sent on (a streamed reply's
        // opening as its first chunk: it holds the cursor until it closes). A read running meanwhile
        // skips it (it is at the cursor, or its seq was sent); one could also hold the typing from
        // before it, so a message that turned typing off then reads once more after it.
        if ((change?.kind === 'message' || change?.kind === 'stream-opened') && change.prevId === cursor) {
          if (change.kind === 'message') {
            send('message', toWidgetMessage(change.message), change.message.id);
            cursor = change.message.id;
          } else {
            const text = String(change.message.body.text ?? '');
            sendChunks(send, { id: change.message.id, body: change.message.body, streamSeq: 0, streamEnds: [text.length] });
          }
          if (!change.typingOff) return;
          if (!busy()) {
            showTyping(send, TYPING_OFF);
            return;
          }
        }
        wake();
      }),
      // While the chat waits, its place in the queue moves when any chat of the account changes
      // (one leaves the queue, is picked or moved): the same wake the workspace's lists follow,
      // on every instance. Followed only while it waits (a read notices the change of state), so
      // the account's busy chats do not call every other open widget; the read coalesces a burst.
      ...queue.start(wake),
    ],
    opening: (send) => {
      send('chat', state satisfies WidgetChat);
      if (typing.on) send('typing', typing satisfies WidgetTyping);
    },
    read: async (send) => {
      reads++;
      heldBehind = false;
      for (;;) {
        const rows = await widgetMessagesAfter(db, { chatId, after: cursor, limit: BATCH });
        let held = false;
        for (const row of rows) {
          // Sent meanwhile from its wake.
          if (row.id <= cursor) continue;
          if (row.streamState === 'open') {
            held = true;
            sendChunks(send, row);
          } else if (!held) {
            send('message', toWidgetMessage(row), row.id);
            sentSeq.delete(row.id);
            cursor = row.id;
          } else heldBehind = true;
        }
        if (rows.length < BATCH || held) break;
      }
      const now = await loadOwnChatLive(db, { visitor, chatId });
      if (!sameWidgetChat(now.chat, state)) {
        state = now.chat;
        send('chat', now.chat);
        queue.follow(isWaiting(state));
      }
      showTyping(send, now.typing);
    },
  });
}

const isWaiting = (chat: WidgetChat) => chat.handled_by === 'waiting' && chat.status === 'open';

/**
 * The account's chat wakes, heard only while `follow(true)` holds: `start` subscribes if the chat
 * waits now and returns the stream's cleanup, after which nothing subscribes again.
 */
function whileWaiting(accountId: number, waiting: boolean) {
  let wake: (() => void) | undefined;
  let unsubscribe: (() => void) | undefined;
  let ended = false;
  const follow = (on: boolean) => {
    if (on && !unsubscribe && wake && !ended) unsubscribe = subscribeAccountChats(accountId, wake);
    else if (!on && unsubscribe) {
      unsubscribe();
      unsubscribe = undefined;
    }
  };
  return {
    follow,
    start: (w: () => void) => {
      wake = w;
      follow(waiting);
      return [
        () => {
          ended = true;
          follow(false);
        },
      ];
    },
  };
}
