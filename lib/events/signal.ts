import { EventEmitter } from 'node:events';
import type { Db } from '@/db/client';
import { connectRealtime, disconnectRealtime, onRemoteWake, publish } from '@/platform/realtime/realtime';
import { processStore } from '@/platform/util/process-store';

// The delivery engine listens here so a committed event is sent at once instead of at the next
// poll. The wake also reaches the other instances through platform/realtime (LISTEN/NOTIFY on
// PostgreSQL); their idle poll stays as the safety net. Each event also wakes the topic of its VA
// (`events:<va user id>`), which the pull readers (lib/pull) follow.
type Shared = { emitter: EventEmitter; unsubscribe?: () => void };
const store = processStore<{ __vaOutboxSignal?: Shared }>();
store.__vaOutboxSignal ??= { emitter: new EventEmitter().setMaxListeners(50) };
const shared = store.__vaOutboxSignal;

/** The realtime topic of one VA's events. */
export const eventsTopic = (vaUserId: number) => `events:${vaUserId}`;

/** Call after the transaction that wrote events has committed. */
export function signalOutbox(eventIds: number[], vaUserIds: Iterable<number> = []): void {
  if (!eventIds.length) return;
  shared.emitter.emit('events', eventIds);
  publish([...new Set(vaUserIds)].map(eventsTopic));
}

/** Local listeners get the event ids; a wake from another instance arrives with none. */
export function onOutbox(listener: (eventIds: number[]) => void): () => void {
  shared.emitter.on('events', listener);
  return () => shared.emitter.off('events', listener);
}

/**
 * On PostgreSQL, connects platform/realtime (this process's wakes go to the other instances, theirs
 * come here) and, with `listen`, turns every wake from another instance into a delivery wake.
 * Does nothing more on PGlite. Safe to call more than once.
 */
export async function connectOutboxSignal(db: Db, { listen }: { listen: boolean }): Promise<void> {
  await connectRealtime(db);
  if (listen && !shared.unsubscribe) shared.unsubscribe = onRemoteWake(() => shared.emitter.emit('events', []));
}

/** Stops listening for other instances' signals (shutdown). */
export async function disconnectOutboxSignal(): Promise<void> {
  shared.unsubscribe?.();
  shared.unsubscribe = undefined;
  await disconnectRealtime();
}
