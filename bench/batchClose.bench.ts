/**
 * Batch at desk scale. BENCH_BATCH (500) scanned shipments closed
 * and printed by the station's batch (batch.collect each, then batch.closeAll, until the last label
 * is at the printer) against the floor doing them one by one (PATCH close, GET ZPL, labels over
 * TCP: scanToLabelFloor.ts). The ratio is taken from closeAll on, as the floor starts from known
 * shipments; collecting (the worker's scans) is reported apart, and with it. At 50 ms added to
 * every service request and at 0 ms. The sandbox and the station core run in their own processes
 * (see scanToLabel.bench.ts); the core's own CPU time per shipment and its longest event-loop
 * block are read in the core's process. Both printer modes in the same run (harness/printerMode.ts:
 * `hs_` with host status, `raw_` without), each against the one floor of its latency.
 * BENCH_CORE_PROF=DIR writes a CPU profile of the core per phase and prints its top functions
 * (the profiler's own cost is in that run's CPU figures); BENCH_BATCH_FLOOR=0 skips the floor.
 */
import { performance } from 'node:perf_hooks';
import { startVirtualZplPrinter } from '../electron/printing/virtualZplPrinter';
import { insertShipments, sandboxToken } from '../test/support/sandboxShipments';
import { startCore, type Core } from './harness/core';
import { labelsAt } from './harness/printerWatch';
import { printerModes, usePrinterMode } from './harness/printerMode';
import { showProfile } from './harness/profileTop';
import { startSandboxProcess } from './harness/sandboxProcess';
import { floorCloseAndFetchZpl, sendZplOverTcp } from './scanToLabelFloor';

const BATCH = Number(process.env.BENCH_BATCH ?? 500);
const LATENCIES = (process.env.BENCH_BATCH_LATENCIES ?? '50,0').split(',').map(Number);
const profileDir = process.env.BENCH_CORE_PROF;
const withFloor = process.env.BENCH_BATCH_FLOOR !== '0';
const WARMUP = 20;

export async function run(): Promise<Record<string, number>> {
  const out: Record<string, number> = { shipments: BATCH };
  const sb = await startSandboxProcess('demo');
  const printer = await startVirtualZplPrinter();
  let core: Core | null = null;
  try {
    const token = await sandboxToken(sb);
    const floorIds = new Map<number, number[]>();
    for (const ms of LATENCIES) {
      floorIds.set(ms, await insertShipments(sb, token, BATCH, `BF${ms}-`));
      for (const mode of printerModes) await insertShipments(sb, token, BATCH, `BS${mode}${ms}-`);
    }
    await insertShipments(sb, token, WARMUP, 'BW-');
    core = await startCore({ sandbox: sb, printerPort: printer.port, profileDir });
    const sync = await core.call('shipments.sync', {});
    if (sync.phase !== 'done') throw new Error(`sync ended ${sync.phase}: ${sync.error?.message}`);
    // A small batch first, not measured: the first printer mode measured does not pay for the core's first batch alone.
    for (let i = 0; i < WARMUP; i++) await core.call('batch.collect', { code: `BW-${i + 1}` });
    const warm = printer.printed().length;
    await core.call('batch.closeAll', {});
    await labelsAt(printer, warm + WARMUP, 60_000);

    for (const ms of LATENCIES) {
      await sb.latency(ms);
      // ---- the floor: one shipment after another
      const floorBefore = printer.printed().length;
      const tf0 = performance.now();
      let floorLabels = 0;
      for (const id of withFloor ? floorIds.get(ms)! : []) {
        const zpl = await floorCloseAndFetchZpl(sb.url, token, id);
        await sendZplOverTcp(printer.port, zpl);
        floorLabels += zpl.length;
      }
      const floorMs = (await labelsAt(printer, floorBefore + floorLabels, 600_000)) - tf0;
      if (withFloor) out[`at${ms}ms_floor_wall_ms`] = floorMs;

      for (const mode of printerModes) {
        await usePrinterMode(core, mode);
        const k = `${mode}_at${ms}ms`;
        // ---- the station's batch on this printer mode: collect each code, close all, until the last label is out
        const before = printer.printed().length;
        await core.mark();
        const tb0 = performance.now();
        for (let i = 0; i < BATCH; i++) {
          const item = await core.call('batch.collect', { code: `BS${mode}${ms}-${i + 1}` });
          if ('kind' in item) throw new Error(`batch item ${item.code} waits on the weight check`);
          if (item.status !== 'ready') throw new Error(`batch item ${item.code} is ${item.status}: ${item.message}`);
        }
        const collectMs = performance.now() - tb0;
        const collected = await core.measure();
        showProfile(`${k} collect`, collected.profile, collected.longestTask);
        await core.mark();
        const tc0 = performance.now();
        const summary = await core.call('batch.closeAll', {});
        if (summary.closed !== BATCH)
          throw new Error(
            `batch closed ${summary.closed} of ${BATCH}: ${JSON.stringify(summary.shipments.find((s) => s.error))}`,
          );
        const end = await labelsAt(printer, before + BATCH, 600_000);
        // The queue's last confirmations (host status) still run a moment after the last byte: included.
        await new Promise((r) => setTimeout(r, 200));
        const closed = await core.measure();
        showProfile(`${k} closeAll`, closed.profile, closed.longestTask);
        const stationMs = end - tb0;

        out[`${k}_station_wall_ms`] = stationMs;
        out[`${k}_station_collect_ms`] = collectMs;
        out[`${k}_station_close_and_print_ms`] = end - tc0;
        // The floor starts from known shipments, as the station's closeAll does: collecting (the
        // worker's scans, one per parcel as they come) is reported apart, not in the ratio.
        if (withFloor) out[`${k}_floor_vs_station_speedup`] = floorMs / (end - tc0);
        if (withFloor) out[`${k}_floor_vs_station_with_collect_speedup`] = floorMs / stationMs;
        out[`${k}_core_cpu_ms_per_shipment`] = (collected.cpuMs + closed.cpuMs) / BATCH;
        out[`${k}_core_cpu_ms_per_shipment_collect`] = collected.cpuMs / BATCH;
        out[`${k}_core_cpu_ms_per_shipment_close`] = closed.cpuMs / BATCH;
        // The kernel's share (disk syncs, socket writes) apart from the core's own JavaScript.
        out[`${k}_core_cpu_user_ms_per_shipment`] = (collected.cpuUserMs + closed.cpuUserMs) / BATCH;
        out[`${k}_core_cpu_system_ms_per_shipment`] = (collected.cpuSystemMs + closed.cpuSystemMs) / BATCH;
        out[`${k}_core_event_loop_max_block_ms`] = Math.max(collected.loopMaxMs, closed.loopMaxMs);
        out[`${k}_core_event_loop_max_block_close_ms`] = closed.loopMaxMs;
        out[`${k}_core_event_loop_max_block_cpu_ms`] = Math.max(collected.loopMaxBlockCpuMs, closed.loopMaxBlockCpuMs);
      }
    }
  } finally {
    await core?.close();
    await printer.close();
    await sb.close();
  }
  return out;
}
