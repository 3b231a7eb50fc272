import { metrics } from '@/platform/metrics/registry';
import { logger } from '@/platform/util/logger';

import { type EventStream, type SseWriter, sseStream } from './sse-stream';

/** Writes one Server-Sent Event (`data` as JSON; `id` becomes the client's Last-Event-ID). */
export type SendEvent = SseWriter['send'];

/**
 * A Server-Sent Events stream driven by realtime wakes (platform/realtime topics), the one shape of every
 * live view (the widget, the console's chat page, the agent workspace). A wake carries nothing:
 * each runs `read`, which reads the database and sends what changed since it last sent, so a lost
 * wake is made up by the next and a doubled one sends nothing twice. Wakes that come while a read
 * runs are folded into one more read after it, and `minGapMs` keeps reads at least that far apart
 * (the first change is read at once; the rest of a burst together after the gap). `subscribe` is called before the first
 * read (a change committed in between is not missed) and returns its unsubscribes. Sends
 * `opening`'s events, then a first read, through the one SSE writer (sse-stream.ts: retry,
 * heartbeat, end). Ends on `signal`'s abort, on the client leaving, and after a read that throws
 * (logged as "<what> stream stopped"; the client reconnects and starts over from its cursor).
 */
export function liveStream({
  what,
  subscribe,
  read,
  opening,
  signal,
  minGapMs = 0,
}: {
  what: string;
  /** `busy()` is true while a read runs or waits to: what a listener sends itself could race it. */
  subscribe: (wake: () => void, send: SendEvent, busy: () => boolean) => (() => void)[];
  read: (send: SendEvent) => Promise<void>;
  opening?: (send: SendEvent) => void;
  signal?: AbortSignal;
  minGapMs?: number;
}): EventStream {
  return sseStream({
    what,
    signal,
    run: (sse) => new LiveView(sse, what, read, minGapMs).start(subscribe, opening),
  });
}

/**
 * One live view's reads as an object (a held stream is mostly idle memory; fields cost less than
 * the closures and scopes they replace): `wake` and `busy` are handed to the subscriptions.
 */
class LiveView {
  private reading = false;
  private again = false;

  constructor(
    private readonly sse: SseWriter,
    private readonly what: string,
    private readonly read: (send: SendEvent) => Promise<void>,
    private readonly minGapMs: number,
  ) {}

  readonly wake = () => {
    if (!this.sse.closed) void this.run();
  };

  readonly busy = () => this.reading;

  start(
    subscribe: (wake: () => void, send: SendEvent, busy: () => boolean) => (() => void)[],
    opening: ((send: SendEvent) => void) | undefined,
  ) {
    const { sse } = this;
    for (const unsubscribe of subscribe(this.wake, sse.send, this.busy)) sse.onClose(unsubscribe);
    opening?.(sse.send);
    void this.run();
  }

  private async run() {
    if (this.reading) {
      this.again = true;
      return;
    }
    const { sse, what, minGapMs } = this;
    this.reading = true;
    try {
      do {
        this.again = false;
        const started = Date.now();
        metrics().liveViewReads.inc({ view: what });
        await this.read(sse.send);
        const wait = minGapMs - (Date.now() - started);
        if (this.again && wait > 0 && !sse.closed) await new Promise((r) => setTimeout(r, wait));
      } while (this.again && !sse.closed);
    } catch (err) {
      logger.warn(`${what} stream stopped`, { err });
      sse.close();
    } finally {
      this.reading = false;
    }
  }
}
