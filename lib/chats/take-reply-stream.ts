import type { Message } from '@/contracts/bot/schemas/message';
import type { Db } from '@/db/client';
import { env } from '@/env';
import { setTyping } from '@/lib/chats/set-typing';
import { ApiError } from '@/platform/errors';
import { appendChunk } from './append-chunk';
import { appendMessage } from './append-message';
import { closeStream } from './close-stream';
import { cutStream } from './cut-streams';
import { partsOf, type ReplyPart, sseDecoder } from './reply-stream-parts';

/**
 * The text as a message can hold it: a NUL or an unpaired surrogate in a model's output (the API
 * refuses both in a chunk, 2000) becomes U+FFFD, one UTF-16 unit for one, so lengths are kept. The
 * platform's `toWellFormed` replaces the unpaired surrogates; NUL, well formed but not storable in
 * PostgreSQL's text, is ours. Applied to what is sent, not to each event's delta: a pair split over
 * two deltas that arrive together is whole again by then.
 */
const storable = (text: string) => text.toWellFormed().replaceAll('\u0000', '\uFFFD');

export type ReplyStreamLimits = {
  /** No byte for this long cuts the reply short (2133): STREAM_IDLE_SECONDS, as between chunks. */
  idleMs: number;
  /** The whole stream's longest time (2133): REPLY_STREAM_MAX_SECONDS. */
  maxMs: number;
  /** One event's largest `data` (2008): MAX_BODY_BYTES. */
  maxEventBytes: number;
  /** The whole body's largest size (2008). */
  maxBytes: number;
};

/** The largest reply stream: reasoning and tool events pass through it beside the 4096 characters of text. */
const MAX_STREAM_BYTES = 8 * 1024 * 1024;

export function replyStreamLimits(): ReplyStreamLimits {
  const e = env();
  return {
    idleMs: e.STREAM_IDLE_SECONDS * 1000,
    maxMs: e.REPLY_STREAM_MAX_SECONDS * 1000,
    maxEventBytes: e.MAX_BODY_BYTES,
    maxBytes: MAX_STREAM_BYTES,
  };
}

export type TakeReplyStreamInput = {
  accountId: number;
  chatId: string;
  actorUserId: number;
  actorLoginId: string;
  /** The request's body as it arrives: Server-Sent Events. */
  body: AsyncIterable<Uint8Array>;
  /** The status line while the bot works before its first words (and for tools without a label). */
  statusText?: string;
  /** Status lines by tool name: a tool call shows its label in the typing indicator's status line. */
  statusLabels?: Record<string, string>;
  limits: ReplyStreamLimits;
};

/** Typing shown while a stream is read: long enough for a tool call, cleared when the stream ends. */
const TYPING_SECONDS = 60;

/**
 * A reply sent as one event stream (an AI SDK UI message stream or AG-UI events) becomes a
 * streamed reply, with the same rules as one sent chunk by chunk: typing with the status line
 * first, the text deltas as chunks of one streamed message (those read together sent as one
 * chunk), a tool call's label as the status line, reasoning and data skipped, `finish` closing
 * it. Ownership is checked before a byte is read and again by every chunk, so a handover (which
 * cuts the stream) stops the reading with 2043 or 2047. Anything that ends the stream early (its
 * `error` event, the body ending without `finish`, silence, a bad event) cuts the reply short with
 * the text already sent, and the refusal carries that message as `response.message`.
 */
export async function takeReplyStream(db: Db, input: TakeReplyStreamInput): Promise<Message> {
  const { accountId, chatId, actorUserId, actorLoginId, statusText, statusLabels = {}, limits } = input;
  const typing = (status: string | undefined) =>
    setTyping(db, { accountId, chatId, actorUserId, input: { on: true, ttl_seconds: TYPING_SECONDS, status_text: status } });
  // Before reading: the chat is this VA's and open (2031, 2040, 2043), and the customer sees it working.
  await typing(statusText);
  let status = statusText;
  let transid: string | null = null;
  let seq = 0;
  let sent = 0;
  let sendFailed = false;

  const send = async (raw: string) => {
    if (!raw) return;
    const text = storable(raw);
    sendFailed = true;
    if (transid === null) {
      const { message } = await appendMessage(db, {
        accountId,
        chatId,
        actorLoginId,
        actorUserId,
        input: { type: 'outbound', stream: true },
      });
      transid = message.transid;
      seq = message.stream_seq ?? 0;
    }
    seq += 1;
    await appendChunk(db, { accountId, chatId, transid, actorUserId, seq, text });
    sent += text.length;
    sendFailed = false;
  };

  let pending = '';
  /** Applies one part; answers the final message on `finish`. */
  const apply = async (part: ReplyPart): Promise<Message | undefined> => {
    if (part.kind === 'text') pending += part.text;
    else if (part.kind === 'tool') {
      const label = statusLabels[part.name] ?? statusText;
      if (label && label !== status) {
        await send(pending);
        pending = '';
        status = label;
        await typing(label);
      }
    } else if (part.kind === 'finish') {
      await send(pending);
      pending = '';
      if (transid === null) throw new ApiError(2130);
      const final = await closeStream(db, { accountId, chatId, transid, actorUserId });
      await typingOff();
      return final;
    } else if (part.kind === 'error') {
      await send(pending);
      pending = '';
      throw new ApiError(transid === null ? 2130 : 2134, { detail: `the customer has ${sent} characters of it` });
    }
    return undefined;
  };

  const typingOff = () =>
    setTyping(db, { accountId, chatId, actorUserId, input: { on: false } }).catch(() => {
      // The chat left the VA or closed meanwhile: its typing is already gone.
    });

  try {
    const decoder = sseDecoder(limits.maxEventBytes);
    const counter = { n: 0 };
    for await (const bytes of bounded(input.body, limits)) {
      for (const part of partsOf(decoder.push(bytes), counter)) {
        const final = await apply(part);
        if (final) return final;
      }
      // What arrived together goes as one chunk.
      await send(pending);
      pending = '';
    }
    for (const part of partsOf(decoder.end(), counter)) {
      const final = await apply(part);
      if (final) return final;
    }
    await send(pending);
    throw new ApiError(transid === null ? 2130 : 2132, { detail: `the customer has ${sent} characters of it` });
  } catch (err) {
    // The words read before the failure still reach the customer (unless sending them is what failed).
    if (!sendFailed) await send(pending).catch(() => {});
    const message = transid === null ? null : await cutStream(db, { accountId, chatId, transid }).catch(() => null);
    await typingOff();
    // The refusal shows what the customer was left with.
    if (err instanceof ApiError && message) Object.assign(err, { extra: { ...err.extra, message } });
    throw err;
  }
}

/**
 * The body's chunks within the stream's limits: silence past `idleMs` or a stream longer than
 * `maxMs` is 2133, more than `maxBytes` in all is 2008, and a connection lost before the end is 2132.
 */
async function* bounded(body: AsyncIterable<Uint8Array>, limits: ReplyStreamLimits): AsyncIterable<Uint8Array> {
  const it = body[Symbol.asyncIterator]();
  const deadline = Date.now() + limits.maxMs;
  let total = 0;
  try {
    for (;;) {
      const left = deadline - Date.now();
      const wait = Math.min(limits.idleMs, left);
      if (wait <= 0) throw new ApiError(2133, { detail: `the stream took longer than ${limits.maxMs / 1000} s` });
      let timer: NodeJS.Timeout | undefined;
      const quiet = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new ApiError(2133, {
                detail:
                  wait < limits.idleMs
                    ? `the stream took longer than ${limits.maxMs / 1000} s`
                    : `nothing arrived for ${limits.idleMs / 1000} s`,
              }),
            ),
          wait,
        );
      });
      let next: IteratorResult<Uint8Array>;
      try {
        next = await Promise.race([it.next(), quiet]);
      } catch (err) {
        if (err instanceof ApiError) throw err;
        throw new ApiError(2132, { detail: 'the connection closed before the end of the stream' });
      } finally {
        clearTimeout(timer);
      }
      if (next.done) return;
      total += next.value.byteLength;
      if (total > limits.maxBytes) throw new ApiError(2008, { detail: `a reply stream holds at most ${limits.maxBytes} bytes` });
      yield next.value;
    }
  } finally {
    // Not awaited: a read still pending (after silence) would hold the answer back.
    void Promise.resolve(it.return?.()).catch(() => {});
  }
}
