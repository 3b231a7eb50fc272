import type { Db } from '@/db/client';

/** How one kind of write goes alone or shared (`statementBatches`). */
type BatchSpec<I, R> = {
  /** The write of one item, in a statement (and a transaction) of its own. */
  alone: (db: Db, item: I) => Promise<R>;
  /** The writes of several items in one statement: each item's result, in the items' order. */
  together: (db: Db, items: I[]) => Promise<R[]>;
  /** Items with the same key never share a statement (they would write the same row); the later one waits for the next. */
  keyOf: (item: I) => string;
  /** Whether an item may share a statement at all (else it goes alone). */
  shareable?: (item: I) => boolean;
  /** Statements in flight on one handle at once (default 2). */
  inFlight?: number;
  /** The most items one statement carries (default 100). */
  maxBatch?: number;
};

type Pending<I, R> = { item: I; resolve: (r: R) => void; reject: (err: unknown) => void };
type Queue<I, R> = { waiting: Pending<I, R>[]; inFlight: number };

/**
 * Group commit for a hot single-statement write. A write that comes while fewer than `inFlight`
 * statements of its kind are in flight on the handle goes at once and alone, as it would without
 * this; one that comes while they are all in flight waits, and the writes waiting go together in
 * the next statement when one comes back, so under load many writes share a round trip, a plan
 * and a commit (its WAL flush) instead of each paying its own. A shared statement commits whole;
 * when it fails (a deadlock with another writer, a database error, one item the statement cannot
 * take), each of its writes is tried again alone, so one cannot fail the others and each caller
 * gets its own answer or error, as without this.
 *
 * `counts`: the statements that carried several writes and the writes they carried, in this
 * process (the tests read them, to show the shared path ran).
 */
export function statementBatches<I, R>(spec: BatchSpec<I, R>) {
  const inFlight = spec.inFlight ?? 2;
  const maxBatch = spec.maxBatch ?? 100;
  const queues = new WeakMap<Db, Queue<I, R>>();
  const counts = { statements: 0, items: 0 };

  const runAlone = async (db: Db, { item, resolve, reject }: Pending<I, R>) => {
    try {
      resolve(await spec.alone(db, item));
    } catch (err) {
      reject(err);
    }
  };

  const runBatch = async (db: Db, batch: Pending<I, R>[]) => {
    const together = batch.length > 1 && spec.shareable ? batch.filter((p) => spec.shareable?.(p.item)) : batch;
    const alone = together.length > 1 ? batch.filter((p) => !together.includes(p)) : batch;
    if (together.length > 1) {
      try {
        const results = await spec.together(
          db,
          together.map((p) => p.item),
        );
        counts.statements++;
        counts.items += together.length;
        for (const [i, p] of together.entries()) p.resolve(results[i]);
      } catch {
        alone.push(...together);
      }
    }
    await Promise.all(alone.map((p) => runAlone(db, p)));
  };

  const send = (db: Db, q: Queue<I, R>) => {
    // One write per key in a statement, in the order they came; the rest wait for the next.
    const batch: Pending<I, R>[] = [];
    const rest: Pending<I, R>[] = [];
    const keys = new Set<string>();
    for (const p of q.waiting) {
      const key = spec.keyOf(p.item);
      if (batch.length < maxBatch && !keys.has(key)) {
        keys.add(key);
        batch.push(p);
      } else rest.push(p);
    }
    q.waiting = rest;
    q.inFlight++;
    void runBatch(db, batch).finally(() => {
      q.inFlight--;
      if (q.waiting.length) send(db, q);
    });
  };

  return {
    counts,
    /** Writes `item` on `db`, alone or with others (see above), and answers its own result. */
    run(db: Db, item: I): Promise<R> {
      let q = queues.get(db);
      if (!q) {
        q = { waiting: [], inFlight: 0 };
        queues.set(db, q);
      }
      const queue = q;
      return new Promise<R>((resolve, reject) => {
        queue.waiting.push({ item, resolve, reject });
        if (queue.inFlight < inFlight) send(db, queue);
      });
    },
  };
}
