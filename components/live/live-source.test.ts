import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { type LiveSource, openLiveSource } from './live-source';

/** A stand-in for the browser's EventSource: the test fires its events and sets its state. */
class FakeSource {
  readyState = 0;
  closed = false;
  readonly listeners = new Map<string, (() => void)[]>();
  addEventListener(type: string, fn: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  fire(type: string, readyState: number) {
    this.readyState = readyState;
    for (const fn of this.listeners.get(type) ?? []) fn();
  }
}

describe('live views: the stream is opened again when the browser gives up on it', () => {
  it('a drop the browser retries is left to it; an answer that closed the source (503) opens a new one after a growing wait', () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const sources: FakeSource[] = [];
      const attached: FakeSource[] = [];
      const states: boolean[] = [];
      const stop = openLiveSource('/api/agent/stream', (s) => attached.push(s as unknown as FakeSource), {
        onOpen: (open) => states.push(open),
        create: () => {
          const s = new FakeSource();
          sources.push(s);
          return s as unknown as LiveSource;
        },
      });
      assert.equal(sources.length, 1);
      sources[0].fire('open', 1);
      // A dropped connection: the browser is CONNECTING again by itself, nothing else to do.
      sources[0].fire('error', 0);
      mock.timers.tick(60_000);
      assert.equal(sources.length, 1);
      // Its retry is answered 503 (no stream): the browser CLOSED it for good.
      sources[0].fire('error', 2);
      mock.timers.tick(999);
      assert.equal(sources.length, 1, 'not before the first wait');
      mock.timers.tick(1);
      assert.equal(sources.length, 2, 'a new source after 1 s');
      assert.deepEqual(attached, sources, 'each new source gets the listeners');
      // Refused again: the wait doubles.
      sources[1].fire('error', 2);
      mock.timers.tick(1_999);
      assert.equal(sources.length, 2);
      mock.timers.tick(1);
      assert.equal(sources.length, 3);
      sources[2].fire('open', 1);
      assert.deepEqual(states, [true, false, false, false, true]);
      // Opened: the next refusal waits 1 s again.
      sources[2].fire('error', 2);
      mock.timers.tick(1_000);
      assert.equal(sources.length, 4);
      // Closed by the page: the source is closed and nothing is opened again.
      stop();
      assert.ok(sources[3].closed);
      sources[3].fire('error', 2);
      mock.timers.tick(60_000);
      assert.equal(sources.length, 4);
    } finally {
      mock.timers.reset();
    }
  });
});
