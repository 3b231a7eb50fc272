import type { PulledEvent } from '@/contracts/bot/schemas/pulled-event';
import { verifyWebhook, type WebhookEvent } from './webhooks';

export type { PulledEvent };

/**
 * Checks a pulled event (from `GET /events` or the stream) exactly as a webhook delivery: the
 * Standard Webhooks signature over `body` with its `webhook_*` fields. Returns the event; throws
 * `WebhookVerificationError` when it does not verify.
 */
export function verifyPulledEvent(secret: string, item: PulledEvent): { id: string; event: WebhookEvent } {
  return verifyWebhook(secret, item.body, {
    'webhook-id': item.webhook_id,
    'webhook-timestamp': item.webhook_timestamp,
    'webhook-signature': item.webhook_signature,
  });
}

export type EventStreamOptions = {
  /** Start after this cursor; omitted: after the VA's acknowledged position. */
  after?: string;
  /** Ends the stream (the iterator returns). */
  signal?: AbortSignal;
  /** Wait before reconnecting after the stream ended or failed, in ms (default 1000, doubled up to 30 s while it keeps failing). */
  reconnectMs?: number;
};

type StreamDeps = { origin: string; accessToken: (force?: boolean) => Promise<string>; fetch?: typeof fetch };

/** Codes after which reconnecting cannot help: the cursor is wrong or gone. */
const FINAL_CODES = new Set([2060, 2061, 2063, 2064]);

/**
 * `GET /events/stream` as an async iterator of pulled events that survives disconnects: when the
 * stream ends (a server shutting down, a network cut) it reconnects with `Last-Event-ID` set to the
 * last cursor received, so nothing is missed or repeated. A refused token is renewed once per
 * connection; too many streams (2062) and server errors are retried after a pause; a bad or
 * expired or never issued cursor (2060, 2061, 2063, 2064) throws. Streaming acknowledges nothing: call
 * `events.ackEvents({ body: { cursor } })` as you finish events.
 */
export async function* streamEvents(deps: StreamDeps, options: EventStreamOptions = {}): AsyncGenerator<PulledEvent> {
  const doFetch = deps.fetch ?? fetch;
  let last = options.after;
  const base = options.reconnectMs ?? 1_000;
  let pause = base;
  while (!options.signal?.aborted) {
    let res: Response | undefined;
    try {
      for (const force of [false, true]) {
        const headers: Record<string, string> = { accept: 'text/event-stream', access_token: await deps.accessToken(force) };
        if (last) headers['last-event-id'] = last;
        res = await doFetch(`${deps.origin}/api/v1/events/stream`, { headers, signal: options.signal });
        if (res.status === 200) break;
        const body = (await res.json().catch(() => null)) as { status_code?: number; description?: string } | null;
        const code = body?.status_code;
        if (code !== undefined && FINAL_CODES.has(code)) throw new Error(`${code} ${body?.description ?? ''}`.trim());
        if (!(code === 2003 || code === 2004) || force) {
          res = undefined;
          break;
        }
      }
      if (res?.body) {
        for await (const frame of frames(res.body)) {
          if (frame.data === undefined) continue;
          const item = JSON.parse(frame.data) as PulledEvent;
          last = item.cursor;
          pause = base;
          yield item;
        }
      }
    } catch (err) {
      if (options.signal?.aborted) return;
      if (err instanceof Error && /^20(60|61|63)\b/.test(err.message)) throw err;
    }
    if (options.signal?.aborted) return;
    await sleep(pause, options.signal);
    pause = Math.min(pause * 2, 30_000);
  }
}

type Frame = { id?: string; event?: string; data?: string };

/** Server-Sent Events frames of a response body. */
async function* frames(body: ReadableStream<Uint8Array>): AsyncGenerator<Frame> {
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      for (let i = buffer.indexOf('\n\n'); i !== -1; i = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        const frame: Frame = {};
        for (const line of block.split('\n')) {
          if (!line || line.startsWith(':')) continue;
          const at = line.indexOf(':');
          const name = at === -1 ? line : line.slice(0, at);
          const value = at === -1 ? '' : line.slice(at + 1).replace(/^ /, '');
          if (name === 'id' || name === 'event') frame[name] = value;
          else if (name === 'data') frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
        }
        yield frame;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
