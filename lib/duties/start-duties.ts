import type { Db } from '@/db/client';
import { logger } from '@/platform/util/logger';
import { processStore } from '@/platform/util/process-store';
import { duties as allDuties } from './duties';
import type { Duty } from './duty';

type Loop = { stop: () => Promise<void> };
const store = processStore<{ __vaDuties?: Loop }>();

/**
 * The embedded loop (DELIVERY_ENGINE=embedded; with another engine, only the `everyEngine` duties):
 * every duty of the list on its own timer (or sooner, as its `nextInMs` asks), one run
 * of a duty at a time (a tick that finds the previous run busy waits for the next), a failed run
 * logged and tried again at the next tick. Once per process; `stopDuties` ends it (shutdown).
 */
export function startDuties(db: Db, { duties = allDuties }: { duties?: readonly Duty[] } = {}): Loop {
  store.__vaDuties ??= runLoop(db, duties);
  return store.__vaDuties;
}

/** Stops the loop: no more runs; resolves when the runs in progress have finished. */
export async function stopDuties(): Promise<void> {
  const loop = store.__vaDuties;
  store.__vaDuties = undefined;
  await loop?.stop();
}

function runLoop(db: Db, duties: readonly Duty[]): Loop {
  let running = true;
  const loops = duties.map((duty) => {
    let busy: Promise<unknown> | null = null;
    let timer: NodeJS.Timeout | undefined;
    const schedule = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(tick, ms);
      timer.unref();
    };
    function tick() {
      if (!running || busy) return;
      let next = duty.everyMs();
      busy = duty
        .run(db)
        .then((output) => {
          const sooner = duty.nextInMs?.(output);
          if (typeof sooner === 'number' && sooner < next) next = sooner;
        })
        .catch((err) => logger.error('a background duty failed; it runs again at its next tick', { duty: duty.id, err }))
        .finally(() => {
          busy = null;
          if (running) schedule(next);
        });
    }
    const unsubscribe = duty.wake?.(() => {
      if (!running) return;
      // Busy: the run in progress may have missed what woke it, so the next one comes at once.
      if (busy) void busy.then(() => running && schedule(0));
      else schedule(0);
    });
    schedule(duty.firstAfterMs ?? 0);
    return {
      async stop() {
        clearTimeout(timer);
        unsubscribe?.();
        await busy;
      },
    };
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops.map((l) => l.stop()));
    },
  };
}
