import { and, eq, sql } from 'drizzle-orm';
import type { Message } from '@/contracts/bot/schemas/message';
import type { Db } from '@/db/client';
import { messages } from '@/db/schema';
import { notHeld } from '@/lib/chats/require-held';
import { noteChatChange, withOutbox } from '@/lib/events/with-outbox';
import { supersededStream } from '@/lib/turns/reply-turn';
import { ApiError } from '@/platform/errors';
import { prepared } from '@/platform/util/prepared';
import { lastCustomerMessageId } from './append-message';
import { toMessageView } from './message-view';
import { heldBy, lookAtStream, streamReturning } from './stream-text';

/**
 * The VA closes its open streamed reply, optionally replacing the whole text, in one statement.
 * Closing again a stream it closed answers the message unchanged (a retry), unless the text differs.
 */
export async function closeStream(
  db: Db,
  {
    accountId,
    chatId,
    transid,
    actorUserId,
    text,
  }: { accountId: number; chatId: string; transid: string; actorUserId: number | null; text?: string },
): Promise<Message> {
  const row = await withOutbox(
    db,
    async (tx) => {
      const [closed] = await closeStatements[text === undefined ? 0 : 1][actorUserId === null ? 0 : 1](db).execute({
        transid,
        chatId,
        accountId,
        text: text ?? null,
        actor: actorUserId ?? 0,
      });
      if (!closed) return undefined;
      const { lastId, ...message } = closed;
      // The live views send the finished message now (a widget with nothing after it, from this change).
      noteChatChange(tx, chatId, accountId, {
        kind: 'stream-closed',
        messageId: message.id,
        message: { id: message.id, type: message.type, body: message.body, sentAt: message.sentAt },
        lastId: Number(lastId),
      });
      return message;
    },
    { oneStatement: true },
  );
  if (row) return toMessageView(row);

  const look = await lookAtStream(db, { accountId, chatId, transid });
  if (!look.chatFound) throw new ApiError(2031);
  if (actorUserId !== null && look.assigneeId !== actorUserId) throw notHeld(chatId, look.assigneeId === null);
  const m = look.message;
  if (!m) throw new ApiError(2044, { detail: `no message ${transid} in chat ${chatId}` });
  if (m.streamState === 'closed' && (text === undefined || text === m.body.text)) return toMessageView(m);
  if (m.streamState === 'superseded') throw supersededStream(m.turnId);
  throw new ApiError(2047, {
    detail:
      m.streamState === 'closed'
        ? 'the stream is already closed with another text'
        : m.streamState === 'cut_short'
          ? 'the stream was cut short (no chunk for STREAM_IDLE_SECONDS, or the chat left the VA)'
          : `message ${transid} is not a stream`,
  });
}

/**
 * The close in one statement, prepared once per database handle in its four forms (with or without
 * the final text; checked against the chat's holder or not): every streamed reply ends with it.
 */
function closeStatement(db: Db, withText: boolean, held: boolean) {
  const p = sql.placeholder;
  return db
    .update(messages)
    .set({
      streamState: 'closed',
      streamEnds: null,
      streamTouchedAt: sql`now()`,
      ...(withText ? { body: sql`jsonb_set(${messages.body}, '{text}', to_jsonb(${p('text')}::text))` } : {}),
    })
    .where(
      and(
        eq(messages.transid, p('transid')),
        eq(messages.chatId, p('chatId')),
        eq(messages.accountId, p('accountId')),
        eq(messages.streamState, 'open'),
        heldBy(p('chatId'), held ? p('actor') : null),
      ),
    )
    .returning({ id: messages.id, ...streamReturning, lastId: lastCustomerMessageId(p('chatId')) });
}
const closeStatements = [false, true].map((withText) =>
  [false, true].map((held) =>
    prepared(`stream_close${withText ? '_text' : ''}${held ? '_held' : ''}`, (db) => closeStatement(db, withText, held)),
  ),
);
