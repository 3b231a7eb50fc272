import type { Readable } from 'node:stream';
import { nowMs } from './clock';

/**
 * The one Server-Sent Events reader of the tests and benches. It reads a fetch or in-process
 * answer's body (a web stream) or a node:http answer (cheaper per stream, for benches holding
 * thousands), splits it into frames and stamps each with the moment its bytes arrived.
 *
 * Tests wait with `next`, `events` and `until`; every wait is bounded and fails naming what did not
 * come and what did. Benches pass `onFrame` (and `keep: false` to hold nothing per stream).
 */

/** One frame: `data` as sent (lines joined), `json` its parse when it is JSON, `comment` a `:` line. */
export type SseFrame = { event: string; id?: string; data?: string; json?: any; comment?: string; at: number };
/** A frame that carries data (an event). */
export type SseEvent = SseFrame & { data: string };

export type SseSource = Response | ReadableStream<Uint8Array> | Readable;
export type WaitOptions = { timeoutMs?: number; what?: string };

const DEFAULT_TIMEOUT_MS = 10_000;

/** Splits text into frames; `push` returns nothing, each complete frame goes to `onFrame`. */
function sseParser(onFrame: (frame: SseFrame) => void) {
  let buffer = '';
  return (text: string, at: number) => {
    buffer += text;
    for (let cut = buffer.indexOf('\n\n'); cut !== -1; cut = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const frame: SseFrame = { event: 'message', at };
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) {
          frame.comment = line.slice(1).trim();
          continue;
        }
        const colon = line.indexOf(':');
        const name = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (name === 'event') frame.event = value;
        else if (name === 'id') frame.id = value;
        else if (name === 'data') data.push(value);
      }
      if (data.length) {
        frame.data = data.join('\n');
        try {
          frame.json = JSON.parse(frame.data);
        } catch {
          // not JSON: `data` keeps the text
        }
      }
      onFrame(frame);
    }
  };
}

export type SseReader = ReturnType<typeof readSse>;

/**
 * Reads `source` until it ends or `close()`. `onFrame` sees every frame as it comes; with `keep`
 * (the default) frames are also kept in `frames` for the waits below.
 */
export function readSse(
  source: SseSource,
  { onFrame, keep = true, close: closeSource }: { onFrame?: (f: SseFrame) => void; keep?: boolean; close?: () => void } = {},
) {
  const frames: SseFrame[] = [];
  let ended = false;
  let failure: Error | undefined;
  let cursor = 0;
  const wakers = new Set<() => void>();
  const wake = () => {
    for (const w of wakers) w();
  };
  const push = sseParser((f) => {
    if (keep) frames.push(f);
    onFrame?.(f);
  });
  const finish = (err?: Error) => {
    if (ended) return;
    ended = true;
    failure = err;
    wake();
  };

  let cancel: () => void;
  if (source instanceof Response) source = source.body as ReadableStream<Uint8Array>;
  if (source instanceof ReadableStream) {
    const reader = source.getReader();
    const decoder = new TextDecoder();
    cancel = () => void reader.cancel().catch(() => {});
    (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return finish();
        push(decoder.decode(value, { stream: true }), nowMs());
        wake();
      }
    })().catch((err) => finish(err));
  } else {
    source.setEncoding('utf8');
    source.on('data', (text: string) => {
      push(text, nowMs());
      wake();
    });
    source.on('end', () => finish());
    source.on('close', () => finish());
    source.on('error', (err) => finish(err));
    cancel = () => source.destroy();
  }

  const withData = () => frames.filter((f): f is SseEvent => f.data !== undefined);

  /** Waits until `ready()` answers something other than undefined, the stream ends, or the time runs out. */
  const waitFor = <T>(ready: () => T | undefined, describe: () => string, opts: WaitOptions): Promise<T> => {
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return new Promise<T>((resolve, reject) => {
      const seen = () =>
        JSON.stringify(
          withData()
            .map((f) => ({ event: f.event, data: f.data }))
            .slice(-20),
        );
      const fail = (why: string) => {
        cleanup();
        reject(new Error(`${opts.what ?? 'SSE'}: ${describe()} ${why}; the last events seen: ${seen()}`));
      };
      const check = () => {
        const got = ready();
        if (got !== undefined) {
          cleanup();
          resolve(got);
        } else if (ended) fail(failure ? `(the stream failed: ${failure.message})` : '(the stream ended)');
      };
      const timer = setTimeout(() => fail(`within ${timeoutMs} ms`), timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        wakers.delete(check);
      };
      wakers.add(check);
      check();
    });
  };

  return {
    /** Every frame kept so far, comments included. */
    frames,
    get ended() {
      return ended;
    },
    /** The next `n` events after those `next` already returned. */
    next(n: number, opts: WaitOptions = {}): Promise<SseEvent[]> {
      const start = cursor;
      return waitFor(
        () => {
          const events = withData();
          if (events.length - start < n) return undefined;
          cursor = start + n;
          return events.slice(start, start + n);
        },
        () => `expected ${n} more event(s), got ${withData().length - start}`,
        opts,
      );
    },
    /** The first `n` events of the stream (counted from its start, whatever `next` took). */
    events(n: number, opts: WaitOptions = {}): Promise<SseEvent[]> {
      return waitFor(
        () => (withData().length >= n ? withData().slice(0, n) : undefined),
        () => `expected ${n} event(s) in all, got ${withData().length}`,
        opts,
      );
    },
    /** The first event (from the stream's start) for which `test` holds. */
    until(test: (e: SseEvent) => boolean, opts: WaitOptions = {}): Promise<SseEvent> {
      return waitFor(
        () => withData().find(test),
        () => `no event matched ${opts.what ? '' : test.toString()}`,
        opts,
      );
    },
    /** Waits for the stream to end. */
    toEnd(opts: WaitOptions = {}): Promise<void> {
      return waitFor(
        () => (ended ? true : undefined),
        () => 'expected the stream to end, it stayed open',
        opts,
      ).then(() => undefined);
    },
    /** Stops reading (and aborts the request when it was given). */
    async close(): Promise<void> {
      closeSource?.();
      cancel();
      finish();
    },
  };
}
