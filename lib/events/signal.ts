import { EventEmitter } from 'node:events';

// The delivery engine listens here so a committed event is sent at once instead of at the next poll.
const store = globalThis as unknown as { __vaOutboxSignal?: EventEmitter };
if (!store.__vaOutboxSignal) store.__vaOutboxSignal = new EventEmitter().setMaxListeners(50);
const emitter = store.__vaOutboxSignal;

/** Call after the transaction that wrote events has committed. */
export function signalOutbox(eventIds: number[]): void {
  if (eventIds.length) emitter.emit('events', eventIds);
}

export function onOutbox(listener: (eventIds: number[]) => void): () => void {
  emitter.on('events', listener);
  return () => emitter.off('events', listener);
}
