import type { Db } from '@/db/client';
import { followTranscript, requireCursorWithin } from '@/lib/chats/follow-transcript';
import { subscribeChatChanges } from '@/lib/events/chat-changes';
import { liveStream } from '@/platform/realtime/live-stream';
import type { EventStream } from '@/platform/realtime/sse-stream';
import { inspectChatDetails, readChatInspection } from './inspect-chat';

/** Least time between two reads of one chat for one page: changes other than chunks are read at most 10 times a second. */
const MIN_GAP_MS = 100;

/**
 * The console's live view of one chat as Server-Sent Events, sending what changed rather than the
 * chat: `chat` first (the whole answer of `GET /api/admin/chats/{chat_id}`, its id the
 * transcript's cursor), then each new or changed message as `message` (upserted by transid), each
 * chunk of a streamed reply as `chunk`, and `details` (the answer without its transcript: facts,
 * events with their attempts, handover, approvals) when they change. It wakes on the chat's
 * realtime topic (`chat:<id>`, on any instance); a chunk made in this process is sent from its
 * wake without a read, any other wake reads the transcript from its cursor and the details, never
 * the whole transcript (lib/chats/follow-transcript.ts). Resumed with `after` (the client's
 * Last-Event-ID): no `chat`, the messages after it again. Throws (3006) before streaming when the
 * chat is not of `accountId`.
 */
export async function streamAdminChat(
  db: Db,
  { accountId, chatId, after, signal }: { accountId: number; chatId: string; after?: number; signal?: AbortSignal },
): Promise<EventStream> {
  const first = after === undefined ? await readChatInspection(db, { accountId, chatId }) : undefined;
  const transcript = followTranscript(db, { chatId, after: after ?? 0 });
  let lastDetails = '';
  if (first) {
    transcript.seed(first.seen);
    const { messages: _transcript, ...details } = first.view;
    lastDetails = JSON.stringify(details);
  } else {
    // Refuses a chat of another account before streaming, as the first read does.
    lastDetails = JSON.stringify(await inspectChatDetails(db, { accountId, chatId }));
    await requireCursorWithin(db, { chatId, after: after ?? 0 });
  }
  const resumed = !first;
  let sentDetails = false;
  return liveStream({
    what: 'admin chat',
    signal,
    minGapMs: MIN_GAP_MS,
    subscribe: (wake, send) => [
      subscribeChatChanges(chatId, (change) => {
        if (!transcript.take(change, send)) wake();
      }),
    ],
    opening: (send) => {
      if (first) send('chat', first.view, transcript.cursor);
    },
    read: async (send) => {
      await transcript.read(send);
      const details = await inspectChatDetails(db, { accountId, chatId });
      const text = JSON.stringify(details);
      // A resumed page gets the details once whatever they are (what it holds may be older than the refusal check's read).
      if (text !== lastDetails || (resumed && !sentDetails)) {
        lastDetails = text;
        sentDetails = true;
        send('details', details);
      }
    },
  });
}
