import { AsyncResource } from 'node:async_hooks';
import { type Db, getDb } from '@/db/client';
import { env } from '@/env';
import { clampRetryAfter, leaseMs as defaultLeaseMs } from '@/lib/events/schedule';
import { onOutbox } from '@/lib/events/signal';
import { logger } from '@/platform/util/logger';
import { processStore } from '@/platform/util/process-store';
import { type ClaimedEvent, claimDueEvents } from './claim-due-events';
import { attemptDelivery, logAttempt } from './deliver-claimed-event';
import { EndpointHealth } from './endpoint-health';
import { msUntilNextDue } from './ms-until-next-due';
import { pauseEndpointEvents } from './pause-endpoint-events';
import { type AttemptResult, type FinishedAttempt, recordAttempts } from './record-attempts';
import { releaseLeases } from './release-leases';

export type EmbeddedEngineOptions = {
  /** Default: the app's database. */
  db?: Db;
  /** Most webhook calls in flight at once, each for a different chat. Default DELIVERY_CONCURRENCY. */
  concurrency?: number;
  /** Most calls in flight to one VA. Default DELIVERY_MAX_IN_FLIGHT_PER_VA. */
  perVa?: number;
  /** Most events taken by one claim statement. */
  batchSize?: number;
  /** Longest sleep with nothing due: catches events written by other processes, which do not signal this one. */
  idlePollMs?: number;
  leaseMs?: number;
};

export type EmbeddedEngine = {
  /** Looks for due work now (what an outbox signal does). */
  wake(): void;
  /**
   * Stops claiming and waits up to `graceMs` for the calls in flight to be recorded; the leases
   * of any still unanswered then are released, so another instance takes those events at once.
   */
  stop(options?: { graceMs?: number }): Promise<void>;
  readonly inFlight: number;
  /** Per-endpoint flow control (circuit states for metrics). */
  readonly health: EndpointHealth;
  /** Counters of the loop itself, for tests and benches. */
  readonly stats: EngineStats;
};

type EngineStats = {
  /** Claim statements run. */
  claims: number;
  /** Claims that took nothing: each read the due events it could see and found none it could send. */
  emptyClaims: number;
  /**
   * Times the engine came to rest: no call in flight, no claim running, waiting for a signal or a
   * timer (the next retry, a paused endpoint, or the idle poll). With work due and a slot free for
   * it, it never rests.
   */
  rests: number;
  /**
   * Outbox signals received (events written by this process or, through PostgreSQL, by another).
   * An attempt that ends after one arrived claims again (see `settle`).
   */
  signals: number;
  /** Claims started by the engine's timer (a retry due, a lease to check, the idle poll). */
  timerWakes: number;
};

const store = processStore<{ __vaDeliveryEngine?: EmbeddedEngine; __vaStoppingEngine?: EmbeddedEngine }>();

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
export async function stopEmbeddedEngine(options?: { graceMs?: number }): Promise<void> {
  const engine = store.__vaDeliveryEngine;
  store.__vaDeliveryEngine = undefined;
  store.__vaStoppingEngine = engine;
  try {
    await engine?.stop(options);
  } finally {
    if (store.__vaStoppingEngine === engine) store.__vaStoppingEngine = undefined;
  }
}

/** The process's running engine, if any. */
export function runningEmbeddedEngine(): EmbeddedEngine | undefined {
  return store.__vaDeliveryEngine;
}

/**
 * The engine the metrics describe: the running one, or during shutdown the one stopping, whose
 * calls in flight are what the drain waits for (read as 0 and no circuits before, in drill:ops).
 */
export function reportedEmbeddedEngine(): EmbeddedEngine | undefined {
  return store.__vaDeliveryEngine ?? store.__vaStoppingEngine;
}

/**
 * A claim loop over the outbox. A claim takes only head-of-line events, so each chat has at most
 * one call in flight (its order holds) while up to `concurrency` chats are served at once (a slow
 * receiver holds only its own chat back). Finished attempts are recorded together, one statement
 * for all that finished meanwhile. It claims again when an outbox signal arrives, when an attempt
 * is recorded and its chat has a next event, when a call ends that frees a slot a claim could not
 * fill before (the overall limit, or its VA's: see `capped`), and when a timer set for the next
 * due retry fires; only with nothing due does it sleep (at most `idlePollMs`).
 */
function createEngine(db: Db, options: EmbeddedEngineOptions): EmbeddedEngine {
  const concurrency = options.concurrency ?? env().DELIVERY_CONCURRENCY;
  const perVa = Math.min(options.perVa ?? env().DELIVERY_MAX_IN_FLIGHT_PER_VA, concurrency);
  const health = new EndpointHealth({
    perEndpoint: perVa,
    failuresToOpen: env().DELIVERY_CIRCUIT_FAILURES,
    openMs: env().DELIVERY_CIRCUIT_OPEN_MS,
    maxOpenMs: env().DELIVERY_CIRCUIT_MAX_OPEN_MS,
    clampRetryAfter,
  });
  /** Events in flight, for releasing their leases if a stop runs out of time. */
  const sending = new Map<number, ClaimedEvent>();
  /** Set when stop() gave up waiting and released the leases of the calls still in flight. */
  let abandoned = false;
  const batchSize = options.batchSize ?? 32;
  const idlePollMs = options.idlePollMs ?? 5_000;
  const leaseMs = options.leaseMs ?? defaultLeaseMs();

  /** Events claimed and not yet recorded. */
  let inFlight = 0;
  /** Slots taken by claims under way. */
  let reserved = 0;
  let running = true;
  /** Claim loops running; at most `maxClaims`. */
  let claiming = 0;
  const maxClaims = 2;
  let pumpAgain = false;
  let recording = false;
  const finished: { attempt: FinishedAttempt; signalsBefore: number }[] = [];
  /** The last claim was cut short by the concurrency limit: more may be due than was taken. */
  let saturated = false;
  /**
   * VAs whose events a claim may have left behind because the VA had no free slot (or took all it
   * had): the end of one of their calls that frees a slot claims again at once. A claim that had
   * room for the VA and took less clears it.
   */
  const capped = new Set<number>();
  /**
   * When (ms) a claim last had room for every VA it could see and took all they had due: no other
   * VA's event was hidden behind a capped VA's rows then. Until something can have made another
   * VA's events due (an outbox signal, a timer, a recovered webhook's waiting events), a claim cut
   * by a capped VA needs no second claim to look past its rows; with one VA's backlog that second
   * claim would read the whole backlog to find nothing, after each of its calls. Trusted for
   * `idlePollMs` at most, as the idle poll is for what no signal announces.
   */
  let othersTakenAt = 0;
  const othersTaken = () => Date.now() - othersTakenAt <= idlePollMs;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Number.POSITIVE_INFINITY;
  let idle: (() => void) | undefined;
  const stats: EngineStats = { claims: 0, emptyClaims: 0, rests: 0, signals: 0, timerWakes: 0 };
  const rest = () => {
    stats.rests++;
    idle?.();
  };

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
      othersTakenAt = 0;
      stats.timerWakes++;
      pump();
    }, at - Date.now());
    timer.unref?.();
  };

  const launch = (event: ClaimedEvent) => {
    inFlight++;
    sending.set(event.id, event);
    const probe = health.isProbe(event.virtualAgentId);
    health.started(event.virtualAgentId, event.webhookUrl);
    const signalsBefore = stats.signals;
    void attemptDelivery({ event }).then(
      (attempt) => {
        // Its lease was released when the engine stopped without waiting for it: nothing to record.
        if (abandoned) return;
        sending.delete(event.id);
        const verdict = health.finished(event.virtualAgentId, event.webhookUrl, attempt.outcome);
        if (verdict.opened)
          logger.warn('webhook circuit opened', { virtualAgentId: event.virtualAgentId, until: new Date(verdict.pauseUntil ?? 0) });
        if (verdict.closed) logger.info('webhook circuit closed', { virtualAgentId: event.virtualAgentId });
        if (verdict.pauseUntil !== null) pause(event.accountId, event.virtualAgentId, verdict.pauseUntil);
        // A failed probe says the endpoint is still down, nothing about this event: it keeps its
        // retries and waits for the next probe (otherwise the event picked as probe again and
        // again would use up its schedule while the circuit holds every other one).
        if (probe && !attempt.outcome.ok && verdict.pauseUntil !== null) attempt.uncountedHoldMs = verdict.pauseUntil - Date.now();
        attempt.chain = health.mayChain(event.virtualAgentId);
        attempt.recovered = verdict.recovered;
        finished.push({ attempt, signalsBefore });
        void record();
      },
      (err) => {
        // sendWebhook reports failures in its outcome; this is a bug. The lease runs out and the
        // event is claimed again.
        logger.error('webhook attempt threw', { eventId: event.id, err });
        sending.delete(event.id);
        health.finished(event.virtualAgentId, event.webhookUrl, {
          ok: false,
          startedAt: new Date(),
          durationMs: 0,
          httpStatus: null,
          error: 'attempt threw',
          responseExcerpt: null,
        });
        inFlight--;
        wakeWithin(leaseMs);
      },
    );
  };

  /** Database writes that hold a paused VA's events, awaited by stop(). */
  const pausing = new Set<Promise<void>>();
  /** Holds the VA's events in the database until `until` and makes sure a claim follows then. */
  const pause = (accountId: number, virtualAgentId: number, until: number) => {
    const p = pauseEndpointEvents(db, { accountId, virtualAgentId, until: new Date(until) })
      .then(() => {})
      .catch((err) => logger.error('could not hold the events of a paused webhook', { virtualAgentId, err }))
      .finally(() => pausing.delete(p));
    pausing.add(p);
    wakeWithin(until - Date.now());
  };

  /** What an attempt's end means for the loop: the next event of its chat, a retry, a free slot. */
  const settle = ({ attempt, signalsBefore }: (typeof finished)[number], result: AttemptResult) => {
    logAttempt(attempt, result);
    // A webhook back after failures has its waiting events made due now (recordAttempts).
    if (attempt.outcome.ok && (attempt.recovered || attempt.event.attemptCount > 0)) othersTakenAt = 0;
    // Its chat's next event, leased by the same statement: on its way without a claim.
    if (result.next) launch(result.next);
    else if (result.status === 'pending') wakeWithin(result.retryInMs ?? 0);
    // The chat's next event can go now; or an event written meanwhile may have been passed over by
    // a claim because this one still held its chat.
    else if (result.hasNext || stats.signals !== signalsBefore) {
      pumpAgain = true;
      othersTakenAt = 0;
    }
    // A slot is free for work that did not fit before: the overall limit's, or its VA's.
    if (saturated || (!result.next && capped.has(attempt.event.virtualAgentId))) pumpAgain = true;
  };

  async function record() {
    if (recording) return;
    recording = true;
    try {
      while (finished.length) {
        const batch = finished.splice(0, 200);
        try {
          const results = await recordAttempts(db, { attempts: batch.map((b) => b.attempt), chain: running, leaseMs });
          for (const [i, b] of batch.entries()) settle(b, results[i]);
        } catch (err) {
          // The leases run out and the events are claimed again.
          logger.error('webhook attempts could not be recorded', { eventIds: batch.map((b) => b.attempt.event.id), err });
          wakeWithin(1_000);
        } finally {
          inFlight -= batch.length;
        }
      }
    } finally {
      recording = false;
    }
    if (pumpAgain) pump();
    if (!inFlight && !claiming) rest();
  }

  async function drain() {
    do {
      pumpAgain = false;
      const free = concurrency - inFlight - reserved;
      if (free <= 0) {
        saturated = true; // each recorded attempt pumps again
        return;
      }
      const vaFree = health.freeSlots();
      // Every capped VA is at its limit and no other VA had anything due at the last look: a claim
      // could only read past the capped VAs' rows to find nothing (the whole backlog, for one VA's).
      // The end of one of their calls claims again.
      if (othersTaken() && capped.size && [...capped].every((va) => vaFree[va] === 0)) return;
      const limit = Math.min(free, batchSize);
      reserved += limit;
      let claimed: ClaimedEvent[];
      try {
        stats.claims++;
        claimed = await claimDueEvents(db, { limit, leaseMs, perVa, free: vaFree });
      } finally {
        reserved -= limit;
      }
      if (!claimed.length) stats.emptyClaims++;
      const cut = noteCaps(claimed, vaFree, claimed.length === limit);
      if (claimed.length < limit && !cut) othersTakenAt = Date.now();
      // Sent even when the engine stopped meanwhile: stop() waits for them, so their leases do not
      // hold them back from the next run. An event whose endpoint has no slot left by now (another
      // claim ran beside this one, or the circuit opened meanwhile) is given back at once.
      const surplus: ClaimedEvent[] = [];
      for (const event of claimed) {
        if (health.hasSlot(event.virtualAgentId)) launch(event);
        else surplus.push(event);
      }
      if (surplus.length) {
        await releaseLeases(db, { events: surplus }).catch((err) => logger.error('could not release leases', { err }));
      }
      if (!running) return;
      for (const event of surplus) capped.add(event.virtualAgentId);
      // Events given back wait for a slot of their endpoint: the end of each attempt claims again.
      saturated = claimed.length === limit || surplus.length > 0;
      if (saturated || (cut && !othersTaken())) {
        // More is due: a second claim runs beside this one while these are sent (claims skip each
        // other's rows), so one claim's round trip does not pace the whole engine. After a VA took
        // all its free slots, its other rows may have filled the claim's scan and hidden other
        // VAs' events: the next claim passes that VA over and sees them (unless a claim just
        // did and found none: `othersTakenAt`).
        pumpAgain = true;
        if (claiming < maxClaims) pump();
      } else if (!timer) {
        // Nothing more is due now: sleep until the next retry is due (or the idle poll).
        wakeWithin(Math.min((await msUntilNextDue(db)) ?? idlePollMs, health.msUntilResume() ?? idlePollMs));
      }
    } while (pumpAgain && running);
  }

  /**
   * Notes which VAs a claim may have left events behind for (see `capped`); true when one of them
   * took every slot it had free in this claim.
   */
  function noteCaps(claimed: ClaimedEvent[], vaFree: Record<number, number>, full: boolean): boolean {
    const taken = new Map<number, number>();
    for (const event of claimed) taken.set(event.virtualAgentId, (taken.get(event.virtualAgentId) ?? 0) + 1);
    let cut = false;
    // No free slot: the claim passed the VA over, whatever it has due.
    for (const [va, n] of Object.entries(vaFree)) if (n === 0) capped.add(Number(va));
    for (const [va, n] of taken) {
      if (n >= (vaFree[va] ?? perVa)) {
        capped.add(va);
        cut = true;
      }
    }
    // A claim that was cut by nothing had room for every other VA it saw and took all they had due.
    if (!full && !cut) {
      for (const va of capped) if ((vaFree[va] ?? perVa) > 0) capped.delete(va);
    }
    return cut;
  }

  function pump() {
    if (!running) return;
    if (claiming >= maxClaims) {
      pumpAgain = true;
      return;
    }
    claiming++;
    drain()
      .catch((err) => {
        logger.error('delivery engine could not claim events', { err });
        wakeWithin(1_000);
      })
      .finally(() => {
        claiming--;
        if (pumpAgain && running) pump();
        else if (!inFlight && !claiming) rest();
      });
  }

  // A signal arrives inside the request that wrote the event; the claim it starts is not part of
  // that request (its log lines must not carry the request's trxid), so it runs in the engine's own scope.
  const scope = new AsyncResource('va-delivery-engine');
  const unsubscribe = onOutbox(() =>
    scope.runInAsyncScope(() => {
      stats.signals++;
      othersTakenAt = 0;
      pump();
    }),
  );
  pump();

  return {
    wake: pump,
    get inFlight() {
      return inFlight;
    },
    health,
    stats,
    async stop({ graceMs = Number.POSITIVE_INFINITY } = {}) {
      running = false;
      clearTimeout(timer);
      unsubscribe();
      // Attempts in flight finish (each is bounded by the timeout) and are recorded.
      const deadline = Date.now() + graceMs;
      while ((claiming || inFlight || recording) && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          idle = resolve;
          setTimeout(resolve, Math.min(50, Math.max(1, deadline - Date.now())));
        });
      }
      await Promise.all(pausing);
      if (sending.size) {
        abandoned = true;
        const left = [...sending.values()];
        logger.warn('delivery stopped with calls unanswered; their events are released', { eventIds: left.map((e) => e.id) });
        await releaseLeases(db, { events: left }).catch((err) => logger.error('could not release leases', { err }));
      }
    },
  };
}
