import type { WidgetChat, WidgetChunk, WidgetTyping } from '@/contracts/widget/schemas';
import type { Db } from '@/db/client';
import { type ChatChange, subscribeAccountChats, subscribeChatChanges } from '@/lib/events/chat-changes';
import { liveStream, type SendEvent } from '@/platform/realtime/live-stream';
import type { EventStream } from '@/platform/realtime/sse-stream';
import { widgetMessagesAfter } from './list-widget-messages';
import type { WidgetVisitorAuth } from './types';
import { loadOwnChatLive, sameWidgetChat, TYPING_OFF, toWidgetMessage, typingView } from './widget-chat-view';

const BATCH = 100;
/** Placeholders until `subscribe` hands the live stream's own over (shared: no function per stream). */
const nothing = () => {};
const notBusy = () => false;

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
  const { chat, typing } = await loadOwnChatLive(db, { visitor, chatId, after });
  const view = new WidgetChatView(db, visitor, chatId, after, chat, typing);
  return liveStream({
    what: 'widget',
    // The client going away cancels the stream; a signal, where given, closes it too.
    signal,
    subscribe: view.subscribe,
    opening: view.opening,
    read: view.read,
  });
}

type StreamRow = { id: number; body: Record<string, unknown>; streamSeq: number | null; streamEnds: number[] | null };

/**
 * One connection's view of the chat: what it has sent (the cursor, each open reply's last seq) and
 * what it showed (the chat's state, the typing). An object rather than closures over locals: a held
 * widget stream is mostly idle memory (bench:open-widgets), and fields cost a fraction of the scopes
 * and functions they replace. `subscribe`, `opening` and `read` are handed to the live stream.
 */
class WidgetChatView {
  private cursor: number;
  /** Per open stream (message id): the last seq sent on this connection; made at the first (most connections never follow one). */
  private sentSeq: Map<number, number> | undefined;
  /**
   * Whether the last read held a finished message behind an open reply. The close's `lastId` is read
   * at its statement's start, so it can miss a message committed meanwhile; that message's own wake
   * brings it, unless a read already held it before the close arrived: then the close reads too.
   */
  private heldBehind = false;
  /** The live stream's wake, writer and read-in-progress test, handed over by `subscribe`. */
  private wake: () => void = nothing;
  private send: SendEvent = nothing;
  private busy: () => boolean = notBusy;
  /** The account's chat wakes, followed only while the chat waits (see `followQueue`). */
  private unsubscribeQueue: (() => void) | undefined;
  private ended = false;

  constructor(
    private readonly db: Db,
    private readonly visitor: WidgetVisitorAuth,
    private readonly chatId: string,
    after: number,
    private state: WidgetChat,
    private typing: WidgetTyping,
  ) {
    this.cursor = after;
  }

  readonly subscribe = (wake: () => void, send: SendEvent, busy: () => boolean): (() => void)[] => {
    this.wake = wake;
    this.send = send;
    this.busy = busy;
    // While the chat waits, its place in the queue moves when any chat of the account changes
    // (one leaves the queue, is picked or moved): the same wake the workspace's lists follow,
    // on every instance. Followed only while it waits (a read notices the change of state), so
    // the account's busy chats do not call every other open widget; the read coalesces a burst.
    this.followQueue(isWaiting(this.state));
    return [subscribeChatChanges(this.chatId, (change) => this.changed(change)), () => this.end()];
  };

  readonly opening = (send: SendEvent) => {
    send('chat', this.state satisfies WidgetChat);
    if (this.typing.on) send('typing', this.typing satisfies WidgetTyping);
  };

  readonly read = async (send: SendEvent) => {
    reads++;
    this.heldBehind = false;
    for (;;) {
      const rows = await widgetMessagesAfter(this.db, { chatId: this.chatId, after: this.cursor, limit: BATCH });
      let held = false;
      for (const row of rows) {
        // Sent meanwhile from its wake.
        if (row.id <= this.cursor) continue;
        if (row.streamState === 'open') {
          held = true;
          this.sendChunks(send, row);
        } else if (!held) {
          send('message', toWidgetMessage(row), row.id);
          this.sentSeq?.delete(row.id);
          this.cursor = row.id;
        } else this.heldBehind = true;
      }
      if (rows.length < BATCH || held) break;
    }
    const now = await loadOwnChatLive(this.db, { visitor: this.visitor, chatId: this.chatId });
    if (!sameWidgetChat(now.chat, this.state)) {
      this.state = now.chat;
      send('chat', now.chat);
      this.followQueue(isWaiting(this.state));
    }
    this.showTyping(send, now.typing);
  };

  /** A wake of the chat's topic: sent on from the change where it can be, read otherwise. */
  private changed(change: ChatChange | undefined) {
    const { send, busy } = this;
    // A chunk appended in this process, next after the last one sent for its stream: sent on
    // as it is, with no read (nothing else changed). Anything else reads from the cursor.
    if (change?.kind === 'chunk' && this.sentSeq?.get(change.messageId) === change.seq - 1) {
      send('chunk', { message_id: change.messageId, seq: change.seq, text: change.text } satisfies WidgetChunk);
      this.sentSeq?.set(change.messageId, change.seq);
      return;
    }
    // The VA's typing set in this process, no read under way (it could hold the typing from
    // before): shown as the read would show it.
    if (change?.kind === 'typing' && !busy()) {
      this.showTyping(send, typingView(this.state, change.expiresAt, change.statusText));
      return;
    }
    // A streamed reply closed in this process, the first open one this connection follows,
    // with nothing after it: the whole message goes out, as the read would send it.
    if (
      change?.kind === 'stream-closed' &&
      change.lastId === change.messageId &&
      this.firstFollowed() === change.messageId &&
      !this.heldBehind
    ) {
      send('message', toWidgetMessage(change.message), change.messageId);
      this.sentSeq?.delete(change.messageId);
      this.cursor = change.messageId;
      return;
    }
    // A message added in this process right after the last one sent: sent on (a streamed reply's
    // opening as its first chunk: it holds the cursor until it closes). A read running meanwhile
    // skips it (it is at the cursor, or its seq was sent); one could also hold the typing from
    // before it, so a message that turned typing off then reads once more after it.
    if ((change?.kind === 'message' || change?.kind === 'stream-opened') && change.prevId === this.cursor) {
      if (change.kind === 'message') {
        send('message', toWidgetMessage(change.message), change.message.id);
        this.cursor = change.message.id;
      } else {
        const text = String(change.message.body.text ?? '');
        this.sendChunks(send, { id: change.message.id, body: change.message.body, streamSeq: 0, streamEnds: [text.length] });
      }
      if (!change.typingOff) return;
      if (!busy()) {
        this.showTyping(send, TYPING_OFF);
        return;
      }
    }
    this.wake();
  }

  private sendChunks(send: SendEvent, row: StreamRow) {
    const ends = row.streamEnds ?? [];
    const last = Math.min(row.streamSeq ?? 0, ends.length - 1);
    const full = String(row.body.text ?? '');
    if (!this.sentSeq) this.sentSeq = new Map();
    const sentSeq = this.sentSeq;
    for (let seq = (sentSeq.get(row.id) ?? -1) + 1; seq <= last; seq++) {
      const piece = full.slice(seq === 0 ? 0 : ends[seq - 1], ends[seq]);
      // The opening without text is no chunk; every appended seq is one, even if empty.
      if (seq > 0 || piece) send('chunk', { message_id: row.id, seq, text: piece } satisfies WidgetChunk);
      sentSeq.set(row.id, seq);
    }
  }

  /** Sent when it goes on, changes or goes off; one that ran out goes off on the page by `seconds_left`. */
  private showTyping(send: SendEvent, next: WidgetTyping) {
    const { typing } = this;
    if (next.on === typing.on && next.expires_at === typing.expires_at && next.status_text === typing.status_text) return;
    this.typing = next;
    send('typing', next);
  }

  /** The first open reply this connection follows (the one holding the cursor), if any. */
  private firstFollowed() {
    let first: number | undefined;
    for (const id of this.sentSeq?.keys() ?? []) if (first === undefined || id < first) first = id;
    return first;
  }

  /** Follows the account's chat wakes while `on` holds; nothing subscribes again once the stream ended. */
  private followQueue(on: boolean) {
    if (on && !this.unsubscribeQueue && this.wake !== nothing && !this.ended)
      this.unsubscribeQueue = subscribeAccountChats(this.visitor.accountId, this.wake);
    else if (!on && this.unsubscribeQueue) {
      this.unsubscribeQueue();
      this.unsubscribeQueue = undefined;
    }
  }

  private end() {
    this.ended = true;
    this.followQueue(false);
  }
}

const isWaiting = (chat: WidgetChat) => chat.handled_by === 'waiting' && chat.status === 'open';
