import type { Db } from '@/db/client';
import { signalOutbox } from './signal';

const written = Symbol('events written in this transaction');

/**
 * A transaction opened by `withOutbox`. Only such a transaction can enqueue events (the type of
 * `enqueueEvent` asks for it), so no writer can add an event and forget to wake delivery.
 */
export type OutboxTx = Db & { readonly [written]: { ids: number[]; vaUserIds: Set<number> } };

/**
 * Runs `work` in one transaction and, once it has committed, wakes the delivery engine for the
 * events enqueued in it. Nothing is signalled when the transaction fails: its events are gone with it.
 */
export async function withOutbox<T>(db: Db, work: (tx: OutboxTx) => Promise<T>): Promise<T> {
  let noted = { ids: [] as number[], vaUserIds: new Set<number>() };
  const result = await db.transaction(async (tx) => {
    noted = { ids: [], vaUserIds: new Set() };
    const outboxTx: OutboxTx = Object.assign(tx as Db, { [written]: noted });
    return work(outboxTx);
  });
  signalOutbox(noted.ids, noted.vaUserIds);
  return result;
}

/** Called by `enqueueEvent` for each event it writes. */
export function noteEvent(tx: OutboxTx, eventId: number, vaUserId: number): void {
  tx[written].ids.push(eventId);
  tx[written].vaUserIds.add(vaUserId);
}
