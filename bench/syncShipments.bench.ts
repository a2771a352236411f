/**
 * Sync of BENCH_SHIPMENTS (10,000) shipments into an empty cache: the station core in its own
 * process (harness/coreChild.ts) asked over the web
 * host's WebSocket (shipments.sync, as the page's Sync button), the sandbox in its own process
 * (dist/node/sandbox.mjs). Read in the core's process: the longest event-loop block while it
 * syncs (target <= 20 ms) and its CPU time; here: wall time, requests, and the bytes of events
 * pushed to the page meanwhile. Then the same sync again with nothing changed (every page 304 to
 * its stored ETag). At 0 ms and at 50 ms added to every service request, one core each (both
 * started on an empty service, so each first sync below starts from an empty cache).
 * BENCH_CORE_PROF=DIR profiles the core while it syncs and prints what took the time.
 */
import { performance } from 'node:perf_hooks';
import { startVirtualZplPrinter } from '../electron/printing/virtualZplPrinter';
import { insertShipments, sandboxToken } from '../test/support/sandboxShipments';
import { startCore, type Core } from './harness/core';
import { showProfile } from './harness/profileTop';
import { startSandboxProcess } from './harness/sandboxProcess';

const SHIPMENTS = Number(process.env.BENCH_SHIPMENTS ?? 10_000);
/** BENCH_SYNC_LATENCIES=0 (or "0,50") runs only those added latencies. */
const LATENCIES = (process.env.BENCH_SYNC_LATENCIES ?? '0,50').split(',').map(Number);

const pushedBytes = (core: Core) => [...core.eventBytes.values()].reduce((a, e) => a + e.bytes, 0);

export async function run(): Promise<Record<string, number>> {
  const out: Record<string, number> = { shipments: SHIPMENTS };
  const sb = await startSandboxProcess('none');
  const printer = await startVirtualZplPrinter();
  const cores = new Map<number, Core>();
  try {
    for (const ms of LATENCIES) {
      const core = await startCore({ sandbox: sb, printerPort: printer.port, profileDir: process.env.BENCH_CORE_PROF });
      cores.set(ms, core);
      // Its start-up sync (of nothing) done before the shipments arrive.
      const first = await core.call('shipments.sync', {});
      if (first.phase !== 'done') throw new Error(`start-up sync ended ${first.phase}: ${first.error?.message}`);
    }
    const token = await sandboxToken(sb);
    await insertShipments(sb, token, SHIPMENTS, 'SYNC-', 500);

    for (const ms of LATENCIES) {
      const core = cores.get(ms)!;
      await sb.latency(ms);
      const k = `at${ms}ms`;
      for (const run of ['empty_cache', 'unchanged'] as const) {
        const bytes0 = pushedBytes(core);
        await core.mark();
        const t0 = performance.now();
        const r = await core.call('shipments.sync', {});
        const wall = performance.now() - t0;
        // Events the sync sent after its reply (a last progress, the changed list) still count.
        await new Promise((res) => setTimeout(res, 300));
        const c = await core.measure();
        showProfile(`${k} ${run}`, c.profile, c.longestTask);
        if (r.phase !== 'done') throw new Error(`sync ended ${r.phase}: ${r.error?.message}`);
        if (run === 'empty_cache' && r.stored < SHIPMENTS) throw new Error(`sync stored ${r.stored} of ${SHIPMENTS}`);
        out[`${k}_${run}_wall_ms`] = wall;
        out[`${k}_${run}_requests`] = r.requests;
        if (run === 'unchanged') out[`${k}_${run}_not_modified`] = r.notModified;
        out[`${k}_${run}_core_event_loop_max_block_ms`] = c.loopMaxMs;
        out[`${k}_${run}_core_event_loop_max_block_cpu_ms`] = c.loopMaxBlockCpuMs;
        out[`${k}_${run}_core_cpu_ms`] = c.cpuMs;
        out[`${k}_${run}_event_bytes_to_page`] = pushedBytes(core) - bytes0;
      }
    }
  } finally {
    for (const c of cores.values()) await c.close();
    await printer.close();
    await sb.close();
  }
  return out;
}
