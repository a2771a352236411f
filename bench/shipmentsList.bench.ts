/**
 * Shipments list with 10,000 cached shipments (it must stay smooth with 10,000 rows): Chromium
 * at 1366x768 opens the Shipments screen of a station whose cache holds 10,000 shipments, scrolls
 * the virtual list from top to bottom one step per animation frame, and we report the frame
 * intervals while scrolling (p50/p95/max; 16.7 ms is 60 fps), the time to the first rows, the
 * most rows ever in the page, and the time Ctrl+A takes to select all.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { launchChromium } from '../test/support/browser';
import { shipmentRecord } from '../test/support/shipmentRecords';
import { repoRoot, startHostedStation } from '../test/support/station';
import { summarize } from './stats';

const ROWS = Number(process.env.BENCH_LIST_ROWS ?? 10_000);
const STEPS = 400;

export async function run(): Promise<Record<string, number>> {
  const rendererDir = process.env.STATION_RENDERER_DIR ?? path.join(repoRoot, 'dist', 'renderer');
  if (!existsSync(path.join(rendererDir, 'index.html')))
    throw new Error(`no renderer in ${rendererDir}: build it first`);
  const hs = await startHostedStation({ staticDir: rendererDir });
  const browser = await launchChromium();
  try {
    const accountId = hs.station.deps.session()!.accountId;
    hs.station.deps.repos.shipments.upsertMany(
      accountId,
      Array.from({ length: ROWS }, (_, i) =>
        shipmentRecord(500_000 + i, { agent: ['NP', 'PPR', 'RGX', 'BOX'][i % 4]! }),
      ),
      new Date(),
    );
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await page.goto(hs.host.url);
    const t0 = performance.now();
    await page.getByTestId('nav-shipments').click();
    await page.getByTestId('shipment-row').first().waitFor();
    const firstRowsMs = performance.now() - t0;

    const list = page.getByTestId('shipments-list');
    // In the page: the page's own clock (a bare `performance` here is the import above, which the bundler renames).
    const frames = await list.evaluate(async (el, steps) => {
      const out: { intervals: number[]; maxRows: number } = { intervals: [], maxRows: 0 };
      const step = (el.scrollHeight - el.clientHeight) / steps;
      let last = window.performance.now();
      for (let i = 1; i <= steps; i++) {
        el.scrollTop = Math.round(step * i);
        await new Promise((r) => requestAnimationFrame(() => r(null)));
        const now = window.performance.now();
        out.intervals.push(now - last);
        last = now;
        out.maxRows = Math.max(out.maxRows, el.querySelectorAll('[data-testid="shipment-row"]').length);
      }
      return out;
    }, STEPS);

    await list.focus();
    const t1 = performance.now();
    await page.keyboard.press('Control+a');
    const total = await page.getByTestId('shipments-count').getAttribute('data-total');
    while ((await page.getByTestId('shipments-count').getAttribute('data-selected')) !== total)
      await new Promise((r) => setTimeout(r, 5));
    const selectAllMs = performance.now() - t1;

    const s = summarize(frames.intervals);
    return {
      rows: Number(total),
      first_rows_ms: firstRowsMs,
      scroll_frame_p50_ms: s.p50,
      scroll_frame_p95_ms: s.p95,
      scroll_frame_max_ms: Math.max(...frames.intervals),
      max_rows_in_page: frames.maxRows,
      select_all_ms: selectAllMs,
    };
  } finally {
    await browser.close();
    await hs.close();
  }
}
