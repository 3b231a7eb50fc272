import type { SendOutcome } from './send-webhook';

export type CircuitState = 'closed' | 'open' | 'half-open';

export type EndpointHealthOptions = {
  /** Most calls in flight to one endpoint. */
  perEndpoint: number;
  /** Consecutive failures that open the circuit. */
  failuresToOpen: number;
  /** First pause of an open circuit; doubles after each failed probe, up to `maxOpenMs`. */
  openMs: number;
  maxOpenMs: number;
  /** Clamps a receiver's Retry-After. */
  clampRetryAfter: (ms: number) => number;
  now?: () => number;
};

type Endpoint = {
  url: string;
  inFlight: number;
  state: CircuitState;
  failures: number;
  /** No call before this time (open circuit, or Retry-After). */
  pausedUntil: number;
  openMs: number;
  /** Current limit on calls in flight: lowered by 429/503, raised by one per success. */
  cap: number;
};

/** What an attempt's end changed for its endpoint; `pauseUntil` asks the caller to hold its events until then. */
export type Verdict = {
  pauseUntil: number | null;
  opened: boolean;
  closed: boolean;
  /** A success after failures (consecutive failures, or an open circuit): the endpoint is back. */
  recovered: boolean;
};

/**
 * Flow control per webhook endpoint (one VA's URL), in one process: a limit on calls in flight, a
 * circuit breaker (after `failuresToOpen` consecutive failures no call goes out until the pause
 * ends, then one probe at a time until one succeeds) and slowing down on 429/503 (the limit is
 * halved and `Retry-After` pauses the endpoint). Events are not attempted while their endpoint is
 * paused, so an outage does not use up their retries faster.
 */
export class EndpointHealth {
  private readonly endpoints = new Map<number, Endpoint>();
  private readonly now: () => number;

  constructor(private readonly opts: EndpointHealthOptions) {
    this.now = opts.now ?? Date.now;
  }

  private get(vaId: number, url?: string): Endpoint {
    let e = this.endpoints.get(vaId);
    // A new address starts with a clean slate.
    if (!e || (url !== undefined && e.url !== url)) {
      e = {
        url: url ?? e?.url ?? '',
        inFlight: e?.inFlight ?? 0,
        state: 'closed',
        failures: 0,
        pausedUntil: 0,
        openMs: this.opts.openMs,
        cap: this.opts.perEndpoint,
      };
      this.endpoints.set(vaId, e);
    }
    return e;
  }

  /** Free slots of each endpoint whose share differs from `perEndpoint`, for the claim. */
  freeSlots(): Record<number, number> {
    const out: Record<number, number> = {};
    const now = this.now();
    for (const [vaId, e] of this.endpoints) {
      if (e.state === 'open' && now >= e.pausedUntil) e.state = 'half-open';
      const limit = now < e.pausedUntil ? 0 : e.state === 'half-open' ? 1 : e.cap;
      const free = Math.max(0, limit - e.inFlight);
      if (free !== this.opts.perEndpoint) out[vaId] = free;
      else if (e.state === 'closed' && e.inFlight === 0 && e.failures === 0) this.endpoints.delete(vaId);
    }
    return out;
  }

  /**
   * Whether one more call to the endpoint may start now. Checked again as each claimed event is
   * launched: two claims running side by side both read the free slots before either launched
   * anything, so together they can take more than an endpoint's share, or two probes of a
   * half-open circuit.
   */
  hasSlot(vaId: number): boolean {
    const e = this.endpoints.get(vaId);
    if (!e) return true;
    const now = this.now();
    if (e.state === 'open' && now >= e.pausedUntil) e.state = 'half-open';
    const limit = now < e.pausedUntil ? 0 : e.state === 'half-open' ? 1 : e.cap;
    return e.inFlight < limit;
  }

  /** Whether a call starting now is the probe of a half-open circuit (call after `hasSlot`). */
  isProbe(vaId: number): boolean {
    return this.endpoints.get(vaId)?.state === 'half-open';
  }

  /** Whether a finished call may lease its chat's next event at once. */
  mayChain(vaId: number): boolean {
    const e = this.endpoints.get(vaId);
    return !e || (e.state === 'closed' && this.now() >= e.pausedUntil && e.inFlight < e.cap);
  }

  started(vaId: number, url: string): void {
    this.get(vaId, url).inFlight++;
  }

  /** Records the end of a call and says what changed. */
  finished(vaId: number, url: string, outcome: SendOutcome): Verdict {
    const e = this.get(vaId, url);
    e.inFlight = Math.max(0, e.inFlight - 1);
    const verdict: Verdict = { pauseUntil: null, opened: false, closed: false, recovered: false };
    // Failed in this process before reaching the endpoint: says nothing about it.
    if (outcome.local) return verdict;
    const status = outcome.httpStatus;
    const slowDown = status === 429 || status === 503;
    const failed = status === null || status >= 500 || status === 429;
    const now = this.now();

    if (slowDown) {
      e.cap = Math.max(1, Math.floor(e.cap / 2));
      if (outcome.retryAfterMs != null) {
        const until = now + this.opts.clampRetryAfter(outcome.retryAfterMs);
        if (until > e.pausedUntil) {
          e.pausedUntil = until;
          verdict.pauseUntil = until;
        }
      }
    } else if (!failed) {
      e.cap = Math.min(this.opts.perEndpoint, e.cap + 1);
    }

    if (!failed) {
      // Any answer but a failure shows the endpoint is up.
      if (e.state !== 'closed') verdict.closed = true;
      verdict.recovered = e.failures > 0 || e.state !== 'closed';
      e.state = 'closed';
      e.failures = 0;
      e.openMs = this.opts.openMs;
      return verdict;
    }
    e.failures++;
    const probeFailed = e.state === 'half-open';
    if (probeFailed || (e.state === 'closed' && e.failures >= this.opts.failuresToOpen)) {
      if (probeFailed) e.openMs = Math.min(e.openMs * 2, this.opts.maxOpenMs);
      e.state = 'open';
      e.pausedUntil = Math.max(e.pausedUntil, now + e.openMs);
      verdict.opened = true;
      verdict.pauseUntil = e.pausedUntil;
    }
    return verdict;
  }

  /** Forgets the endpoint's failures and pauses (an administrator's "Retry now"). */
  reset(vaId: number): void {
    const e = this.endpoints.get(vaId);
    if (!e) return;
    e.state = 'closed';
    e.failures = 0;
    e.pausedUntil = 0;
    e.openMs = this.opts.openMs;
    e.cap = this.opts.perEndpoint;
  }

  /** Circuit state of each endpoint that is not plainly closed (for metrics). */
  states(): { vaId: number; state: CircuitState; inFlight: number }[] {
    return [...this.endpoints].map(([vaId, e]) => ({ vaId, state: e.state, inFlight: e.inFlight }));
  }

  /** Ms until the earliest pause ends, or null. */
  msUntilResume(): number | null {
    const now = this.now();
    let min: number | null = null;
    for (const e of this.endpoints.values()) {
      if (e.pausedUntil > now) min = min === null ? e.pausedUntil - now : Math.min(min, e.pausedUntil - now);
    }
    return min;
  }
}
