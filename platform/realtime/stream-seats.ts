import fs from 'node:fs';
import { env } from '@/env';
import { ApiError } from '@/platform/errors';
import { metrics } from '@/platform/metrics/registry';
import { processStore } from '@/platform/util/process-store';
import type { EventStream } from './sse-stream';

/**
 * Descriptors kept for everything but held streams when the cap comes from the open-file limit:
 * the database pool, webhook calls, the API's own connections, files. A tenth of the limit, at
 * least this many.
 */
const MIN_RESERVE = 256;
/** A refusal's hint: streams end all the time on a busy instance, and a balancer may send the retry elsewhere. */
const RETRY_AFTER_SECONDS = 10;

type Seats = { held: number; capacity?: number };
const store = processStore<{ __vaStreamSeats?: Seats }>();
store.__vaStreamSeats ??= { held: 0 };
const seats = store.__vaStreamSeats;

/** The soft limit on this process's open files (Linux), or null where it cannot be read. */
function openFileLimit(): number | null {
  try {
    const line = fs
      .readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    return soft && /^\d+$/.test(soft) ? Number(soft) : null;
  } catch {
    return null;
  }
}

/**
 * The most live streams this instance holds at once: EVENT_STREAMS_PER_INSTANCE when set, else
 * the open-file limit less a reserve (a tenth, at least 256) for the database pool, webhook calls
 * and the API's other connections; unlimited where the limit cannot be read.
 */
export function streamCapacity(): number {
  if (seats.capacity !== undefined) return seats.capacity;
  const configured = env().EVENT_STREAMS_PER_INSTANCE;
  if (configured !== undefined) return configured;
  const limit = openFileLimit();
  seats.capacity = limit === null ? Number.POSITIVE_INFINITY : Math.max(1, limit - Math.max(MIN_RESERVE, Math.ceil(limit / 10)));
  return seats.capacity;
}

/** Streams held now, and the most held before refusing (metrics). */
export function streamSeats(): { held: number; capacity: number } {
  return { held: seats.held, capacity: streamCapacity() };
}

/**
 * Opens a live stream (pulled events, widget, workspace, console chat page) on one of this
 * instance's seats: past `streamCapacity()` it is refused with 2051 (503, Retry-After) before
 * `open` runs, so the instance keeps the descriptors its database pool, webhook calls and other
 * requests need, rather than failing them all with "too many open files". The seat is given back
 * when the stream ends, or at once when `open` throws.
 */
export async function withStreamSeat(open: () => Promise<EventStream>): Promise<EventStream> {
  const capacity = streamCapacity();
  if (seats.held >= capacity) {
    metrics().liveStreamRefusals.inc();
    throw new ApiError(2051, {
      detail: `this instance holds ${seats.held} live streams (EVENT_STREAMS_PER_INSTANCE: ${capacity})`,
      headers: { 'Retry-After': String(RETRY_AFTER_SECONDS), Connection: 'close' },
    });
  }
  seats.held++;
  let given = false;
  const give = () => {
    if (given) return;
    given = true;
    seats.held--;
  };
  try {
    return (await open()).onEnd(give);
  } catch (err) {
    give();
    throw err;
  }
}
