/**
 * Scan to label. The parts run apart, as at a desk: the sandbox in
 * its own process (dist/node/sandbox.mjs), the station core in its own (harness/coreChild.ts,
 * driven over the web host's WebSocket as the page drives it, so no browser typing is timed), the
 * virtual ZPL printer (TCP, host status on) and the floor here. Each scan is timed from sending
 * scan.submit (the page's Enter) to the last byte of its label at the printer, p50/p95 over
 * BENCH_SCANS scans, at 0 ms and at 50 ms added to every service request (sandbox latency fault).
 * The floor, in the same run and interleaved scan by scan with the station's: a minimal script
 * making the same service calls to the same sandbox (PATCH close, GET ZPL) and writing the same
 * label bytes to the same printer (scanToLabelFloor.ts). Reported: the station's added ms at p50,
 * the ratios, and the core's own CPU ms per scan and longest event-loop block while scanning, on
 * both printer modes (harness/printerMode.ts: `hs_` with host status, `raw_` without).
 *
 * The journal's cost: two more cores run under strace (fsync/fdatasync only,
 * seccomp-filtered, the thread pool's too) for BENCH_JOURNAL_SCANS scans each, one as shipped
 * (`full`: synchronous = NORMAL, the -wal file synced on the thread pool before each side effect,
 * electron/store/walSync.ts), one whose -wal syncs do nothing (`normal`: what NORMAL alone would
 * keep over a power cut): disk syncs per scan, their time per scan, and the p50 difference.
 * Then (host status on) 203 dpi (the station rewrites each label's commands) against 300 dpi, at 0 ms.
 * BENCH_CORE_PROF=DIR profiles the core while it scans and prints what took the time.
 */
import { performance } from 'node:perf_hooks';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../electron/printing/virtualZplPrinter';
import { insertShipments, sandboxToken } from '../test/support/sandboxShipments';
import { startCore, straceAvailable, type Core } from './harness/core';
import { printerModes, usePrinterMode } from './harness/printerMode';
import { labelsAt } from './harness/printerWatch';
import { timedScan } from './harness/timedScan';
import { showProfile } from './harness/profileTop';
import { startSandboxProcess, type SandboxProcess } from './harness/sandboxProcess';
import { floorCloseAndFetchZpl, sendZplOverTcp } from './scanToLabelFloor';
import { summarize } from './stats';

const SCANS = Number(process.env.BENCH_SCANS ?? 200);
const JOURNAL_SCANS = Number(process.env.BENCH_JOURNAL_SCANS ?? 50);
const WARMUP = 5;
const LATENCIES = (process.env.BENCH_SCAN_LATENCIES ?? '0,50').split(',').map(Number);

/** The floor's scan: the same calls and bytes, nothing else. */
async function floorScan(
  sb: SandboxProcess,
  token: string,
  printer: VirtualZplPrinter,
  deliveryId: number,
): Promise<number> {
  const before = printer.printed().length;
  const t0 = performance.now();
  const zpl = await floorCloseAndFetchZpl(sb.url, token, deliveryId);
  await sendZplOverTcp(printer.port, zpl);
  return (await labelsAt(printer, before + zpl.length, 60_000)) - t0;
}

async function syncedCore(
  sb: SandboxProcess,
  printer: VirtualZplPrinter,
  o: { strace?: boolean; synchronous?: string; noWalSync?: boolean; profileDir?: string } = {},
): Promise<Core> {
  const core = await startCore({ sandbox: sb, printerPort: printer.port, ...o });
  // Every prepared shipment in the cache first, as after the station's regular sync.
  const sync = await core.call('shipments.sync', {});
  if (sync.phase !== 'done') throw new Error(`sync ended ${sync.phase}: ${sync.error?.message}`);
  return core;
}

export async function run(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const sb = await startSandboxProcess('demo');
  const printer = await startVirtualZplPrinter();
  const cores: Core[] = [];
  try {
    const token = await sandboxToken(sb);
    const n = SCANS + WARMUP;
    const floorIds = new Map<string, number[]>();
    for (const mode of printerModes)
      for (const ms of LATENCIES) {
        floorIds.set(`${mode}${ms}`, await insertShipments(sb, token, n, `F${mode}${ms}-`));
        await insertShipments(sb, token, n, `S${mode}${ms}-`);
      }
    await insertShipments(sb, token, n, 'D-');
    const journalScans = straceAvailable() ? JOURNAL_SCANS : 0;
    if (journalScans) {
      await insertShipments(sb, token, journalScans + WARMUP, 'JF-');
      await insertShipments(sb, token, journalScans + WARMUP, 'JN-');
    }

    const core = await syncedCore(sb, printer, { profileDir: process.env.BENCH_CORE_PROF });
    cores.push(core);
    out['scans'] = SCANS;
    for (const mode of printerModes) {
      await usePrinterMode(core, mode);
      for (const ms of LATENCIES) {
        await sb.latency(ms);
        const ids = floorIds.get(`${mode}${ms}`)!;
        for (let i = 0; i < WARMUP; i++) {
          await floorScan(sb, token, printer, ids[i]!);
          await timedScan(core, printer, `S${mode}${ms}-${i + 1}`);
        }
        const floor: number[] = [];
        const station: number[] = [];
        await core.mark();
        // Interleaved: the floor and the station meet the same load on this shared machine.
        for (let i = WARMUP; i < n; i++) {
          floor.push(await floorScan(sb, token, printer, ids[i]!));
          station.push(await timedScan(core, printer, `S${mode}${ms}-${i + 1}`));
        }
        const c = await core.measure();
        showProfile(`${mode} scans at ${ms} ms`, c.profile, c.longestTask);
        const f = summarize(floor);
        const s = summarize(station);
        const k = `${mode}_at${ms}ms`;
        out[`${k}_floor_p50_ms`] = f.p50;
        out[`${k}_floor_p95_ms`] = f.p95;
        out[`${k}_station_p50_ms`] = s.p50;
        out[`${k}_station_p95_ms`] = s.p95;
        out[`${k}_station_added_p50_ms`] = s.p50 - f.p50;
        out[`${k}_station_vs_floor_p50_ratio`] = s.p50 / f.p50;
        out[`${k}_station_vs_floor_p95_ratio`] = s.p95 / f.p95;
        out[`${k}_core_event_loop_max_block_ms`] = c.loopMaxMs;
        out[`${k}_core_event_loop_max_block_cpu_ms`] = c.loopMaxBlockCpuMs;
        out[`${k}_core_event_loop_p99_ms`] = c.loopP99Ms;
        out[`${k}_core_cpu_ms_per_scan`] = c.cpuMs / SCANS;
      }
    }
    await sb.latency(0);

    // 203 dpi: the same printer (host status on) told it is a 203-dpi one; every label's commands converted.
    await usePrinterMode(core, 'hs');
    const printers = await core.call('printing.printers.list', {});
    const p = printers.find((x) => x.id === 'bench-zpl')!;
    await core.call('printing.printers.save', {
      id: p.id,
      name: p.name,
      connection: p.connection,
      settings: { ...p.settings, dpi: 203 },
    });
    for (let i = 0; i < WARMUP; i++) await timedScan(core, printer, `D-${i + 1}`);
    const at203: number[] = [];
    for (let i = WARMUP; i < n; i++) at203.push(await timedScan(core, printer, `D-${i + 1}`));
    const last = printer.printed().at(-1)!;
    if (!/\^PW800\b/.test(last.zpl) || last.zpl.includes('^GF'))
      throw new Error('the 203-dpi label was not converted command by command');
    const d = summarize(at203);
    out['at0ms_203dpi_station_p50_ms'] = d.p50;
    out['at0ms_203dpi_station_p95_ms'] = d.p95;
    out['at0ms_203_vs_300_p50_ratio'] = d.p50 / out['hs_at0ms_station_p50_ms']!;

    // The journal's disk syncs: two more cores under strace, each on its own data folder, one as
    // shipped (a -wal sync on the thread pool before each side effect, shared by the commits before
    // it) and one whose -wal syncs do nothing (NORMAL alone: syncs only at WAL checkpoints), scans
    // interleaved.
    if (journalScans) {
      const full = await syncedCore(sb, printer, { strace: true });
      cores.push(full);
      const normal = await syncedCore(sb, printer, { strace: true, noWalSync: true });
      cores.push(normal);
      const codes = (part: string, from: number, to: number) =>
        Array.from({ length: to - from }, (_, i) => `J${part}-${from + i + 1}`);
      for (const code of codes('F', 0, WARMUP)) await timedScan(full, printer, code);
      for (const code of codes('N', 0, WARMUP)) await timedScan(normal, printer, code);
      const mf = await full.mark();
      const mn = await normal.mark();
      const times = { full: [] as number[], normal: [] as number[] };
      const fc = codes('F', WARMUP, WARMUP + journalScans);
      const nc = codes('N', WARMUP, WARMUP + journalScans);
      for (let i = 0; i < journalScans; i++) {
        times.full.push(await timedScan(full, printer, fc[i]!));
        times.normal.push(await timedScan(normal, printer, nc[i]!));
      }
      const cf = await full.measure();
      const cn = await normal.measure();
      const sf = full.syncs(mf.at, cf.at)!;
      const sn = normal.syncs(mn.at, cn.at)!;
      out['journal_scans'] = journalScans;
      out['journal_full_disk_syncs_per_scan'] = sf.count / journalScans;
      out['journal_full_disk_sync_ms_per_scan'] = sf.ms / journalScans;
      out['journal_full_disk_sync_ms_each'] = sf.count ? sf.ms / sf.count : 0;
      out['journal_full_station_p50_ms'] = summarize(times.full).p50;
      out['journal_normal_disk_syncs_per_scan'] = sn.count / journalScans;
      out['journal_normal_disk_sync_ms_per_scan'] = sn.ms / journalScans;
      out['journal_normal_station_p50_ms'] = summarize(times.normal).p50;
      out['journal_full_minus_normal_p50_ms'] = summarize(times.full).p50 - summarize(times.normal).p50;
    }
  } finally {
    for (const c of cores) await c.close();
    await printer.close();
    await sb.close();
  }
  return out;
}
