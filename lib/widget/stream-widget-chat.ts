import type { WidgetChat } from '@/contracts/schemas/widget';
import type { Db } from '@/db/client';
import { subscribeChatChanges } from '@/lib/events/chat-changes';
import { logger } from '@/lib/util/logger';
import { widgetMessagesAfter } from './list-widget-messages';
import type { WidgetVisitorAuth } from './types';
import { loadOwnChat, toWidgetMessage } from './widget-chat-view';

const HEARTBEAT_MS = 25_000;
const BATCH = 100;
const encoder = new TextEncoder();

/**
 * The customer's live view of their chat as Server-Sent Events: `chat` (status and who answers)
 * when it changes, and each `message` with its id as the event id. It starts after `after` (the
 * last message the page holds, or the `Last-Event-ID` of a reconnect), so a reconnect loses and
 * repeats nothing. Every wake re-reads from the database after the last id sent; the wake itself
 * carries nothing, so a missed one is made up by the next and a doubled one sends nothing twice.
 * Throws (2031) before streaming when the chat is not the customer's.
 */
export async function streamWidgetChat(
  db: Db,
  { visitor, chatId, after, signal }: { visitor: WidgetVisitorAuth; chatId: string; after: number; signal: AbortSignal },
): Promise<ReadableStream<Uint8Array>> {
  let state = await loadOwnChat(db, { visitor, chatId });
  let cursor = after;
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
              for (const row of rows) {
                send(`id: ${row.id}\nevent: message\ndata: ${JSON.stringify(toWidgetMessage(row))}\n\n`);
                cursor = row.id;
              }
              if (rows.length < BATCH || closed) break;
            }
            const now = await loadOwnChat(db, { visitor, chatId });
            if (now.status !== state.status || now.handled_by !== state.handled_by) {
              state = now;
              sendChat(now);
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
      signal.addEventListener('abort', close, { once: true });
      heartbeat = setInterval(() => send(': keep-alive\n\n'), HEARTBEAT_MS);
      send('retry: 2000\n\n');
      sendChat(state);
      void pump();
    },
    cancel() {
      closed = true;
      unsubscribe();
      clearInterval(heartbeat);
    },
  });
}
