import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EndpointHealth } from './endpoint-health';
import type { SendOutcome } from './send-webhook';

const outcome = (httpStatus: number | null): SendOutcome => ({
  ok: httpStatus === 200,
  startedAt: new Date(0),
  durationMs: 1,
  httpStatus,
  error: httpStatus === null ? 'timeout' : null,
  responseExcerpt: null,
});

function health() {
  let now = 1_000;
  const h = new EndpointHealth({
    perEndpoint: 2,
    failuresToOpen: 2,
    openMs: 100,
    maxOpenMs: 1_000,
    clampRetryAfter: (ms) => ms,
    now: () => now,
  });
  return { h, tick: (ms: number) => (now += ms) };
}

describe('endpoint health', () => {
  it('refuses a launch past the share, whatever the claims read before', () => {
    const { h } = health();
    assert.equal(h.hasSlot(7), true);
    h.started(7, 'u');
    h.started(7, 'u');
    assert.equal(h.hasSlot(7), false);
    h.finished(7, 'u', outcome(200));
    assert.equal(h.hasSlot(7), true);
  });

  it('allows no launch while open and exactly one probe when half-open', () => {
    const { h, tick } = health();
    for (let i = 0; i < 2; i++) {
      h.started(7, 'u');
      h.finished(7, 'u', outcome(500));
    }
    assert.equal(h.hasSlot(7), false, 'open');
    tick(100);
    assert.equal(h.hasSlot(7), true, 'half-open: one probe');
    assert.equal(h.isProbe(7), true);
    h.started(7, 'u');
    assert.equal(h.hasSlot(7), false, 'no second probe beside the first');
    const verdict = h.finished(7, 'u', outcome(500));
    assert.ok(verdict.opened && verdict.pauseUntil !== null, 'a failed probe opens again');
    assert.equal(h.hasSlot(7), false);
    tick(200);
    h.started(7, 'u');
    assert.equal(h.finished(7, 'u', outcome(200)).closed, true);
    assert.equal(h.isProbe(7), false);
    assert.equal(h.hasSlot(7), true);
  });
});
