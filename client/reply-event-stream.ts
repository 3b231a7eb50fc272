import type { Message } from '@/contracts/bot/schemas/message';
import { type BotClient, toError } from './bot-client';

export type ReplyEventStreamOptions = {
  /** The status line shown with typing until the first words, e.g. "Thinking…". */
  statusText?: string;
  /** Status lines by tool name: `{ lookupOrder: 'Looking up your order…' }`. */
  statusLabels?: Record<string, string>;
  /** Stops sending (the reply is cut short with what the customer already has). */
  signal?: AbortSignal;
};

/**
 * What `sendReplyStream` takes: the AI SDK's `result.toUIMessageStreamResponse()` (a `Response`)
 * or `toUIMessageStream(...)` (a stream of UI message chunks), AG-UI events, or the raw bytes of
 * any such Server-Sent Events stream.
 */
export type ReplyEventSource =
  | Response
  | ReadableStream<Uint8Array>
  | ReadableStream<object>
  | AsyncIterable<object | Uint8Array>
  | Iterable<object | Uint8Array>;

/**
 * Sends a whole reply in one call, as the language-model framework streams it: the body of
 * POST /chats/{chat_id}/messages/stream is the framework's own event stream (AI SDK UI message
 * stream or AG-UI events). The customer sees typing, then the words as they come; the answer is
 * the final message. A refusal throws `BotApiError`; when the reply was cut short (the stream's
 * `error`, a handover, silence), `err.response.message` is what the customer was left with.
 */
export async function sendReplyStream(
  api: BotClient,
  chatId: string,
  source: ReplyEventSource,
  { statusText, statusLabels, signal }: ReplyEventStreamOptions = {},
): Promise<Message> {
  const query = new URLSearchParams();
  if (statusText) query.set('status_text', statusText);
  if (statusLabels && Object.keys(statusLabels).length) query.set('status_labels', JSON.stringify(statusLabels));
  const url = `${api.origin}/api/v1/chats/${encodeURIComponent(chatId)}/messages/stream${query.size ? `?${query}` : ''}`;
  const res = await fetch(url, {
    method: 'POST',
    headers: { access_token: await api.accessToken(), 'content-type': 'text/event-stream' },
    body: toBytes(source),
    // A request body sent as it is produced.
    duplex: 'half',
    signal,
  } as RequestInit & { duplex: 'half' });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not the envelope (a proxy's page): toError reports the HTTP status
  }
  const answer = { status: res.status, body, headers: res.headers };
  if (res.status >= 200 && res.status < 300) return (body as { response: Message }).response;
  throw toError(answer);
}

const encoder = new TextEncoder();

/** The source as Server-Sent Events bytes: objects become `data: <json>` events, bytes pass as they are. */
function toBytes(source: ReplyEventSource): ReadableStream<Uint8Array> {
  let stream: ReadableStream<object | Uint8Array> | null = null;
  if (source instanceof Response) {
    if (!source.body) throw new TypeError('the Response has no body');
    stream = source.body;
  } else if (source instanceof ReadableStream) stream = source as ReadableStream<object | Uint8Array>;
  const iterable: AsyncIterable<object | Uint8Array> | Iterable<object | Uint8Array> = stream
    ? streamIterable(stream)
    : (source as AsyncIterable<object | Uint8Array> | Iterable<object | Uint8Array>);
  let started = false;
  const it: AsyncIterator<object | Uint8Array> | Iterator<object | Uint8Array> =
    Symbol.asyncIterator in iterable ? iterable[Symbol.asyncIterator]() : iterable[Symbol.iterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      // A comment first, so the request leaves at once (typing shows before the model's first token).
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(': reply\n\n'));
        return;
      }
      const next = await it.next();
      if (next.done) {
        controller.close();
        return;
      }
      const v = next.value;
      controller.enqueue(v instanceof Uint8Array ? v : encoder.encode(`data: ${JSON.stringify(v)}\n\n`));
    },
    async cancel() {
      await it.return?.();
    },
  });
}

async function* streamIterable<T>(stream: ReadableStream<T>): AsyncIterable<T> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
