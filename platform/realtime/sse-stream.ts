import type { ServerResponse } from 'node:http';
import type { StreamedBody } from '@/contracts/common';
import { logger } from '@/platform/util/logger';

const encoder = new TextEncoder();

/** What a stream's body writes through: frames, the client's buffer, its end. */
export type SseWriter = {
  /** One event: `data` as JSON; `id` becomes the client's Last-Event-ID, which the route reads back to resume. */
  send: (event: string, data: unknown, id?: number | string) => void;
  /**
   * Resolves once the client has room in its buffer (at most `bufferBytes` unread); throws after
   * `stalledMs` without room, which ends the stream (the client resumes from its last id).
   */
  room: () => Promise<void>;
  /** Runs `fn` when the stream ends, for whatever reason (client gone, `close`, signal, error). */
  onClose: (fn: () => void) => void;
  close: () => void;
  readonly closed: boolean;
};

/** Where a stream's frames go once an entry takes it: node:http's answer, or a web ReadableStream. */
type Sink = {
  write: (text: string) => void;
  /** True while the client's unread bytes are at the buffer's limit. */
  full: () => boolean;
  end: () => void;
};

/**
 * A Server-Sent Events body as a route returns it. Nothing runs until an entry takes it: `toNode`
 * writes straight to node:http's answer (`npm start`'s entry: no web stream, reader and node
 * stream per open connection, about 2 KiB of a held widget stream's 32), `toWeb` gives the
 * ReadableStream a Fetch Response needs (the Next route). Either once.
 */
export class EventStream implements StreamedBody {
  #taken = false;
  constructor(
    private readonly state: {
      begin: (sink: Sink) => void;
      end: () => void;
      wakeRoom: () => void;
      onClose: (fn: () => void) => void;
      bufferBytes: number;
    },
  ) {}

  /** Runs `fn` once when the stream ends, for whatever reason (a slot to give back). */
  onEnd(fn: () => void): this {
    this.state.onClose(fn);
    return this;
  }

  toWeb(): ReadableStream<Uint8Array> {
    const { begin, end, wakeRoom, bufferBytes } = this.state;
    this.take();
    return new ReadableStream<Uint8Array>(
      {
        start(controller) {
          begin({
            write: (text) => controller.enqueue(encoder.encode(text)),
            full: () => (controller.desiredSize ?? 1) <= 0,
            end: () => {
              try {
                controller.close();
              } catch {
                // already closed by the client going away
              }
            },
          });
        },
        pull: wakeRoom,
        cancel: end,
      },
      { highWaterMark: bufferBytes, size: (chunk) => chunk.byteLength },
    );
  }

  /** Streams into `res`, whose head the caller has written. The client leaving ends the stream. */
  toNode(res: ServerResponse): void {
    const { begin, end, wakeRoom, bufferBytes } = this.state;
    this.take();
    // The client left while the route prepared the stream: nothing to write, and its ends (a slot,
    // a seat) are given back now rather than at the first heartbeat's failed write.
    if (res.destroyed) {
      end();
      return;
    }
    res.on('drain', wakeRoom);
    res.once('close', end);
    res.on('error', end);
    begin({
      write: (text) => {
        res.write(text);
      },
      full: () => res.writableLength >= bufferBytes,
      end: () => res.end(),
    });
  }

  private take() {
    if (this.#taken) throw new Error('an event stream is taken once');
    this.#taken = true;
  }
}

/**
 * The one Server-Sent Events writer, for every stream route (the pull event stream and every live
 * view: widget, workspace, console chat page). It owns the frame format, `retry:` (how long the
 * client waits before it reconnects), a comment line every `heartbeatMs` so proxies keep an idle
 * connection, backpressure (`room`), and the end: on `signal`'s abort, on the client leaving, on
 * `close`, or after `run` throws (logged as "<what> stream stopped"). Resuming is each route's:
 * it sends ids and reads the client's `Last-Event-ID` back as its cursor. `run` starts the body
 * once an entry takes the stream; the stream stays open after it returns until one of those ends comes.
 */
export function sseStream({
  what,
  run,
  signal,
  retryMs = 2_000,
  heartbeatMs = 25_000,
  bufferBytes = 64 * 1024,
  stalledMs = 60_000,
}: {
  what: string;
  run: (sse: SseWriter) => void | Promise<void>;
  signal?: AbortSignal;
  retryMs?: number;
  heartbeatMs?: number;
  bufferBytes?: number;
  stalledMs?: number;
}): EventStream {
  let closed = false;
  let sink: Sink | undefined;
  let room: (() => void) | undefined;
  const cleanups: (() => void)[] = [];
  const end = () => {
    if (closed) return;
    closed = true;
    room?.();
    for (const cleanup of cleanups.splice(0)) {
      try {
        cleanup();
      } catch (err) {
        logger.warn(`${what} stream cleanup failed`, { err });
      }
    }
  };
  const onClose = (fn: () => void) => {
    if (closed) fn();
    else cleanups.push(fn);
  };
  const write = (text: string) => {
    if (!closed) sink?.write(text);
  };
  const close = () => {
    if (closed) return;
    end();
    sink?.end();
  };
  // One shape for every stream (a literal with a getter would be a dictionary object per stream).
  const sse = new Writer(
    write,
    close,
    onClose,
    () => closed,
    async () => {
      const since = Date.now();
      while (!closed && sink?.full()) {
        if (Date.now() - since > stalledMs) throw new Error('client stopped reading');
        await new Promise<void>((resolve) => {
          room = resolve;
          setTimeout(resolve, 1_000).unref?.();
        });
      }
    },
  );
  const begin = (s: Sink) => {
    sink = s;
    const heartbeat = setInterval(() => write(': keep-alive\n\n'), heartbeatMs);
    // The server keeps the process alive, not an open stream (a stream left open by a failed test must not hang its run).
    heartbeat.unref?.();
    cleanups.push(() => clearInterval(heartbeat));
    signal?.addEventListener('abort', close, { once: true });
    write(`retry: ${retryMs}\n\n`);
    Promise.resolve()
      .then(() => run(sse))
      .catch((err) => {
        logger.warn(`${what} stream stopped`, { err });
        close();
      });
  };
  return new EventStream({ begin, end, wakeRoom: () => room?.(), onClose, bufferBytes });
}

class Writer implements SseWriter {
  constructor(
    private readonly write: (text: string) => void,
    readonly close: () => void,
    readonly onClose: (fn: () => void) => void,
    private readonly isClosed: () => boolean,
    readonly room: () => Promise<void>,
  ) {}

  send = (event: string, data: unknown, id?: number | string) =>
    this.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

  get closed() {
    return this.isClosed();
  }
}
