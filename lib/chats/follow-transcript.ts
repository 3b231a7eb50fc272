import { and, asc, desc, eq, gt } from 'drizzle-orm';
import type { Message } from '@/contracts/bot/schemas/message';
import type { Db } from '@/db/client';
import { messages } from '@/db/schema';
import type { ChatChange } from '@/lib/events/chat-changes';
import { ApiError } from '@/platform/errors';
import { toMessageView } from './message-view';

const BATCH = 100;

/** A chunk of an open streamed reply, for a view that holds the reply (by `transid`) up to `seq - 1`. */
type TranscriptChunk = { transid: string; seq: number; text: string };
/** How a follower sends: `message` (upsert by transid; `id` the resume cursor when it moved) or `chunk`. */
export type TranscriptSend = {
  (event: 'message', data: Message, id?: number): void;
  (event: 'chunk', data: TranscriptChunk): void;
};
/** What a snapshot of the transcript told of each message, to follow on from it. */
export type SeenMessage = { id: number; transid: string; streamState: string | null; streamSeq: number | null };

/**
 * The transcript's messages after message `after`, oldest first, through `messages_chat_idx`
 * (chat_id, id) as the widget's reads: the statement behind each read of a follower.
 */
function transcriptAfter(db: Db, { chatId, after, limit }: { chatId: string; after: number; limit: number }) {
  return db
    .select({
      id: messages.id,
      transid: messages.transid,
      type: messages.type,
      body: messages.body,
      authorLoginId: messages.authorLoginId,
      sentAt: messages.sentAt,
      streamState: messages.streamState,
      streamSeq: messages.streamSeq,
      streamEnds: messages.streamEnds,
    })
    .from(messages)
    .where(and(eq(messages.chatId, chatId), gt(messages.id, after)))
    .orderBy(asc(messages.id))
    .limit(limit);
}

/**
 * Refuses (2087) a resume cursor past the chat's newest message: no stream sent it, and following
 * from it would skip the messages up to it without a word. One index read (`messages_chat_idx`,
 * newest first). Called before a stream opens with a client's `Last-Event-ID` or `after`.
 */
export async function requireCursorWithin(db: Db, { chatId, after }: { chatId: string; after: number }): Promise<void> {
  if (after <= 0) return;
  const [newest] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(eq(messages.chatId, chatId))
    .orderBy(desc(messages.id))
    .limit(1);
  const refusal = cursorRefusal(after, newest?.id ?? null);
  if (refusal) throw refusal;
}

/** `requireCursorWithin`'s answer for a newest message id read elsewhere (null: the chat has none): the 2087 to throw, or null. */
export function cursorRefusal(after: number, newestId: number | null): ApiError | null {
  if (after <= 0 || (newestId !== null && after <= newestId)) return null;
  return new ApiError(2087, {
    detail:
      newestId !== null
        ? `the cursor ${after} is past this chat's newest message (${newestId})`
        : `the cursor ${after} is given, but this chat has no message yet`,
  });
}

/**
 * Follows a chat's whole transcript (announcements included) for a live view of people (the
 * workspace, the console's chat page), sending what changed rather than the chat: each new or
 * changed message once as `message` (the view upserts it by transid), and each chunk of an open
 * streamed reply once and in order as `chunk`. The cursor is the last message id up to which
 * everything is final and sent; it stops before an open reply, so a reply that closes is sent
 * again whole. `message` frames carry the cursor as their id when it moved: a reconnect with it as
 * `Last-Event-ID` resends what came after it (the view's upsert makes a repeat harmless) and an
 * open reply whole, so a gap (a lost wake, another instance, a dropped connection) is caught up by
 * the next read and never leaves the view silent.
 *
 * `take(change)`: a change made in this process; a chunk that is the next of a reply this view
 * holds is sent from it without a read (answers true). Anything else: `read()`, from the cursor.
 */
export function followTranscript(db: Db, { chatId, after }: { chatId: string; after: number }) {
  let cursor = after;
  /** Final messages after the cursor already sent (they stand after an open reply). */
  const sent = new Set<number>();
  /** Open replies this view holds: the last seq it has. */
  const open = new Map<number, { transid: string; seq: number }>();

  const advance = (upTo: number) => {
    const firstOpen = Math.min(...open.keys());
    const next = Number.isFinite(firstOpen) ? Math.min(firstOpen - 1, upTo) : upTo;
    if (next <= cursor) return false;
    cursor = next;
    for (const id of sent) if (id <= cursor) sent.delete(id);
    return true;
  };

  return {
    get cursor() {
      return cursor;
    },
    /** Starts from a snapshot the view already has (its last `upTo` message id and what was open in it). */
    seed(seen: SeenMessage[]) {
      for (const m of seen) {
        if (m.id <= cursor) continue;
        if (m.streamState === 'open') open.set(m.id, { transid: m.transid, seq: m.streamSeq ?? 0 });
        else sent.add(m.id);
      }
      advance(Math.max(cursor, ...seen.map((m) => m.id)));
    },
    take(change: ChatChange | undefined, send: TranscriptSend): boolean {
      if (change?.kind !== 'chunk') return false;
      const held = open.get(change.messageId);
      if (held?.seq !== change.seq - 1) return false;
      send('chunk', { transid: held.transid, seq: change.seq, text: change.text });
      held.seq = change.seq;
      return true;
    },
    async read(send: TranscriptSend): Promise<void> {
      for (let from = cursor; ; ) {
        const rows = await transcriptAfter(db, { chatId, after: from, limit: BATCH });
        for (const row of rows) {
          from = row.id;
          if (row.streamState === 'open') {
            const held = open.get(row.id);
            if (!held) {
              open.set(row.id, { transid: row.transid, seq: row.streamSeq ?? 0 });
              send('message', toMessageView(row));
              continue;
            }
            const ends = row.streamEnds ?? [];
            const full = String(row.body.text ?? '');
            for (let seq = held.seq + 1; seq <= Math.min(row.streamSeq ?? 0, ends.length - 1); seq++) {
              send('chunk', { transid: row.transid, seq, text: full.slice(seq === 0 ? 0 : ends[seq - 1], ends[seq]) });
              held.seq = seq;
            }
            continue;
          }
          if (sent.has(row.id)) continue;
          open.delete(row.id);
          sent.add(row.id);
          const moved = advance(row.id);
          send('message', toMessageView(row), moved ? cursor : undefined);
        }
        if (rows.length < BATCH) break;
      }
    },
  };
}
