import type { Db } from '@/db/client';
import { ackEvents, noteRead } from './ack-events';
import { encodeCursor } from './cursor';
import { type PulledItem, readEventPage } from './read-event-page';
import { readPullState, startOf } from './read-pull-state';
import { followEvents, HELD_BACK_RETRY_MS } from './readers';

/**
 * GET /events: the VA's events after `after` (or its acknowledged position), up to `limit`; with
 * `waitSeconds`, held until at least one is there or the wait ends. `after` acknowledges up to it.
 */
export async function listEvents(
  db: Db,
  {
    accountId,
    vaUserId,
    after,
    limit,
    waitSeconds,
  }: { accountId: number; vaUserId: number; after: string | undefined; limit: number; waitSeconds: number },
): Promise<{ events: Omit<PulledItem, 'event_type'>[]; next_cursor: string }> {
  const state = await readPullState(db, { accountId, vaUserId });
  const start = await startOf(db, state, { accountId, vaUserId, cursor: after, field: 'query.after' });
  if (after !== undefined) await ackEvents(db, { accountId, vaUserId, to: start });
  await noteRead(db, { accountId, vaUserId });

  const deadline = Date.now() + waitSeconds * 1000;
  // Subscribed before the first read, so a commit between the read and the wait still wakes it.
  const follow = waitSeconds > 0 ? followEvents(vaUserId) : null;
  try {
    for (;;) {
      const page = await readEventPage(db, { accountId, vaUserId, after: start, limit });
      const left = deadline - Date.now();
      if (page.items.length || !follow || left <= 0 || follow.ended) {
        return { events: page.items.map(({ event_type: _, ...item }) => item), next_cursor: encodeCursor(vaUserId, page.next) };
      }
      await follow.next(page.heldBack ? Math.min(HELD_BACK_RETRY_MS, left) : left);
    }
  } finally {
    follow?.close();
  }
}
