import { type Db, getDb } from '@/db/client';
import { onOutbox } from '@/lib/events/signal';
import { logger } from '@/lib/util/logger';
import { type ClaimedEvent, claimDueEvents } from './claim-due-events';
import { deliverClaimedEvent } from './deliver-claimed-event';
import { msUntilNextDue } from './ms-until-next-due';
import { leaseMs as defaultLeaseMs } from './schedule';

export type EmbeddedEngineOptions = {
  /** Default: the app's database. */
  db?: Db;
  /** Most webhook calls in flight at once, each for a different chat. */
  concurrency?: number;
  /** Most events taken by one claim statement. */
  batchSize?: number;
  /** Longest sleep with nothing due: catches events written by other processes, which do not signal this one. */
  idlePollMs?: number;
  leaseMs?: number;
};

export type EmbeddedEngine = {
  /** Looks for due work now (what an outbox signal does). */
  wake(): void;
  stop(): Promise<void>;
  readonly inFlight: number;
};

const store = globalThis as unknown as { __vaDeliveryEngine?: EmbeddedEngine };

/** Starts the engine once per process; later calls return the running one. */
export async function startEmbeddedEngine(options: EmbeddedEngineOptions = {}): Promise<EmbeddedEngine> {
  if (!store.__vaDeliveryEngine) {
    const engine = createEngine(options.db ?? (await getDb()), options);
    store.__vaDeliveryEngine ??= engine;
    if (store.__vaDeliveryEngine !== engine) await engine.stop();
  }
  return store.__vaDeliveryEngine;
}

/** Stops the process's engine, waiting for the attempts in flight to be recorded. */
export async function stopEmbeddedEngine(): Promise<void> {
  const engine = store.__vaDeliveryEngine;
  store.__vaDeliveryEngine = undefined;
  await engine?.stop();
}

/**
 * A claim loop over the outbox. A claim takes only head-of-line events, so each chat has at most
 * one call in flight (its order holds) while up to `concurrency` chats are served at once (a slow
 * receiver holds only its own chat back). It claims again when an outbox signal arrives, when an
 * attempt ends and its chat has a next event, and when a timer set for the next due retry fires;
 * with nothing due it sleeps (at most `idlePollMs`).
 */
function createEngine(db: Db, options: EmbeddedEngineOptions): EmbeddedEngine {
  const concurrency = options.concurrency ?? 64;
  const batchSize = options.batchSize ?? 32;
  const idlePollMs = options.idlePollMs ?? 5_000;
  const leaseMs = options.leaseMs ?? defaultLeaseMs();

  const inFlight = new Set<Promise<void>>();
  let running = true;
  let pumping = false;
  let pumpAgain = false;
  /** Outbox signals seen so far: an attempt that ends after one arrived claims again (see `launch`). */
  let signals = 0;
  /** The last claim was cut short by the concurrency limit: more may be due than was taken. */
  let saturated = false;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Number.POSITIVE_INFINITY;

  /** Makes sure a claim happens within `ms`: keeps an earlier timer, replaces a later one. */
  const wakeWithin = (ms: number) => {
    if (!running) return;
    const at = Date.now() + Math.min(Math.max(ms, 5), idlePollMs);
    if (timer && timerAt <= at) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => {
      timer = undefined;
      timerAt = Number.POSITIVE_INFINITY;
      pump();
    }, at - Date.now());
    timer.unref?.();
  };

  const launch = (event: ClaimedEvent) => {
    const signalsBefore = signals;
    const task: Promise<void> = deliverClaimedEvent(db, { event })
      .then(
        (result) => {
          if (result.status === 'pending') wakeWithin(result.retryInMs ?? 0);
          // The chat's next event can go now; or an event written meanwhile may have been passed
          // over by a claim because this one still held its chat.
          else if (result.hasNext || signals !== signalsBefore) pumpAgain = true;
          // A slot is free for work that did not fit before.
          if (saturated) pumpAgain = true;
        },
        (err) => {
          logger.error('webhook attempt could not be recorded', { eventId: event.id, err });
          pumpAgain = true;
        },
      )
      .finally(() => {
        inFlight.delete(task);
        if (pumpAgain) pump();
      });
    inFlight.add(task);
  };

  async function drain() {
    do {
      pumpAgain = false;
      const free = concurrency - inFlight.size;
      if (free <= 0) {
        saturated = true; // each attempt that ends pumps again
        return;
      }
      const limit = Math.min(free, batchSize);
      const claimed = await claimDueEvents(db, { limit, leaseMs });
      // Stopped while claiming: the leases run out and another worker takes these events.
      if (!running) return;
      for (const event of claimed) launch(event);
      saturated = claimed.length === limit;
      if (saturated) pumpAgain = true;
      else if (!timer) {
        // Nothing more is due now: sleep until the next retry (or the lease of a dead worker) is due.
        wakeWithin((await msUntilNextDue(db)) ?? idlePollMs);
      }
    } while (pumpAgain && running);
  }

  function pump() {
    if (!running) return;
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = true;
    drain()
      .catch((err) => {
        logger.error('delivery engine could not claim events', { err });
        wakeWithin(1_000);
      })
      .finally(() => {
        pumping = false;
        if (pumpAgain && running) pump();
      });
  }

  const unsubscribe = onOutbox(() => {
    signals++;
    pump();
  });
  pump();

  return {
    wake: pump,
    get inFlight() {
      return inFlight.size;
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      unsubscribe();
      while (pumping || inFlight.size) {
        await Promise.allSettled([...inFlight]);
        if (pumping) await new Promise((r) => setTimeout(r, 5));
      }
    },
  };
}
