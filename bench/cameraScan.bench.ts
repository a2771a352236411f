/**
 * Scan to label with the desk camera on and off, in the same run (the photo never sits
 * on the scan's path). As in scanToLabel.bench.ts the sandbox and the station core run in their
 * own processes and the core is driven over the web host's WebSocket as the page drives it; each
 * scan is timed from sending scan.submit to the last byte of its label at the virtual printer.
 * "Camera on" does what the page does with the camera on: as soon as scan.submit is acknowledged
 * it sends the still (camera.savePhoto, a 1280×720 JPEG of ~100 KB, the size setting's default)
 * without waiting, so the core checks it, writes its file and its row while the scan closes and
 * prints. The JPEG encoding itself happens in the page's process (a canvas), not in the core, and
 * is not part of this figure. Scans alternate on and off so both meet the same load, at
 * BENCH_CAMERA_LATENCY ms (50) added to every service request, BENCH_CAMERA_SCANS (150) each.
 */
import { performance } from 'node:perf_hooks';
import { createCanvas } from '@napi-rs/canvas';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../electron/printing/virtualZplPrinter';
import { insertShipments, sandboxToken } from '../test/support/sandboxShipments';
import { startCore, type Core } from './harness/core';
import { labelsAt } from './harness/printerWatch';
import { startSandboxProcess } from './harness/sandboxProcess';
import { summarize } from './stats';

const SCANS = Number(process.env.BENCH_CAMERA_SCANS ?? 150);
const LATENCY = Number(process.env.BENCH_CAMERA_LATENCY ?? 50);
const WARMUP = 5;

/** A desk photo's stand-in: 1280×720, busy enough (noise over shapes) to weigh ~100 KB as JPEG. */
function deskPhoto(): { jpeg: string; width: number; height: number } {
  const width = 1280;
  const height = 720;
  const c = createCanvas(width, height);
  const g = c.getContext('2d');
  g.fillStyle = '#b08850';
  g.fillRect(0, 0, width, height);
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 4000; i++) {
    g.fillStyle = `rgb(${Math.floor(rnd() * 255)},${Math.floor(rnd() * 255)},${Math.floor(rnd() * 255)})`;
    g.fillRect(rnd() * width, rnd() * height, 2 + rnd() * 12, 2 + rnd() * 12);
  }
  return { jpeg: c.encodeSync('jpeg', 55).toString('base64'), width, height };
}

async function scan(
  core: Core,
  printer: VirtualZplPrinter,
  code: string,
  photo: { jpeg: string; width: number; height: number } | null,
): Promise<{ ms: number; saved: Promise<unknown> }> {
  const before = printer.printed().length;
  const outcome = core.waitFor('scan.outcome', (o) => o.code === code, 60_000);
  const t0 = performance.now();
  const { scanId } = await core.call('scan.submit', { code });
  // As the page does: the still follows the acknowledgement and is not awaited by the scan.
  const saved = photo ? core.call('camera.savePhoto', { scanId, kind: 'scan', ...photo }) : Promise.resolve(null);
  const t1 = await labelsAt(printer, before + 1, 60_000);
  const o = await outcome;
  if (o.kind !== 'printed') throw new Error(`scan ${code} ended ${o.kind}`);
  return { ms: t1 - t0, saved };
}

export async function run(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const sb = await startSandboxProcess('demo');
  const printer = await startVirtualZplPrinter();
  let core: Core | null = null;
  try {
    const token = await sandboxToken(sb);
    const n = SCANS + WARMUP;
    await insertShipments(sb, token, n, 'ON-');
    await insertShipments(sb, token, n, 'OFF-');
    core = await startCore({ sandbox: sb, printerPort: printer.port });
    const sync = await core.call('shipments.sync', {});
    if (sync.phase !== 'done') throw new Error(`sync ended ${sync.phase}`);
    await sb.latency(LATENCY);
    const photo = deskPhoto();
    out['photo_kb'] = (photo.jpeg.length * 3) / 4 / 1024;
    const saves: Promise<unknown>[] = [];
    for (let i = 1; i <= WARMUP; i++) {
      saves.push((await scan(core, printer, `ON-${i}`, photo)).saved);
      await scan(core, printer, `OFF-${i}`, null);
    }
    const on: number[] = [];
    const off: number[] = [];
    await core.mark();
    for (let i = WARMUP + 1; i <= n; i++) {
      const a = await scan(core, printer, `ON-${i}`, photo);
      on.push(a.ms);
      saves.push(a.saved);
      off.push((await scan(core, printer, `OFF-${i}`, null)).ms);
    }
    const c = await core.measure();
    // Every photo was stored (none refused).
    await Promise.all(saves);
    const s = (await core.call('retention.get', {})).photos;
    if (s.count !== n) throw new Error(`${s.count} photos stored, ${n} sent`);
    const a = summarize(on);
    const b = summarize(off);
    out['scans_each'] = SCANS;
    out['latency_ms'] = LATENCY;
    out['camera_on_p50_ms'] = a.p50;
    out['camera_on_p95_ms'] = a.p95;
    out['camera_off_p50_ms'] = b.p50;
    out['camera_off_p95_ms'] = b.p95;
    out['camera_on_vs_off_p50_ratio'] = a.p50 / b.p50;
    out['camera_on_vs_off_p95_ratio'] = a.p95 / b.p95;
    out['core_event_loop_max_block_ms'] = c.loopMaxMs;
    out['core_cpu_ms_per_scan_pair'] = c.cpuMs / SCANS;
  } finally {
    await core?.close();
    await printer.close();
    await sb.close();
  }
  return out;
}
