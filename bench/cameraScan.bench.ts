/**
 * Scan to label with the desk camera on and off, in the same run, on both printer modes
 * (harness/printerMode.ts: `hs_` with host status, `raw_` without). As in scanToLabel.bench.ts the
 * sandbox and the station core run in their own processes and the core is driven over the web
 * host's WebSocket as the page drives it; each scan is timed from sending scan.submit to the last
 * byte of its label at the virtual printer. "Camera on" does what the page does with the camera on
 * (renderer/src/camera/stillCapture.ts): the still (camera.savePhoto, a 1280×720 JPEG of ~100 KB,
 * the size setting's default) is sent once the scan's outcome came, without waiting, so the core
 * checks it and writes its file and row while the next scan closes and prints. The JPEG encoding
 * happens in the page's process (a worker), not in the core, and is not part of this figure
 * (cameraPage.bench.ts measures the page with it, in Chromium). Scans
 * run in blocks of BENCH_CAMERA_BLOCK (10): the floor's (scanToLabelFloor.ts), camera on (the
 * block's last photo stored before the next block), camera off, so the three meet the same load, at
 * BENCH_CAMERA_LATENCY ms (50) added to every service request, BENCH_CAMERA_SCANS (150) each.
 */
import { performance } from 'node:perf_hooks';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../electron/printing/virtualZplPrinter';
import { insertShipments, sandboxToken } from '../test/support/sandboxShipments';
import { startCore, type Core } from './harness/core';
import { deskPhoto } from './harness/deskPicture';
import { printerModes, usePrinterMode } from './harness/printerMode';
import { labelsAt } from './harness/printerWatch';
import { startSandboxProcess, type SandboxProcess } from './harness/sandboxProcess';
import { floorCloseAndFetchZpl, sendZplOverTcp } from './scanToLabelFloor';
import { summarize } from './stats';

const SCANS = Number(process.env.BENCH_CAMERA_SCANS ?? 150);
const LATENCY = Number(process.env.BENCH_CAMERA_LATENCY ?? 50);
const BLOCK = Number(process.env.BENCH_CAMERA_BLOCK ?? 10);
const WARMUP = 5;

type Photo = { jpeg: string; width: number; height: number };

/** One scan timed to its label; with a photo, it is sent once the outcome came (as the page does) and not awaited. */
async function scan(
  core: Core,
  printer: VirtualZplPrinter,
  code: string,
  photo: Photo | null,
): Promise<{ ms: number; saved: Promise<unknown> }> {
  const before = printer.printed().length;
  const outcome = core.waitFor('scan.outcome', (o) => o.code === code, 60_000);
  const t0 = performance.now();
  const { scanId } = await core.call('scan.submit', { code });
  const t1 = await labelsAt(printer, before + 1, 60_000);
  const o = await outcome;
  if (o.kind !== 'printed') throw new Error(`scan ${code} ended ${o.kind}`);
  const saved = photo ? core.call('camera.savePhoto', { scanId, kind: 'scan', ...photo }) : Promise.resolve(null);
  return { ms: t1 - t0, saved };
}

/** The floor's scan (the same service calls and label bytes, nothing else), timed as the station's. */
async function floorScan(sb: SandboxProcess, token: string, printer: VirtualZplPrinter, id: number): Promise<number> {
  const before = printer.printed().length;
  const t0 = performance.now();
  const zpl = await floorCloseAndFetchZpl(sb.url, token, id);
  await sendZplOverTcp(printer.port, zpl);
  return (await labelsAt(printer, before + zpl.length, 60_000)) - t0;
}

export async function run(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const sb = await startSandboxProcess('demo');
  const printer = await startVirtualZplPrinter();
  let core: Core | null = null;
  try {
    const token = await sandboxToken(sb);
    const n = SCANS + WARMUP;
    const floorIds = new Map<string, number[]>();
    for (const mode of printerModes) {
      floorIds.set(mode, await insertShipments(sb, token, n, `CF${mode}-`));
      await insertShipments(sb, token, n, `ON${mode}-`);
      await insertShipments(sb, token, n, `OFF${mode}-`);
    }
    core = await startCore({ sandbox: sb, printerPort: printer.port });
    const sync = await core.call('shipments.sync', {});
    if (sync.phase !== 'done') throw new Error(`sync ended ${sync.phase}`);
    await sb.latency(LATENCY);
    const photo = deskPhoto();
    out['photo_kb'] = (photo.jpeg.length * 3) / 4 / 1024;
    out['scans_each'] = SCANS;
    out['latency_ms'] = LATENCY;
    let photos = 0;
    for (const mode of printerModes) {
      await usePrinterMode(core, mode);
      const ids = floorIds.get(mode)!;
      const times = { floor: [] as number[], on: [] as number[], off: [] as number[] };
      await core.mark();
      for (let from = 1; from <= n; from += BLOCK) {
        const to = Math.min(n, from + BLOCK - 1);
        // The first WARMUP scans of each kind are not counted.
        const keep = (i: number, list: number[], ms: number) => i > WARMUP && list.push(ms);
        for (let i = from; i <= to; i++) keep(i, times.floor, await floorScan(sb, token, printer, ids[i - 1]!));
        const saves: Promise<unknown>[] = [];
        for (let i = from; i <= to; i++) {
          const a = await scan(core, printer, `ON${mode}-${i}`, photo);
          keep(i, times.on, a.ms);
          saves.push(a.saved);
        }
        // Every photo was stored (none refused) before the camera goes off.
        await Promise.all(saves);
        photos += saves.length;
        for (let i = from; i <= to; i++) keep(i, times.off, (await scan(core, printer, `OFF${mode}-${i}`, null)).ms);
      }
      const c = await core.measure();
      const f = summarize(times.floor);
      const a = summarize(times.on);
      const b = summarize(times.off);
      const k = mode;
      out[`${k}_floor_p50_ms`] = f.p50;
      out[`${k}_floor_p95_ms`] = f.p95;
      out[`${k}_camera_on_p50_ms`] = a.p50;
      out[`${k}_camera_on_p95_ms`] = a.p95;
      out[`${k}_camera_off_p50_ms`] = b.p50;
      out[`${k}_camera_off_p95_ms`] = b.p95;
      out[`${k}_camera_on_vs_off_p50_ratio`] = a.p50 / b.p50;
      out[`${k}_camera_on_vs_off_p95_ratio`] = a.p95 / b.p95;
      out[`${k}_camera_on_vs_floor_p95_ratio`] = a.p95 / f.p95;
      out[`${k}_camera_off_vs_floor_p95_ratio`] = b.p95 / f.p95;
      out[`${k}_core_event_loop_max_block_ms`] = c.loopMaxMs;
      out[`${k}_core_cpu_ms_per_station_scan`] = c.cpuMs / (2 * n);
    }
    const stored = (await core.call('retention.get', {})).photos;
    if (stored.count !== photos) throw new Error(`${stored.count} photos stored, ${photos} sent`);
  } finally {
    await core?.close();
    await printer.close();
    await sb.close();
  }
  return out;
}
