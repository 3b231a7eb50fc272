import { performance } from 'node:perf_hooks';

/** Wall-clock milliseconds with sub-millisecond resolution, comparable across processes. */
export const nowMs = () => performance.timeOrigin + performance.now();
