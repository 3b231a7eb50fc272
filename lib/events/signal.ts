import { EventEmitter } from 'node:events';

// The delivery engine listens here so a committed event is sent at once instead of at the next poll.
const store = globalThis as unknown as { __vaOutboxSignal?: EventEmitter };
const emitter = (store.__vaOutboxSignal ??= new EventEmitter().setMaxListeners(50));

/** Call after the transaction that wrote events has committed. */
export function signalOutbox(eventIds: number[]): void {
  if (eventIds.length) emitter.emit('events', eventIds);
}

export function onOutbox(listener: (eventIds: number[]) => void): () => void {
  emitter.on('events', listener);
  return () => emitter.off('events', listener);
}
