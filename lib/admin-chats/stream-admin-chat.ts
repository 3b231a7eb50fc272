import type { Db } from '@/db/client';
import { subscribeChatChanges } from '@/lib/events/chat-changes';
import { logger } from '@/lib/util/logger';
import { inspectChat } from './inspect-chat';

const HEARTBEAT_MS = 25_000;
/** Least time between two reads of one chat for one page: a reply streaming at 20 chunks/s costs at most 10 reads a second. */
const MIN_GAP_MS = 100;
const encoder = new TextEncoder();

/**
 * The console's live view of one chat as Server-Sent Events: `chat` events, each the whole admin
 * chat answer (the same as `GET /api/admin/chats/{chat_id}`), sent when it changed. It wakes on the
 * chat's realtime topic (`chat:<id>`: a message, a typing call, a stream's chunk, close or cut, a
 * status or assignee change, on any instance) and re-reads the chat; wakes that come while a read
 * runs are folded into the next one, so a burst of chunks costs a few reads and the page always
 * ends on the latest state. Throws (3006) before streaming when the chat is not of `accountId`.
 */
export async function streamAdminChat(
  db: Db,
  { accountId, chatId, signal }: { accountId: number; chatId: string; signal: AbortSignal },
): Promise<ReadableStream<Uint8Array>> {
  let last = JSON.stringify(await inspectChat(db, { accountId, chatId }));
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
      const pump = async () => {
        if (pumping) {
          again = true;
          return;
        }
        pumping = true;
        try {
          do {
            again = false;
            const started = Date.now();
            const now = JSON.stringify(await inspectChat(db, { accountId, chatId }));
            if (now !== last && !closed) {
              last = now;
              send(`event: chat\ndata: ${now}\n\n`);
            }
            const wait = MIN_GAP_MS - (Date.now() - started);
            if (again && wait > 0) await new Promise((r) => setTimeout(r, wait));
          } while (again && !closed);
        } catch (err) {
          // The page's EventSource reconnects and starts from the whole chat again.
          logger.warn('admin chat stream stopped', { err });
          close();
        } finally {
          pumping = false;
        }
      };
      unsubscribe = subscribeChatChanges(chatId, () => void pump());
      signal.addEventListener('abort', close, { once: true });
      heartbeat = setInterval(() => send(': keep-alive\n\n'), HEARTBEAT_MS);
      send('retry: 2000\n\n');
      send(`event: chat\ndata: ${last}\n\n`);
      // A change committed between the first read and the subscription is read now.
      void pump();
    },
    cancel() {
      closed = true;
      unsubscribe();
      clearInterval(heartbeat);
    },
  });
}
