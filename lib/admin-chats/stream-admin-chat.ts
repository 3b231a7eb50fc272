import type { Db } from '@/db/client';
import { subscribeChatChanges } from '@/lib/events/chat-changes';
import { liveStream } from '@/platform/realtime/live-stream';
import { inspectChat } from './inspect-chat';

/** Least time between two reads of one chat for one page: a reply streaming at 20 chunks/s costs at most 10 reads a second. */
const MIN_GAP_MS = 100;

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
  const first = await inspectChat(db, { accountId, chatId });
  let last = JSON.stringify(first);
  return liveStream({
    what: 'admin chat',
    signal,
    minGapMs: MIN_GAP_MS,
    subscribe: (wake) => [subscribeChatChanges(chatId, wake)],
    opening: (send) => send('chat', first),
    read: async (send) => {
      const now = await inspectChat(db, { accountId, chatId });
      const text = JSON.stringify(now);
      if (text !== last) {
        last = text;
        send('chat', now);
      }
    },
  });
}
