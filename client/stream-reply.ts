import type { Message } from '@/contracts/bot/schemas/message';
import { BotApiError, type BotClient, responseOf } from './bot-client';

export type StreamReplyOptions = {
  /** The reply's Idempotency-Key: a retried call (e.g. a redelivered event) opens the same stream, not a second one. */
  idempotencyKey?: string;
  /** Shown with the typing indicator until the first words arrive, e.g. "Looking up your order…". */
  statusText?: string;
  /** Attempts per chunk on a network error or a 5xx (default 3); a repeated chunk is a no-op on the service. */
  attempts?: number;
  /** The `turn_id` of the event answered: with `on_new_turn: supersede`, a newer turn ends the stream (2101). */
  inReplyToTurn?: string;
};

/**
 * Streams a reply as it is produced (a language model's tokens, for instance): shows typing with
 * an optional status line, opens a streamed message, appends each piece as chunk 1, 2, 3… (a chunk
 * that fails on the way is sent again with the same `seq`, which the service takes once), and
 * closes it. Answers the final message. If the chat leaves the VA meanwhile, the service refuses
 * the next chunk (2043 or 2047) and this throws that `BotApiError`: stop, the chat is not yours. A
 * stream superseded by the customer's next turn throws 2101: stop, the next event has the new turn.
 */
export async function streamReply(
  api: BotClient,
  chatId: string,
  pieces: AsyncIterable<string> | Iterable<string>,
  { idempotencyKey, statusText, attempts = 3, inReplyToTurn }: StreamReplyOptions = {},
): Promise<Message> {
  responseOf(await api.chats.setTyping({ params: { chat_id: chatId }, body: { on: true, ttl_seconds: 15, status_text: statusText } }));
  const opened = responseOf(
    await api.messages.postMessage({
      params: { chat_id: chatId },
      headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
      body: { type: 'outbound', stream: true, ...(inReplyToTurn ? { in_reply_to_turn: inReplyToTurn } : {}) },
    }),
  );
  let seq = opened.stream_seq ?? 0;
  const params = { chat_id: chatId, transid: opened.transid };
  for await (const text of pieces) {
    if (!text) continue;
    seq += 1;
    for (let attempt = 1; ; attempt++) {
      try {
        responseOf(await api.messages.appendChunk({ params, body: { seq, text } }));
        break;
      } catch (err) {
        const retriable = !(err instanceof BotApiError) || err.httpStatus >= 500;
        if (!retriable || attempt >= attempts) throw err;
      }
    }
  }
  return responseOf(await api.messages.closeStream({ params, body: { stream_state: 'closed' } }));
}
