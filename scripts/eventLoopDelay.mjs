#!/usr/bin/env node
// What the benchmarks' event-loop figure reads for a block of known length: `monitorEventLoopDelay`
// at the 10 ms resolution the core's harness uses (bench/harness/coreChild.ts) records the whole gap
// between two of its ticks, so a block shows as its length plus the part of the tick's period
// before it began. Busy-waits X ms once in a quiet loop, 20 times each, and prints the histogram's
// max. `node scripts/eventLoopDelay.mjs` (read docs/BENCHMARKS.md's block figures against it).
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

const spin = (ms) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

for (const blockMs of [0, 5, 10, 15, 20]) {
  const maxes = [];
  for (let i = 0; i < 20; i++) {
    const h = monitorEventLoopDelay({ resolution: 10 });
    h.enable();
    await sleep(30 + Math.random() * 10);
    if (blockMs) spin(blockMs);
    await sleep(30);
    h.disable();
    maxes.push(h.max / 1e6);
  }
  maxes.sort((a, b) => a - b);
  console.log(
    `block ${blockMs} ms: the figure reads ${maxes[0].toFixed(1)} to ${maxes[19].toFixed(1)} ms (median ${maxes[10].toFixed(1)})`,
  );
}
