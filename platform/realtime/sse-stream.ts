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

/**
 * The one Server-Sent Events writer, for every stream route (the pull event stream and every live
 * view: widget, workspace, console chat page). It owns the frame format, `retry:` (how long the
 * client waits before it reconnects), a comment line every `heartbeatMs` so proxies keep an idle
 * connection, backpressure (`room`), and the end: on `signal`'s abort, on the client leaving, on
 * `close`, or after `run` throws (logged as "<what> stream stopped"). Resuming is each route's:
 * it sends ids and reads the client's `Last-Event-ID` back as its cursor. `run` starts the body;
 * the stream stays open after it returns until one of those ends comes.
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
}): ReadableStream<Uint8Array> {
  let closed = false;
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

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const write = (text: string) => {
          if (!closed) controller.enqueue(encoder.encode(text));
        };
        const sse: SseWriter = {
          send: (event, data, id) => write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
          room: async () => {
            const since = Date.now();
            while (!closed && (controller.desiredSize ?? 1) <= 0) {
              if (Date.now() - since > stalledMs) throw new Error('client stopped reading');
              await new Promise<void>((resolve) => {
                room = resolve;
                setTimeout(resolve, 1_000).unref?.();
              });
            }
          },
          onClose: (fn) => {
            if (closed) fn();
            else cleanups.push(fn);
          },
          close: () => {
            if (closed) return;
            end();
            try {
              controller.close();
            } catch {
              // already closed by the client going away
            }
          },
          get closed() {
            return closed;
          },
        };
        const heartbeat = setInterval(() => write(': keep-alive\n\n'), heartbeatMs);
        // The server keeps the process alive, not an open stream (a stream left open by a failed test must not hang its run).
        heartbeat.unref?.();
        cleanups.push(() => clearInterval(heartbeat));
        signal?.addEventListener('abort', sse.close, { once: true });
        write(`retry: ${retryMs}\n\n`);
        Promise.resolve()
          .then(() => run(sse))
          .catch((err) => {
            logger.warn(`${what} stream stopped`, { err });
            sse.close();
          });
      },
      pull() {
        room?.();
      },
      cancel: end,
    },
    { highWaterMark: bufferBytes, size: (chunk) => chunk.byteLength },
  );
}
