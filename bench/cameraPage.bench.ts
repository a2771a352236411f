/**
 * Scan to label from the station's own page with the desk camera on and off, in Chromium with its
 * fake capture device showing a busy 1280×720 desk (harness/deskPicture.ts), on both printer modes
 * (`hs_` with host status, `raw_` without). The page (dist/renderer) comes from the core's web
 * host, the core and the sandbox run in their own processes, all on the same cores. Each scan is
 * put in the scan box and timed from its Enter to the last byte of its label at the virtual
 * printer, scans one after the other as a worker's come. With the camera on the page does all a
 * desk's page does (renderer/src/camera/stillCapture.ts): grabs the frame from the track as the
 * scan leaves, scales and encodes the JPEG in its worker, and uploads it once the scan's outcome
 * came, while the next scan goes; so this figure holds the encoding and the upload that
 * cameraScan.bench.ts (a ready JPEG sent by the benchmark) leaves out. Blocks of
 * BENCH_CAMERA_PAGE_BLOCK (10) scans alternate camera on and off (the page loaded again with the
 * setting, and one scan not counted), BENCH_CAMERA_PAGE_SCANS (150) each, at
 * BENCH_CAMERA_PAGE_LATENCY ms (50) added to every service request. Every camera-on scan's photo
 * must be stored and none marked "no photo".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Browser, Page } from 'playwright-core';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../electron/printing/virtualZplPrinter';
import { launchChromium } from '../test/support/browser';
import { insertShipments, sandboxToken } from '../test/support/sandboxShipments';
import { startCore, type Core } from './harness/core';
import { writeDeskY4m } from './harness/deskPicture';
import { printerModes, usePrinterMode } from './harness/printerMode';
import { labelsAt } from './harness/printerWatch';
import { startSandboxProcess } from './harness/sandboxProcess';
import { summarize } from './stats';

const SCANS = Number(process.env.BENCH_CAMERA_PAGE_SCANS ?? 150);
const BLOCK = Number(process.env.BENCH_CAMERA_PAGE_BLOCK ?? 10);
const LATENCY = Number(process.env.BENCH_CAMERA_PAGE_LATENCY ?? 50);

const cameraSettings = (enabled: boolean) => ({
  enabled,
  deviceId: '',
  deviceLabel: '',
  sizePx: 1280,
  targetKb: 100,
  photoAtPrint: false,
});

/** The page loaded again with the camera `on` or off, ready to scan (with the camera on: showing the desk). */
async function pageWith(core: Core, page: Page, on: boolean): Promise<void> {
  await core.call('camera.setSettings', cameraSettings(on));
  await page.goto(core.pageUrl);
  await page.getByTestId('scan-input').waitFor();
  if (!on) return;
  await page.locator('[data-testid="camera-corner"][data-state="live"]').waitFor({ timeout: 30_000 });
  // "live" comes with the stream, its first picture a little later: a worker scans once the desk shows.
  for (let i = 0; i < 300; i++) {
    const w = await page
      .getByTestId('camera-live')
      .evaluate((v) => (v as unknown as { videoWidth: number }).videoWidth)
      .catch(() => 0);
    if (w > 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the camera corner never showed a picture');
}

/** One scan through the page's scan box: ms from its Enter to its label's last byte at the printer. */
async function pageScan(
  core: Core,
  page: Page,
  printer: VirtualZplPrinter,
  code: string,
): Promise<{ ms: number; deliveryId: number }> {
  const before = printer.printed().length;
  const outcome = core.waitFor('scan.outcome', (o) => o.code === code, 60_000);
  await page.getByTestId('scan-input').fill(code);
  const t0 = performance.now();
  await page.keyboard.press('Enter');
  const t1 = await labelsAt(printer, before + 1, 60_000);
  const o = await outcome;
  if (o.kind !== 'printed') throw new Error(`scan ${code} ended ${o.kind}`);
  return { ms: t1 - t0, deliveryId: o.shipment.deliveryId };
}

/** Resolves once the core holds `n` photos (the page uploads each after its scan's outcome). */
async function photosStored(core: Core, n: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if ((await core.call('retention.get', {})).photos.count >= n) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${(await core.call('retention.get', {})).photos.count} photos stored, ${n} expected`);
}

export async function run(): Promise<Record<string, number>> {
  const out: Record<string, number> = { scans_each: SCANS, latency_ms: LATENCY };
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-camera-page-'));
  const y4m = writeDeskY4m(path.join(tmp, 'desk.y4m'));
  const sb = await startSandboxProcess('demo');
  const printer = await startVirtualZplPrinter();
  let core: Core | null = null;
  let browser: Browser | null = null;
  try {
    const token = await sandboxToken(sb);
    const blocks = Math.ceil(SCANS / BLOCK);
    // Per block: one scan not counted after the page loaded, then BLOCK counted.
    const perKind = blocks * (BLOCK + 1);
    for (const mode of printerModes) {
      await insertShipments(sb, token, perKind, `PON${mode}-`);
      await insertShipments(sb, token, perKind, `POFF${mode}-`);
    }
    core = await startCore({ sandbox: sb, printerPort: printer.port });
    const sync = await core.call('shipments.sync', {});
    if (sync.phase !== 'done') throw new Error(`sync ended ${sync.phase}`);
    await sb.latency(LATENCY);
    browser = await launchChromium({
      args: [
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${y4m}`,
      ],
    });
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    let photos = 0;
    for (const mode of printerModes) {
      await usePrinterMode(core, mode);
      const times = { on: [] as number[], off: [] as number[] };
      const next = { on: 0, off: 0 };
      await core.mark();
      for (let b = 0; b < blocks; b++) {
        for (const kind of ['on', 'off'] as const) {
          await pageWith(core, page, kind === 'on');
          const code = () => `P${kind.toUpperCase()}${mode}-${++next[kind]}`;
          let last = await pageScan(core, page, printer, code());
          for (let i = 0; i < BLOCK; i++) {
            last = await pageScan(core, page, printer, code());
            times[kind].push(last.ms);
          }
          if (kind === 'on') {
            photos += BLOCK + 1;
            // Every photo of the block stored, none marked missing, before the camera goes off.
            await photosStored(core, photos);
            if ((await page.getByTestId('no-photo').count()) > 0) throw new Error('a scan was marked "no photo"');
            const [p] = await core.call('camera.photos', { deliveryId: last.deliveryId });
            if (!p) throw new Error(`no photo of ${last.deliveryId}`);
            out['photo_width'] = p.width;
            out['photo_height'] = p.height;
            out['photo_kb'] = p.bytes / 1024;
          }
        }
      }
      const c = await core.measure();
      const a = summarize(times.on);
      const f = summarize(times.off);
      out[`${mode}_camera_on_p50_ms`] = a.p50;
      out[`${mode}_camera_on_p95_ms`] = a.p95;
      out[`${mode}_camera_off_p50_ms`] = f.p50;
      out[`${mode}_camera_off_p95_ms`] = f.p95;
      out[`${mode}_camera_on_vs_off_p50_ratio`] = a.p50 / f.p50;
      out[`${mode}_camera_on_vs_off_p95_ratio`] = a.p95 / f.p95;
      // The core's CPU is not given per scan here: it also served each block's page load.
      out[`${mode}_core_event_loop_max_block_ms`] = c.loopMaxMs;
    }
    out['photos_stored'] = photos;
  } finally {
    await browser?.close();
    await core?.close();
    await printer.close();
    await sb.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  return out;
}
