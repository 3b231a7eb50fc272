import type { Db } from '@/db/client';
import { type EventStream, sseStream } from '@/platform/realtime/sse-stream';
import { logger } from '@/platform/util/logger';
import { noteRead } from './ack-events';
import type { Position } from './cursor';
import { readPullState, startOf } from './read-pull-state';
import { followEvents, HELD_BACK_RETRY_MS } from './readers';
import { readEventPageShared } from './shared-read';
import { releaseStreamSlot, takeStreamSlot } from './stream-slots';

/** A comment line this often, so proxies and clients see the stream is alive; and a read at least this often. */
const HEARTBEAT_MS = 10_000;
const PAGE = 100;
/** A client that reads nothing for this long while its buffer is full is cut off (it resumes by cursor). */
const STALLED_MS = 60_000;

/**
 * GET /events/stream: the VA's events after `cursor` (or its acknowledged position) as
 * Server-Sent Events, then each new one as it commits, until the client leaves or the server shuts
 * down. Refusals (bad cursor, too many streams) throw before anything is sent, so they are answered
 * in the envelope. The stream re-reads from its position on every wake, so a wake lost or repeated
 * costs a read, never an event.
 */
export async function openEventStream(
  db: Db,
  { accountId, vaUserId, cursor, field }: { accountId: number; vaUserId: number; cursor: string | undefined; field: string },
): Promise<EventStream> {
  const state = await readPullState(db, { accountId, vaUserId });
  let position: Position = await startOf(db, state, { accountId, vaUserId, cursor, field });
  const slot = await takeStreamSlot(db, { vaUserId });
  // Reading from now on; while the stream stays open, stream-slots refreshes it with its slot.
  await noteRead(db, { accountId, vaUserId }).catch(() => {});
  const follow = followEvents(vaUserId);
  return sseStream({
    what: 'event',
    retryMs: 1_000,
    heartbeatMs: HEARTBEAT_MS,
    stalledMs: STALLED_MS,
    run: async (sse) => {
      sse.onClose(() => {
        follow.close();
        void releaseStreamSlot(db, slot);
      });
      try {
        while (!sse.closed) {
          const page = await readEventPageShared(db, { accountId, vaUserId, after: position, limit: PAGE });
          for (const { event_type, ...item } of page.items) sse.send(event_type, item, item.cursor);
          position = page.next;
          await sse.room();
          if (sse.closed || follow.ended) break;
          if (page.items.length === PAGE) continue;
          // A wake, or after a heartbeat's time without one, a read anyway (a held-back event sooner).
          await follow.next(page.heldBack ? HELD_BACK_RETRY_MS : HEARTBEAT_MS);
        }
      } catch (err) {
        logger.warn('event stream ended by an error; the client resumes from its last id', { err });
      } finally {
        sse.close();
      }
    },
  });
}
