import type { Db } from '@/db/client';
import { logger } from '@/platform/util/logger';
import { noteRead } from './ack-events';
import type { Position } from './cursor';
import { readPullState, startOf } from './read-pull-state';
import { followEvents, HELD_BACK_RETRY_MS } from './readers';
import { readEventPageShared } from './shared-read';
import { releaseStreamSlot, takeStreamSlot } from './stream-slots';

/** A comment line at least this often, so proxies and clients see the stream is alive. */
export const HEARTBEAT_MS = 10_000;
const PAGE = 100;
/** A client that reads nothing for this long while its buffer is full is cut off (it resumes by cursor). */
const STALLED_MS = 60_000;

const encoder = new TextEncoder();

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
): Promise<ReadableStream<Uint8Array>> {
  const state = await readPullState(db, { accountId, vaUserId });
  let position: Position = await startOf(db, state, { accountId, vaUserId, cursor, field });
  const slot = await takeStreamSlot(db, { vaUserId });
  // Reading from now on; while the stream stays open, stream-slots refreshes it with its slot.
  await noteRead(db, { accountId, vaUserId }).catch(() => {});
  const follow = followEvents(vaUserId);
  let room: (() => void) | undefined;
  let stopped = false;

  const finish = () => {
    if (stopped) return;
    stopped = true;
    follow.close();
    room?.();
    void releaseStreamSlot(db, slot);
  };

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const send = (text: string) => controller.enqueue(encoder.encode(text));
        const waitForRoom = async () => {
          const since = Date.now();
          while (!stopped && (controller.desiredSize ?? 1) <= 0) {
            if (Date.now() - since > STALLED_MS) throw new Error('client stopped reading');
            await new Promise<void>((resolve) => {
              room = resolve;
              setTimeout(resolve, 1_000);
            });
          }
        };
        const run = async () => {
          send('retry: 1000\n\n');
          let beat = Date.now();
          while (!stopped) {
            const page = await readEventPageShared(db, { accountId, vaUserId, after: position, limit: PAGE });
            for (const { event_type, ...item } of page.items) {
              send(`id: ${item.cursor}\nevent: ${event_type}\ndata: ${JSON.stringify(item)}\n\n`);
            }
            position = page.next;
            await waitForRoom();
            if (stopped || follow.ended) break;
            if (page.items.length === PAGE) continue;
            const untilBeat = HEARTBEAT_MS - (Date.now() - beat);
            if (untilBeat <= 0) {
              send(': keep-alive\n\n');
              beat = Date.now();
              continue;
            }
            await follow.next(page.heldBack ? Math.min(HELD_BACK_RETRY_MS, untilBeat) : untilBeat);
          }
        };
        run()
          .catch((err) => logger.warn('event stream ended by an error; the client resumes from its last id', { err }))
          .finally(() => {
            finish();
            try {
              controller.close();
            } catch {
              // the client already cancelled it
            }
          });
      },
      pull() {
        room?.();
      },
      cancel() {
        finish();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}
