import type { Message } from '@/contracts/bot/schemas/message';
import type { Db } from '@/db/client';
import { notHeld } from '@/lib/chats/require-held';
import { noteChatChange, withOutbox } from '@/lib/events/with-outbox';
import { supersededStream } from '@/lib/turns/reply-turn';
import { ApiError } from '@/platform/errors';
import { streamAppends } from './append-batch';
import { toMessageView } from './message-view';
import { lookAtStream, MAX_TEXT_LENGTH } from './stream-text';

/**
 * Appends chunk `seq` to an open streamed reply in one statement: the text grows inside the
 * message row, `stream_seq` must be `seq - 1` (so chunks land in order, once) and `stream_ends`
 * records where the chunk ends, which is how a retried chunk is recognised later. No row is
 * written per chunk; the chat's live views are woken on its topic with the chunk. When the statement matches nothing, a read says why: a retry of an accepted
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
    // One statement, its own transaction or a batch's (lib/chats/append-batch.ts), on the pool's handle (`db`).
    const row = await withOutbox(
      db,
      async (tx) => {
        const appended = await streamAppends.run(db, {
          transid,
          chatId,
          accountId,
          after: seq - 1,
          text,
          length: text.length,
          actor: actorUserId,
        });
        // The chat's live views get the chunk itself: a widget following this stream sends it on
        // without reading the database (the others, and other instances, read as on any change).
        if (appended) noteChatChange(tx, chatId, accountId, { kind: 'chunk', messageId: appended.id, seq, text });
        return appended;
      },
      { oneStatement: true },
    );
    if (row) return { message: toMessageView(row), appended: true };

    const look = await lookAtStream(db, { accountId, chatId, transid });
    if (!look.chatFound) throw new ApiError(2031);
    if (actorUserId !== null && look.assigneeId !== actorUserId) throw notHeld(chatId, look.assigneeId === null);
    const m = look.message;
    if (!m) throw new ApiError(2044, { detail: `no message ${transid} in chat ${chatId}` });
    if (m.streamState === 'superseded') throw supersededStream(m.turnId);
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
