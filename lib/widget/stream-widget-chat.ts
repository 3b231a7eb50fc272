import type { WidgetChat, WidgetChunk, WidgetTyping } from '@/contracts/schemas/widget';
import type { Db } from '@/db/client';
import { subscribeChatChanges } from '@/lib/events/chat-changes';
import { logger } from '@/lib/util/logger';
import { widgetMessagesAfter } from './list-widget-messages';
import type { WidgetVisitorAuth } from './types';
import { loadOwnChatLive, toWidgetMessage } from './widget-chat-view';

const HEARTBEAT_MS = 25_000;
const BATCH = 100;
const encoder = new TextEncoder();

/**
 * The customer's live view of their chat as Server-Sent Events: `chat` (status and who answers)
 * when it changes, `typing` when the VA's indicator goes on, changes or off, each `chunk` of a
 * streamed reply while it is open, and each `message` with its id as the event id. It starts after
 * `after` (the last message the page holds, or the `Last-Event-ID` of a reconnect), so a reconnect
 * loses and repeats nothing. Every wake (topic `chat:<id>`, published by whatever wrote: a
 * message, a typing call, a chunk, a close or cut) re-reads from the database after the last id
 * sent; the wake carries nothing, so a missed one is made up by the next and a doubled one sends
 * nothing twice.
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
): Promise<ReadableStream<Uint8Array>> {
  let { chat: state, typing } = await loadOwnChatLive(db, { visitor, chatId });
  let cursor = after;
  /** Per open stream (message id): the last seq sent on this connection. */
  const sentSeq = new Map<number, number>();
  let pumping = false;
  let again = false;
  let closed = false;
  let unsubscribe = () => {};
  let heartbeat: ReturnType<typeof setInterval> | undefined;

  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const close = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        clearInterval(heartbeat);
        try {
          controller.close();
        } catch {
          // already closed by the client going away
        }
      };
      const sendChat = (chat: WidgetChat) => send(`event: chat\ndata: ${JSON.stringify(chat)}\n\n`);
      const sendTyping = (t: WidgetTyping) => send(`event: typing\ndata: ${JSON.stringify(t)}\n\n`);
      const sendChunks = (row: { id: number; body: Record<string, unknown>; streamSeq: number | null; streamEnds: number[] | null }) => {
        const ends = row.streamEnds ?? [];
        const last = Math.min(row.streamSeq ?? 0, ends.length - 1);
        const full = String(row.body.text ?? '');
        for (let seq = (sentSeq.get(row.id) ?? -1) + 1; seq <= last; seq++) {
          const piece = full.slice(seq === 0 ? 0 : ends[seq - 1], ends[seq]);
          // The opening without text is no chunk; every appended seq is one, even if empty.
          if (seq > 0 || piece) {
            const chunk: WidgetChunk = { message_id: row.id, seq, text: piece };
            send(`event: chunk\ndata: ${JSON.stringify(chunk)}\n\n`);
          }
          sentSeq.set(row.id, seq);
        }
      };

      const pump = async () => {
        if (pumping) {
          again = true;
          return;
        }
        pumping = true;
        try {
          do {
            again = false;
            for (;;) {
              const rows = await widgetMessagesAfter(db, { chatId, after: cursor, limit: BATCH });
              let held = false;
              for (const row of rows) {
                if (row.streamState === 'open') {
                  held = true;
                  sendChunks(row);
                } else if (!held) {
                  send(`id: ${row.id}\nevent: message\ndata: ${JSON.stringify(toWidgetMessage(row))}\n\n`);
                  sentSeq.delete(row.id);
                  cursor = row.id;
                }
              }
              if (rows.length < BATCH || closed || held) break;
            }
            const now = await loadOwnChatLive(db, { visitor, chatId });
            if (now.chat.status !== state.status || now.chat.handled_by !== state.handled_by) {
              state = now.chat;
              sendChat(now.chat);
            }
            if (
              now.typing.on !== typing.on ||
              now.typing.expires_at !== typing.expires_at ||
              now.typing.status_text !== typing.status_text
            ) {
              // Sent when it goes on, changes or goes off; one that ran out goes off on the page by `seconds_left`.
              sendTyping(now.typing);
              typing = now.typing;
            }
          } while (again && !closed);
        } catch (err) {
          // The page reconnects and resumes from the last id it received.
          logger.warn('widget stream stopped', { err });
          close();
        } finally {
          pumping = false;
        }
      };

      // Subscribed before the first read, so a change committed in between is not missed.
      unsubscribe = subscribeChatChanges(chatId, () => void pump());
      // The client going away cancels the stream (below); a signal, where given, closes it too.
      signal?.addEventListener('abort', close, { once: true });
      heartbeat = setInterval(() => send(': keep-alive\n\n'), HEARTBEAT_MS);
      send('retry: 2000\n\n');
      sendChat(state);
      if (typing.on) sendTyping(typing);
      void pump();
    },
    cancel() {
      closed = true;
      unsubscribe();
      clearInterval(heartbeat);
    },
  });
}
