import type { Db } from '@/db/client';
import { nextTurnDue, releaseDueTurns } from '@/lib/events/held-events';
import { withOutbox } from '@/lib/events/with-outbox';
import { processStore } from '@/platform/util/process-store';

/** The longest the closer waits without a look at the database (a turn opened on another instance). */
export const TURN_LOOK_MS = 1_000;
const BATCH = 200;

const store = processStore<{ __vaTurnDue?: Set<() => void> }>();

/**
 * The turn closer's pass, the duty `close-due-turns` (lib/duties/duties.ts): releases every held
 * event whose window has closed, in bounded batches (any instance may run it at once: SKIP LOCKED),
 * and answers how soon the next held event is due, so the embedded loop runs it again then rather
 * than at its next tick. The due times are read from the database, so a turn opened by an instance
 * that has since died closes all the same.
 */
export async function closeDueTurns(db: Db): Promise<{ released: number; nextDueInMs: number | null }> {
  let released = 0;
  for (;;) {
    const n = await withOutbox(db, (tx) => releaseDueTurns(tx, { limit: BATCH }));
    released += n;
    if (n < BATCH) break;
  }
  const next = await nextTurnDue(db);
  return { released, nextDueInMs: next ? Math.max(5, next.getTime() - Date.now()) : null };
}

/** A turn's due time was set or moved in this process: the closer looks again now (its duty's wake). */
export function pokeTurnCloser(): void {
  for (const listener of store.__vaTurnDue ?? []) listener();
}

/** Subscribes to pokeTurnCloser; returns the unsubscribe. */
export function onTurnDue(listener: () => void): () => void {
  store.__vaTurnDue ??= new Set();
  store.__vaTurnDue.add(listener);
  return () => store.__vaTurnDue?.delete(listener);
}
