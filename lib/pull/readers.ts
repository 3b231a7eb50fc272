import { eventsTopic } from '@/lib/events/signal';
import { isDraining } from '@/lib/ops/draining';
import { subscribe } from '@/lib/realtime/realtime';

/** Waits for a wake of one VA's events, with shutdown ending every wait of this process. */
type Shared = { enders: Set<() => void> };
const store = globalThis as unknown as { __vaPullReaders?: Shared };
store.__vaPullReaders ??= { enders: new Set() };
const shared = store.__vaPullReaders;

/** A committed event of another transaction may wait behind an open one; this often, it is read again. */
export const HELD_BACK_RETRY_MS = 5;

/**
 * Follows the VA's topic from now on: `next(ms)` resolves when a wake came since the last call
 * (at once if one already did), after `ms`, or at shutdown (then `ended` is true for good).
 */
export function followEvents(vaUserId: number) {
  let woken = false;
  let ended = isDraining();
  let release: (() => void) | undefined;
  const wake = () => {
    woken = true;
    release?.();
  };
  const end = () => {
    ended = true;
    release?.();
  };
  const unsubscribe = subscribe(eventsTopic(vaUserId), wake);
  shared.enders.add(end);
  return {
    get ended() {
      return ended;
    },
    next(ms: number): Promise<void> {
      if (woken || ended) {
        woken = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          release = undefined;
          woken = false;
          resolve();
        }
        release = done;
      });
    },
    /** Ends the wait now (a client gone). */
    end,
    close() {
      unsubscribe();
      shared.enders.delete(end);
      release?.();
    },
  };
}

/** Shutdown: every long-poll answers now and every stream ends, so clients go to another instance. */
export function endPullReaders(): number {
  const n = shared.enders.size;
  for (const end of [...shared.enders]) end();
  return n;
}
