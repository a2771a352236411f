/**
 * Scan-to-label (issue 7 "Bench"). The station as a packer meets it: Chromium types a scanned
 * code + Enter into the station page (web host, embedded sandbox, virtual TCP ZPL printer) and we
 * time until the last byte of the parcel's label reached the printer; p50/p95 over 200 scans.
 * The floor is a minimal script making the same service calls and printer bytes with no UI, cache
 * or queue (PATCH close, GET ZPL, one TCP connection). Then a batch of 500 scanned shipments
 * (batch.collect x500, batch.closeAll) against the same script doing them one by one: wall time
 * and requests, counted by a proxy in front of the sandbox that both sides go through.
 *
 * Runs without the page (scan.submit over the WebSocket bridge) when BENCH_SCAN_VIA=rpc, or when
 * the station page has no scan box yet; the figure names say which way was measured. Also
 * reported: how long the keystrokes alone took (Playwright's typing, part of the latency), and the
 * longest block of the station core's event loop while scanning (this process runs the core).
 * The scans run twice in the same run: with the virtual printer at 300 dpi (the service's own
 * layout, bytes unchanged) and at 203 dpi (each label's commands converted); the 203-dpi figures
 * and their ratios to the 300-dpi ones are the "203 <= 1.2 x 300" check.
 * BENCH_SCANS / BENCH_BATCH shrink the run for a quick look.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { Browser, Page } from 'playwright-core';
import { createMemorySecretStore } from '../electron/auth/keychain';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../electron/printing/virtualZplPrinter';
import { startSandbox } from '../sandbox/index';
import { launchChromium } from '../test/support/browser';
import { startFlakyProxy, type FlakyProxy } from '../test/support/flakyProxy';
import { connectRpc, type RpcSocket } from '../test/support/rpcSocket';
import { insertShipments, sandboxToken } from '../test/support/sandboxShipments';
import { repoRoot, startHostedStation, type HostedStation } from '../test/support/station';
import { sendZplOverTcp, floorCloseAndFetchZpl } from './scanToLabelFloor';
import { summarize } from './stats';

const SCANS = Number(process.env.BENCH_SCANS ?? 200);
const WARMUP = 5;
const BATCH = Number(process.env.BENCH_BATCH ?? 500);

/** Resolves once the printer holds `n` labels; polled every millisecond (the printer lives in this process). */
async function labelsAt(printer: VirtualZplPrinter, n: number, timeoutMs = 120_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (printer.printed().length < n) {
    if (performance.now() > until) throw new Error(`the printer has ${printer.printed().length} labels, waited for ${n}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** Service requests seen by the proxy (the test controls under /_sandbox/ are ours, not the station's). */
const apiRequests = (proxy: FlakyProxy) => proxy.seen.filter((r) => !r.includes(' /_sandbox/')).length;

interface Scanner {
  via: 'page' | 'rpc';
  scan(code: string): Promise<void>;
}

async function pageScanner(browser: Browser, hs: HostedStation): Promise<Scanner | null> {
  const page: Page = await browser.newPage({ locale: 'en-US', viewport: { width: 1366, height: 768 } });
  await page.goto(hs.host.url);
  const box = page.getByTestId('scan-input');
  try {
    await box.waitFor({ state: 'visible', timeout: 10_000 });
  } catch {
    await page.close();
    return null;
  }
  await box.focus();
  return {
    via: 'page',
    async scan(code) {
      // A keyboard-wedge scanner: the code's keystrokes, then Enter.
      await page.keyboard.type(code);
      await page.keyboard.press('Enter');
    },
  };
}

function rpcScanner(rpc: RpcSocket): Scanner {
  return { via: 'rpc', scan: async (code) => void (await rpc.call('scan.submit', { code })) };
}

/** One scan timed from its first keystroke to the last label byte, then its outcome awaited so scans do not overlap. */
async function timeScans(scanner: Scanner, rpc: RpcSocket, printer: VirtualZplPrinter, codes: string[]): Promise<{ total: number[]; keys: number[] }> {
  const samples = { total: [] as number[], keys: [] as number[] };
  for (const code of codes) {
    const before = printer.printed().length;
    const outcome = rpc.waitFor('scan.outcome', (o) => o.code === code, 30_000);
    const t0 = performance.now();
    await scanner.scan(code);
    samples.keys.push(performance.now() - t0);
    await labelsAt(printer, before + 1, 30_000);
    samples.total.push(performance.now() - t0);
    const o = await outcome;
    if (o.kind !== 'printed' && o.kind !== 'queued') throw new Error(`scan ${code} ended ${o.kind}: ${JSON.stringify(o).slice(0, 300)}`);
  }
  return samples;
}

export async function run(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const sb = await startSandbox({ port: 0, seed: 'demo' });
  const proxy = await startFlakyProxy(sb.url);
  const floorPrinter = await startVirtualZplPrinter();
  let hs: HostedStation | null = null;
  let browser: Browser | null = null;
  let rpc: RpcSocket | null = null;
  try {
    const token = await sandboxToken(sb);
    const n = SCANS + WARMUP;
    const ids = {
      station: await insertShipments(sb, token, n, 'LAT-S-'),
      floor: await insertShipments(sb, token, n, 'LAT-F-'),
      batchStation: await insertShipments(sb, token, BATCH, 'BAT-S-'),
      batchFloor: await insertShipments(sb, token, BATCH, 'BAT-F-'),
      station203: await insertShipments(sb, token, n, 'LAT-D-'),
    };

    const rendererDir = process.env.STATION_RENDERER_DIR ?? path.join(repoRoot, 'dist', 'renderer');
    if (!existsSync(path.join(rendererDir, 'index.html'))) throw new Error(`no renderer in ${rendererDir}: build it first`);
    // The station talks to the service through the counting proxy; its own sandbox is the one above.
    hs = await startHostedStation({
      sandbox: { url: proxy.url, demo: sb.demo },
      secrets: createMemorySecretStore(),
      staticDir: rendererDir,
    });
    rpc = await connectRpc(hs.host);
    // Every prepared shipment in the cache first, as after the station's regular sync.
    const sync = await rpc.call('shipments.sync', {});
    if (sync.phase !== 'done') throw new Error(`sync ended ${sync.phase}: ${sync.error?.message}`);
    const printer = hs.station.printing.virtual.zpl;

    // Order: the floor first, then the station's batch (no page open), then the page's scans last,
    // since every scan in the page asks for label previews that render in the background afterwards.
    // ---- the floor: PATCH, GET ZPL, TCP, one shipment at a time
    const floorSamples: number[] = [];
    for (let i = 0; i < n; i++) {
      const before = floorPrinter.printed().length;
      const t0 = performance.now();
      const zpl = await floorCloseAndFetchZpl(proxy.url, token, ids.floor[i]!);
      await sendZplOverTcp(floorPrinter.port, zpl);
      await labelsAt(floorPrinter, before + zpl.length);
      if (i >= WARMUP) floorSamples.push(performance.now() - t0);
    }
    const floor = summarize(floorSamples);
    out['floor_p50_ms'] = floor.p50;
    out['floor_p95_ms'] = floor.p95;

    // ---- the floor's batch: the same, one shipment at a time
    const floorPrintedBefore = floorPrinter.printed().length;
    const floorReqBefore = apiRequests(proxy);
    const tf0 = performance.now();
    let floorLabels = 0;
    for (const id of ids.batchFloor) {
      const zpl = await floorCloseAndFetchZpl(proxy.url, token, id);
      await sendZplOverTcp(floorPrinter.port, zpl);
      floorLabels += zpl.length;
    }
    await labelsAt(floorPrinter, floorPrintedBefore + floorLabels, 300_000);
    const floorBatchMs = performance.now() - tf0;
    const floorBatchRequests = apiRequests(proxy) - floorReqBefore;

    // ---- the station's batch of BATCH scanned shipments: collect, close all, until the last label is out
    const labelsBefore = printer.printed().length;
    const batchReqBefore = apiRequests(proxy);
    const tb0 = performance.now();
    for (let i = 0; i < BATCH; i++) {
      const item = await rpc.call('batch.collect', { code: `BAT-S-${i + 1}` });
      if (item.status !== 'ready') throw new Error(`batch item ${item.code} is ${item.status}: ${item.message}`);
    }
    const collectMs = performance.now() - tb0;
    const summary = await rpc.call('batch.closeAll', {});
    if (summary.closed !== BATCH) throw new Error(`batch closed ${summary.closed} of ${BATCH}: ${JSON.stringify(summary.shipments.find((s) => s.error))}`);
    await labelsAt(printer, labelsBefore + BATCH, 300_000);
    const batchMs = performance.now() - tb0;
    const batchRequests = apiRequests(proxy) - batchReqBefore;

    // ---- scan-to-label latency, station
    browser = process.env.BENCH_SCAN_VIA === 'rpc' ? null : await launchChromium();
    const scanner = (browser && (await pageScanner(browser, hs))) ?? rpcScanner(rpc);
    const codes = Array.from({ length: n }, (_, i) => `LAT-S-${i + 1}`);
    await timeScans(scanner, rpc, printer, codes.slice(0, WARMUP));
    const reqBefore = apiRequests(proxy);
    // The station core shares this process's event loop: a long block there delays every scan.
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const timed = await timeScans(scanner, rpc, printer, codes.slice(WARMUP));
    loop.disable();
    const station = summarize(timed.total);
    const stationRequests = apiRequests(proxy) - reqBefore;
    const tag = scanner.via === 'page' ? 'page' : 'rpc';
    out[`scan_${tag}_p50_ms`] = station.p50;
    out[`scan_${tag}_p95_ms`] = station.p95;
    // How much of it is the keystrokes themselves (until Enter was delivered to the page).
    out[`scan_${tag}_keys_p50_ms`] = summarize(timed.keys).p50;
    out[`scan_${tag}_enter_to_label_p50_ms`] = summarize(timed.total.map((t, i) => t - timed.keys[i]!)).p50;
    out[`scan_${tag}_requests_per_scan`] = stationRequests / SCANS;
    out[`scan_${tag}_event_loop_max_block_ms`] = loop.max / 1e6;
    out[`scan_${tag}_event_loop_p99_block_ms`] = loop.percentile(99) / 1e6;
    out[`scan_${tag}_vs_floor_p50_ratio`] = station.p50 / floor.p50;
    out[`scan_${tag}_vs_floor_p95_ratio`] = station.p95 / floor.p95;

    // ---- the same scans for a 203-dpi printer: the station converts each label's commands
    // (electron/printing/zplResolution.ts). Same run, same page, the virtual printer set to 203 dpi.
    const virtualZpl = (await rpc.call('printing.printers.list', {})).find((p) => p.id === 'virtual-zpl')!;
    await rpc.call('printing.printers.save', { id: virtualZpl.id, name: virtualZpl.name, connection: virtualZpl.connection, settings: { ...virtualZpl.settings, dpi: 203 } });
    const codes203 = Array.from({ length: n }, (_, i) => `LAT-D-${i + 1}`);
    await timeScans(scanner, rpc, printer, codes203.slice(0, WARMUP));
    const timed203 = await timeScans(scanner, rpc, printer, codes203.slice(WARMUP));
    const at203 = summarize(timed203.total);
    const sent203 = printer.printed().at(-1)!;
    if (!/\^PW800\b/.test(sent203.zpl) || sent203.zpl.includes('^GF')) throw new Error('the 203-dpi label was not converted command by command');
    await rpc.call('printing.printers.save', { id: virtualZpl.id, name: virtualZpl.name, connection: virtualZpl.connection, settings: virtualZpl.settings });
    out[`scan_${tag}_203dpi_p50_ms`] = at203.p50;
    out[`scan_${tag}_203dpi_p95_ms`] = at203.p95;
    out[`scan_${tag}_203dpi_label_bytes`] = sent203.bytes.length;
    out[`scan_${tag}_203_vs_300_p50_ratio`] = at203.p50 / station.p50;
    out[`scan_${tag}_203_vs_300_p95_ratio`] = at203.p95 / station.p95;

    out['batch_station_collect_ms'] = collectMs;
    out['batch_station_wall_ms'] = batchMs;
    out['batch_station_requests'] = batchRequests;
    out['batch_floor_wall_ms'] = floorBatchMs;
    out['batch_floor_requests'] = floorBatchRequests;
    out['batch_station_vs_floor_wall_ratio'] = batchMs / floorBatchMs;
    out['batch_station_vs_floor_requests_ratio'] = batchRequests / floorBatchRequests;
  } finally {
    rpc?.close();
    await browser?.close();
    await hs?.close();
    await floorPrinter.close();
    await proxy.close();
    await sb.close();
  }
  return out;
}
