import { eventsTopic } from '@/lib/events/signal';
import { isDraining } from '@/platform/ops/draining';
import { subscribe } from '@/platform/realtime/realtime';
import { processStore } from '@/platform/util/process-store';

/** Waits for a wake of one VA's events, with shutdown ending every wait of this process. */
type Shared = { enders: Set<() => void>; generations: Map<number, number> };
const store = processStore<{ __vaPullReaders?: Shared }>();
store.__vaPullReaders ??= { enders: new Set(), generations: new Map() };
store.__vaPullReaders.generations ??= new Map();
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
    shared.generations.set(vaUserId, (shared.generations.get(vaUserId) ?? 0) + 1);
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

/**
 * How many wakes of the VA's events this process has heard (one per follower per wake). A read
 * started at generation g saw every commit whose wake came before it, so a reader at g may share it.
 */
export function wakeGeneration(vaUserId: number): number {
  return shared.generations.get(vaUserId) ?? 0;
}

/** Shutdown: every long-poll answers now and every stream ends, so clients go to another instance. */
export function endPullReaders(): number {
  const n = shared.enders.size;
  for (const end of [...shared.enders]) end();
  return n;
}
