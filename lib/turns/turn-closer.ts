import type { Db } from '@/db/client';
import { nextTurnDue, releaseDueTurns } from '@/lib/events/held-events';
import { withOutbox } from '@/lib/events/with-outbox';
import { logger } from '@/platform/util/logger';
import { processStore } from '@/platform/util/process-store';

/** The longest the closer sleeps without a look at the database (a turn opened on another instance). */
const IDLE_LOOK_MS = 1_000;

type Closer = { db: Db; running: boolean; timer?: NodeJS.Timeout; busy: Promise<void> | null; again: boolean };
const store = processStore<{ __vaTurnCloser?: Closer }>();

/**
 * Every instance runs one: it sleeps until the earliest held event is due (read from the database, so
 * a turn opened by an instance that has since died is closed all the same), releases the due ones
 * and looks again. A fragment or typing signal in this process that moves a due time pokes it at once;
 * turns of other instances are seen within IDLE_LOOK_MS at worst (their own closer is on time).
 */
export function startTurnCloser(db: Db): void {
  if (store.__vaTurnCloser?.running) return;
  store.__vaTurnCloser = { db, running: true, busy: null, again: false };
  pokeTurnCloser();
}

/** Look again now (a turn's due time changed in this process). */
export function pokeTurnCloser(): void {
  const c = store.__vaTurnCloser;
  if (!c?.running) return;
  if (c.busy) {
    c.again = true;
    return;
  }
  clearTimeout(c.timer);
  c.busy = round(c)
    .catch((err) => {
      logger.error('could not close due turns', { err });
      return IDLE_LOOK_MS;
    })
    .then((waitMs) => {
      c.busy = null;
      if (!c.running) return;
      if (c.again) {
        c.again = false;
        pokeTurnCloser();
        return;
      }
      c.timer = setTimeout(pokeTurnCloser, waitMs);
      c.timer.unref();
    });
}

/** Releases what is due; returns how long to sleep. */
async function round(c: Closer): Promise<number> {
  for (;;) {
    const released = await withOutbox(c.db, (tx) => releaseDueTurns(tx));
    if (released < 200) break;
  }
  const next = await nextTurnDue(c.db);
  if (!next) return IDLE_LOOK_MS;
  return Math.max(5, Math.min(IDLE_LOOK_MS, next.getTime() - Date.now()));
}

export async function stopTurnCloser(): Promise<void> {
  const c = store.__vaTurnCloser;
  if (!c) return;
  c.running = false;
  clearTimeout(c.timer);
  await c.busy;
  store.__vaTurnCloser = undefined;
}
