import { logger } from '@/platform/util/logger';

const HEARTBEAT_MS = 25_000;
const encoder = new TextEncoder();

/** Writes one Server-Sent Event (`data` as JSON; `id` becomes the client's Last-Event-ID). */
export type SendEvent = (event: string, data: unknown, id?: number | string) => void;

/**
 * A Server-Sent Events stream driven by realtime wakes (platform/realtime topics), the one shape of every
 * live view (the widget, the console's chat page, the agent workspace). A wake carries nothing:
 * each runs `read`, which reads the database and sends what changed since it last sent, so a lost
 * wake is made up by the next and a doubled one sends nothing twice. Wakes that come while a read
 * runs are folded into one more read after it; `coalesceMs` delays each read that long to fold a
 * burst, `minGapMs` keeps reads at least that far apart. `subscribe` is called before the first
 * read (a change committed in between is not missed) and returns its unsubscribes. Sends `retry`,
 * `opening`'s events, then a first read; a comment line every 25 s keeps proxies from closing an
 * idle connection. Ends on `signal`'s abort, on the client leaving, and after a read that throws
 * (logged as "<what> stream stopped"; the client reconnects and starts over from its cursor).
 */
export function liveStream({
  what,
  subscribe,
  read,
  opening,
  signal,
  coalesceMs = 0,
  minGapMs = 0,
}: {
  what: string;
  /** `busy()` is true while a read runs or waits to: what a listener sends itself could race it. */
  subscribe: (wake: () => void, send: SendEvent, busy: () => boolean) => (() => void)[];
  read: (send: SendEvent) => Promise<void>;
  opening?: (send: SendEvent) => void;
  signal?: AbortSignal;
  coalesceMs?: number;
  minGapMs?: number;
}): ReadableStream<Uint8Array> {
  let closed = false;
  let reading = false;
  let again = false;
  let pending: ReturnType<typeof setTimeout> | undefined;
  const cleanups: (() => void)[] = [];
  const cleanUp = () => {
    closed = true;
    clearTimeout(pending);
    for (const cleanup of cleanups.splice(0)) cleanup();
  };

  return new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const send: SendEvent = (event, data, id) =>
        write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      const close = () => {
        if (closed) return;
        cleanUp();
        try {
          controller.close();
        } catch {
          // already closed by the client going away
        }
      };
      const run = async () => {
        if (reading) {
          again = true;
          return;
        }
        reading = true;
        try {
          do {
            again = false;
            const started = Date.now();
            await read(send);
            const wait = minGapMs - (Date.now() - started);
            if (again && wait > 0 && !closed) await new Promise((r) => setTimeout(r, wait));
          } while (again && !closed);
        } catch (err) {
          logger.warn(`${what} stream stopped`, { err });
          close();
        } finally {
          reading = false;
        }
      };
      const wake = () => {
        if (closed) return;
        if (!coalesceMs) {
          void run();
        } else if (!pending) {
          pending = setTimeout(() => {
            pending = undefined;
            void run();
          }, coalesceMs);
        }
      };
      cleanups.push(...subscribe(wake, send, () => reading || pending !== undefined));
      const heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
      // The server keeps the process alive, not an open stream (a stream left open by a failed test must not hang its run).
      heartbeat.unref?.();
      cleanups.push(() => clearInterval(heartbeat));
      signal?.addEventListener('abort', close, { once: true });
      write('retry: 2000\n\n');
      opening?.(send);
      void run();
    },
    cancel: cleanUp,
  });
}
