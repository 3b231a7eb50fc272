import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';

type Queue<T> = { readonly length: number; remove: (x: T) => T | null; push: (x: T) => T; shift: () => T };

// The queue postgres.js keeps its pool's connections in (not among the package's exports).
const Queue = createRequire(import.meta.url)(path.join(process.cwd(), 'node_modules/postgres/cjs/src/queue.js')) as <T>() => Queue<T>;

/**
 * postgres.js 3.4.9 as patched by patches/postgres+3.4.9.patch: under steady load the pool sends
 * each query to a busy connection with `busy.shift()` and puts it back with `remove` and `push`,
 * so the busy queue is never empty. Unpatched, the queue kept every shifted-out slot and
 * `remove` scanned them all: bench:api's server spent more CPU on each request than on the one
 * before (0.29 ms, then 0.50 ms after 400,000 requests).
 */
describe('database driver: the pool’s connection queue', () => {
  it('stays as long as what it holds while connections go round it', () => {
    const q = Queue<{ id: number }>();
    const connections = Array.from({ length: 10 }, (_, id) => q.push({ id }));
    // The longest array `remove` searches, seen by wrapping indexOf for the loop's length.
    let longest = 0;
    const indexOf = Array.prototype.indexOf;
    Array.prototype.indexOf = function (this: unknown[], ...args: [unknown, number?]) {
      longest = Math.max(longest, this.length);
      return indexOf.apply(this, args);
    };
    try {
      for (let i = 0; i < 100_000; i++) {
        // The pool's go(busy.shift(), query) and then move(c, busy): remove finds nothing, push.
        const c = q.shift();
        q.remove(c);
        q.push(c);
        // Now and then a connection finishes and leaves for the open queue, and comes back.
        if (i % 7 === 0) q.push(q.remove(connections[i % 10]) ?? connections[i % 10]);
      }
    } finally {
      Array.prototype.indexOf = indexOf;
    }
    assert.equal(q.length, 10);
    assert.ok(longest < 5_000, `remove searched an array of ${longest} slots for 10 connections`);
    const left = Array.from({ length: 10 }, () => q.shift().id).sort((a, b) => a - b);
    assert.deepEqual(left, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.equal(q.length, 0);
  });

  it('removes from the middle and keeps the order of the rest', () => {
    const q = Queue<number>();
    for (let i = 0; i < 3000; i++) q.push(i);
    for (let i = 0; i < 2000; i++) assert.equal(q.shift(), i);
    assert.equal(q.remove(2500), 2500);
    assert.equal(q.remove(10), null, 'a shifted-out item is not found again');
    assert.equal(q.length, 999);
    const rest: number[] = [];
    while (q.length) rest.push(q.shift());
    assert.deepEqual(
      rest,
      Array.from({ length: 1000 }, (_, i) => 2000 + i).filter((n) => n !== 2500),
    );
  });
});
