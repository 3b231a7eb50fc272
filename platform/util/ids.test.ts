import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isTraceId, newTraceId, traceIdFloor, traceIdTime } from './ids';

describe('trace IDs', () => {
  it('are version 7 UUIDs of the current time, all different, in the order they were made', () => {
    const before = Date.now();
    // More than the pool's 256 IDs, so it is refilled several times along the way.
    const ids = Array.from({ length: 5_000 }, () => newTraceId());
    const after = Date.now();
    assert.ok(ids.every(isTraceId), 'every ID has the version 7 form');
    assert.equal(new Set(ids).size, ids.length, 'no ID repeats');
    assert.deepEqual([...ids].sort(), ids, 'IDs made later sort later, within a millisecond too');
    for (const id of [ids[0], ids.at(-1) as string]) {
      const t = traceIdTime(id);
      assert.ok(t >= before && t <= after + 1, `${id} carries the time it was made`);
      assert.ok(traceIdFloor(before) <= id, 'a time range is a range of IDs');
    }
  });

  it('take their random part from fresh bytes each time', () => {
    // The last 62 bits are random: two IDs of the same millisecond differ there, not only in the count.
    const ids = Array.from({ length: 1_000 }, () => newTraceId());
    const tails = new Set(ids.map((id) => id.slice(-12)));
    assert.ok(tails.size > 990, `${tails.size} distinct random tails of 1,000`);
  });
});
