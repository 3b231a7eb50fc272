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
 * stream per open connection), `toWeb` gives the ReadableStream a Fetch Response needs (the Next
 * route). Either once.
 */
export class EventStream implements StreamedBody {
  #taken = false;
  constructor(private readonly stream: Sse) {}

  /** Runs `fn` once when the stream ends, for whatever reason (a slot to give back). */
  onEnd(fn: () => void): this {
    this.stream.onClose(fn);
    return this;
  }

  toWeb(): ReadableStream<Uint8Array> {
    const stream = this.take();
    return new ReadableStream<Uint8Array>(
      {
        start(controller) {
          stream.begin({
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
        pull: stream.wakeRoom,
        cancel: stream.end,
      },
      { highWaterMark: stream.bufferBytes, size: (chunk) => chunk.byteLength },
    );
  }

  /** Streams into `res`, whose head the caller has written. The client leaving ends the stream. */
  toNode(res: ServerResponse): void {
    const stream = this.take();
    // The client left while the route prepared the stream: nothing to write, and its ends (a slot,
    // a seat) are given back now rather than at the first heartbeat's failed write.
    if (res.destroyed) {
      stream.end();
      return;
    }
    res.on('drain', stream.wakeRoom);
    res.once('close', stream.end);
    res.on('error', stream.end);
    stream.begin(new NodeSink(res, stream.bufferBytes));
  }

  private take(): Sse {
    if (this.#taken) throw new Error('an event stream is taken once');
    this.#taken = true;
    return this.stream;
  }
}

/** node:http's answer as a stream's sink (one object per held stream, no closures). */
class NodeSink implements Sink {
  constructor(
    private readonly res: ServerResponse,
    private readonly bufferBytes: number,
  ) {}
  write(text: string) {
    this.res.write(text);
  }
  full() {
    return this.res.writableLength >= this.bufferBytes;
  }
  end() {
    this.res.end();
  }
}

type SseOptions = {
  what: string;
  run: (sse: SseWriter) => void | Promise<void>;
  signal?: AbortSignal;
  retryMs?: number;
  heartbeatMs?: number;
  bufferBytes?: number;
  stalledMs?: number;
};

/**
 * The one Server-Sent Events writer, for every stream route (the pull event stream and every live
 * view: widget, workspace, console chat page). It owns the frame format, `retry:` (how long the
 * client waits before it reconnects), a comment line every `heartbeatMs` so proxies keep an idle
 * connection, backpressure (`room`), and the end: on `signal`'s abort, on the client leaving, on
 * `close`, or after `run` throws (logged as "<what> stream stopped"). Resuming is each route's:
 * it sends ids and reads the client's `Last-Event-ID` back as its cursor. `run` starts the body
 * once an entry takes the stream; the stream stays open after it returns until one of those ends comes.
 */
export function sseStream(options: SseOptions): EventStream {
  return new EventStream(new Sse(options));
}

/**
 * A stream's state and its writer in one object: a held stream is mostly idle memory, and an
 * object with fields costs a fraction of the closures and scopes the same state spread over
 * functions did (bench:open-widgets reads the heap per held stream). Only what is handed out as a
 * function (`send`, and the ends an answer or a signal calls) is bound.
 */
class Sse implements SseWriter {
  closed = false;
  readonly bufferBytes: number;
  private sink: Sink | undefined;
  private roomWaiter: (() => void) | undefined;
  private readonly cleanups: (() => void)[] = [];
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly options: SseOptions) {
    this.bufferBytes = options.bufferBytes ?? 64 * 1024;
  }

  readonly send = (event: string, data: unknown, id?: number | string) =>
    this.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

  /** The stream's end, whatever its cause: runs the cleanups once (the client left, or `close`). */
  readonly end = () => {
    if (this.closed) return;
    this.closed = true;
    this.roomWaiter?.();
    clearInterval(this.heartbeat);
    for (const cleanup of this.cleanups.splice(0)) {
      try {
        cleanup();
      } catch (err) {
        logger.warn(`${this.options.what} stream cleanup failed`, { err });
      }
    }
  };

  readonly close = () => {
    if (this.closed) return;
    this.end();
    this.sink?.end();
  };

  /** The client's buffer has room again. */
  readonly wakeRoom = () => this.roomWaiter?.();

  onClose(fn: () => void) {
    if (this.closed) fn();
    else this.cleanups.push(fn);
  }

  async room() {
    const since = Date.now();
    const stalledMs = this.options.stalledMs ?? 60_000;
    while (!this.closed && this.sink?.full()) {
      if (Date.now() - since > stalledMs) throw new Error('client stopped reading');
      await new Promise<void>((resolve) => {
        this.roomWaiter = resolve;
        setTimeout(resolve, 1_000).unref?.();
      });
    }
  }

  write(text: string) {
    if (!this.closed) this.sink?.write(text);
  }

  begin(sink: Sink) {
    this.sink = sink;
    const { what, run, signal, retryMs = 2_000, heartbeatMs = 25_000 } = this.options;
    this.heartbeat = setInterval(beat, heartbeatMs, this);
    // The server keeps the process alive, not an open stream (a stream left open by a failed test must not hang its run).
    this.heartbeat.unref?.();
    signal?.addEventListener('abort', this.close, { once: true });
    this.write(`retry: ${retryMs}\n\n`);
    Promise.resolve()
      .then(() => run(this))
      .catch((err) => {
        logger.warn(`${what} stream stopped`, { err });
        this.close();
      });
  }
}

/** A comment line, so proxies keep an idle connection. */
function beat(stream: Sse) {
  stream.write(': keep-alive\n\n');
}
