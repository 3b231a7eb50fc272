import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Db } from '@/db/client';
import { logger } from '@/lib/util/logger';

// The delivery engine listens here so a committed event is sent at once instead of at the next
// poll. On PostgreSQL the wake also reaches the other instances (LISTEN/NOTIFY on one channel);
// their idle poll stays as the safety net. On PGlite (one process) the emitter is all there is.
type Shared = {
  emitter: EventEmitter;
  /** Sends one NOTIFY; set once connected to PostgreSQL. */
  notify?: () => Promise<void>;
  notifying?: boolean;
  notifyAgain?: boolean;
  unlisten?: () => Promise<void>;
};
const store = globalThis as unknown as { __vaOutboxSignal?: Shared };
store.__vaOutboxSignal ??= { emitter: new EventEmitter().setMaxListeners(50) };
const shared = store.__vaOutboxSignal;

const CHANNEL = 'va_outbox';
/** This process's id in its own notifications, so it does not wake itself twice. */
const SELF = randomUUID();

/** Call after the transaction that wrote events has committed. */
export function signalOutbox(eventIds: number[]): void {
  if (!eventIds.length) return;
  shared.emitter.emit('events', eventIds);
  notifyOthers();
}

/** Local listeners get the event ids; a wake from another instance arrives with none. */
export function onOutbox(listener: (eventIds: number[]) => void): () => void {
  shared.emitter.on('events', listener);
  return () => shared.emitter.off('events', listener);
}

/**
 * One NOTIFY at a time: writes that commit while one is on its way share the next, so a burst
 * costs the database a few notifications, not one per event.
 */
function notifyOthers(): void {
  if (!shared.notify) return;
  if (shared.notifying) {
    shared.notifyAgain = true;
    return;
  }
  shared.notifying = true;
  shared
    .notify()
    .catch((err) => logger.debug('outbox notification not sent; other instances poll', { err }))
    .finally(() => {
      shared.notifying = false;
      if (shared.notifyAgain) {
        shared.notifyAgain = false;
        notifyOthers();
      }
    });
}

type PostgresClient = {
  notify: (channel: string, payload: string) => Promise<unknown>;
  listen: (channel: string, fn: (payload: string) => void) => Promise<{ unlisten: () => Promise<void> }>;
};

/**
 * On PostgreSQL, sends this process's outbox signals to the other instances and, with `listen`,
 * turns theirs into local wakes. Does nothing on PGlite. Safe to call more than once.
 */
export async function connectOutboxSignal(db: Db, { listen }: { listen: boolean }): Promise<void> {
  const client = (db as unknown as { $client?: Partial<PostgresClient> }).$client;
  if (typeof client?.notify !== 'function' || typeof client.listen !== 'function') return;
  const pg = client as PostgresClient;
  shared.notify ??= async () => {
    await pg.notify(CHANNEL, SELF);
  };
  if (listen && !shared.unlisten) {
    const sub = await pg.listen(CHANNEL, (payload) => {
      if (payload !== SELF) shared.emitter.emit('events', []);
    });
    shared.unlisten = sub.unlisten;
  }
}

/** Stops listening for other instances' signals (shutdown). */
export async function disconnectOutboxSignal(): Promise<void> {
  const unlisten = shared.unlisten;
  shared.unlisten = undefined;
  shared.notify = undefined;
  await unlisten?.().catch(() => {});
}
