// Loaded into each server that bench:api measures (`node --import ./bench/probe.mjs ...`): an
// event-loop delay histogram and the GC pauses (the events --trace-gc prints, read through
// perf_hooks). On SIGUSR2 it prints what it saw since the last SIGUSR2 as one `VA_PROBE {json}`
// line on stderr and starts over, so the benchmark gets the figures of each round.
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
let gc = { count: 0, major: 0, ms: 0, maxMs: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gc.count++;
    gc.ms += e.duration;
    gc.maxMs = Math.max(gc.maxMs, e.duration);
    if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) gc.major++;
  }
}).observe({ entryTypes: ['gc'] });

process.on('SIGUSR2', () => {
  const line = {
    eldP50: delay.percentile(50) / 1e6,
    eldP99: delay.percentile(99) / 1e6,
    eldMax: delay.max / 1e6,
    gcCount: gc.count,
    gcMajor: gc.major,
    gcMs: gc.ms,
    gcMaxMs: gc.maxMs,
    heapMb: process.memoryUsage().heapUsed / 2 ** 20,
  };
  process.stderr.write(`VA_PROBE ${JSON.stringify(line)}\n`);
  delay.reset();
  gc = { count: 0, major: 0, ms: 0, maxMs: 0 };
});
