import { and, eq, sql } from 'drizzle-orm';
import type { Message } from '@/contracts/schemas/message';
import type { Db } from '@/db/client';
import { messages } from '@/db/schema';
import { notHeld } from '@/lib/chats/require-held';
import { ApiError } from '@/lib/errors';
import { publishChatChanges } from '@/lib/events/chat-changes';
import { toMessageView } from './message-view';
import { heldBy, lookAtStream, MAX_TEXT_LENGTH, streamReturning } from './stream-text';

/**
 * Appends chunk `seq` to an open streamed reply in one statement: the text grows inside the
 * message row, `stream_seq` must be `seq - 1` (so chunks land in order, once) and `stream_ends`
 * records where the chunk ends, which is how a retried chunk is recognised later. No row is
 * written per chunk; the chat's live views are woken on its topic. When the statement matches nothing, a read says why: a retry of an accepted
 * chunk with the same text answers the message unchanged; anything else is refused with its code.
 */
export async function appendChunk(
  db: Db,
  {
    accountId,
    chatId,
    transid,
    actorUserId,
    seq,
    text,
  }: { accountId: number; chatId: string; transid: string; actorUserId: number | null; seq: number; text: string },
): Promise<{ message: Message; appended: boolean }> {
  for (let round = 0; round < 3; round++) {
    const [row] = await db
      .update(messages)
      .set({
        body: sql`jsonb_set(${messages.body}, '{text}', to_jsonb(coalesce(${messages.body}->>'text', '') || ${text}::text))`,
        streamSeq: sql`${messages.streamSeq} + 1`,
        streamEnds: sql`array_append(${messages.streamEnds}, ${messages.streamEnds}[cardinality(${messages.streamEnds})] + ${text.length}::int)`,
        streamTouchedAt: sql`now()`,
      })
      .where(
        and(
          eq(messages.transid, transid),
          eq(messages.chatId, chatId),
          eq(messages.accountId, accountId),
          eq(messages.streamState, 'open'),
          eq(messages.streamSeq, seq - 1),
          sql`${messages.streamEnds}[cardinality(${messages.streamEnds})] + ${text.length}::int <= ${MAX_TEXT_LENGTH}`,
          heldBy(chatId, actorUserId),
        ),
      )
      .returning(streamReturning);
    if (row) {
      // The chat's live views read the new chunk (the widget and the workspace show the text growing).
      publishChatChanges(new Map([[chatId, accountId]]));
      return { message: toMessageView(row), appended: true };
    }

    const look = await lookAtStream(db, { accountId, chatId, transid });
    if (!look.chatFound) throw new ApiError(2031);
    if (actorUserId !== null && look.assigneeId !== actorUserId) throw notHeld(chatId, look.assigneeId === null);
    const m = look.message;
    if (!m) throw new ApiError(2044, { detail: `no message ${transid} in chat ${chatId}` });
    if (m.streamState !== 'open') {
      throw new ApiError(2047, {
        detail: m.streamState
          ? `the stream is ${m.streamState === 'cut_short' ? 'cut short' : 'closed'}`
          : `message ${transid} is not a stream`,
      });
    }
    const last = m.streamSeq ?? 0;
    const ends = m.streamEnds ?? [];
    if (seq <= last) {
      const accepted = String(m.body.text ?? '').slice(ends[seq - 1], ends[seq]);
      if (accepted === text) return { message: toMessageView(m), appended: false };
      throw new ApiError(2045, {
        detail: `chunk ${seq} was accepted with another text`,
        errors: [{ field: 'text', message: `differs from the text accepted for seq ${seq}` }],
      });
    }
    if (seq > last + 1) {
      throw new ApiError(2046, {
        detail: `the next chunk is seq ${last + 1}`,
        errors: [{ field: 'seq', message: `expected ${last + 1}` }],
      });
    }
    if ((ends.at(-1) ?? 0) + text.length > MAX_TEXT_LENGTH) {
      throw new ApiError(2048, {
        detail: `the stream holds ${ends.at(-1) ?? 0} characters and this chunk adds ${text.length}`,
        errors: [{ field: 'text', message: `the whole text would exceed ${MAX_TEXT_LENGTH} characters` }],
      });
    }
    // Another request changed the stream between the write and the read: try again.
  }
  throw new ApiError(2046, { detail: 'the stream kept changing; send the chunk again' });
}
