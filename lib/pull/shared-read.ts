import type { Db } from '@/db/client';
import { processStore } from '@/platform/util/process-store';
import type { Position } from './cursor';
import { type EventPage, readEventPage } from './read-event-page';
import { wakeGeneration } from './readers';

type Shared = { inFlight: Map<string, Promise<EventPage>> };
const store = processStore<{ __vaPullSharedReads?: Shared }>();
store.__vaPullSharedReads ??= { inFlight: new Map() };
const shared = store.__vaPullSharedReads;

/**
 * readEventPage for the streams of one process: streams of the same VA at the same position
 * (the usual case: a bot's streams are all caught up) share one read per wake instead of each
 * querying. A read is shared only with readers that heard no wake since it started (the key holds
 * the VA's wake generation), so a joiner never gets a page older than the commit that woke it.
 */
export function readEventPageShared(
  db: Db,
  args: { accountId: number; vaUserId: number; after: Position; limit: number },
): Promise<EventPage> {
  const key = `${args.accountId}:${args.vaUserId}:${args.after.xid}:${args.after.id}:${args.limit}:${wakeGeneration(args.vaUserId)}`;
  let read = shared.inFlight.get(key);
  if (!read) {
    read = readEventPage(db, args).finally(() => shared.inFlight.delete(key));
    shared.inFlight.set(key, read);
  }
  return read;
}
