/**
 * What the Station and Shipments screens show stays true when the core's data changes under
 * them or the page is loaded again, in English and Czech at 1366×768:
 * - a label cancelled in the print queue no longer counts as "Waiting" and is not among the last
 *   labels, also after a reload;
 * - a reload (or a second page on the web host) shows the same recent scans and label previews;
 * - "Reset demo data" leaves Shipments listing every demo shipment at once, and the batch list's
 *   "already closed" mark gone.
 *
 * Demo shipments (sandbox/domain/demo.ts): ORD-1001 … ORD-1019, all prepared after a reset.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanOutcome } from '../../shared/contract/workflows';
import { closeDesk, openDesk, screenshotsDir, type Desk } from '../support/desk';
import { needs } from '../support/services';

/** How many shipments the sandbox's demo seed makes (README: ORD-1001 … ORD-1019). */
const DEMO_SHIPMENTS = 19;

const langs = [
  {
    lang: 'en',
    locale: 'en-US',
    cancelCode: 'ORD-1003',
    reloadCode: 'ORD-1009',
    batchCode: 'ORD-1012',
    cancelled: 'Closed — print cancelled',
    notFound: 'Not found',
  },
  {
    lang: 'cs',
    locale: 'cs-CZ',
    cancelCode: 'ORD-1004',
    reloadCode: 'ORD-1011',
    batchCode: 'ORD-1013',
    cancelled: 'Uzavřeno — tisk zrušen',
    notFound: 'Nenalezeno',
  },
] as const;

describe.skipIf(!needs('chromium', 'keychain'))('station views stay true', { timeout: 120_000 }, () => {
  let d: Desk;
  const pages = new Map<string, Page>();

  beforeAll(async () => {
    d = await openDesk({ printWaitMs: 3000 });
    for (const l of langs) {
      const page = await d.browser.newPage({ locale: l.locale, viewport: { width: 1366, height: 768 } });
      await page.goto(d.hs.host.url);
      await page.getByTestId('screen-station').waitFor();
      pages.set(l.lang, page);
    }
  });
  afterAll(() => closeDesk(d));

  async function scan(page: Page, code: string): Promise<ScanOutcome> {
    const after = d.rpc.events('scan.outcome').length;
    const outcome = d.rpc.waitFor(
      'scan.outcome',
      (o) => o.code === code && d.rpc.events('scan.outcome').indexOf(o) >= after,
    );
    await page.getByTestId('scan-input').focus();
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    return outcome;
  }
  const counter = (page: Page, id: string) => page.getByTestId(`counter-${id}`).textContent();
  const recentRow = (page: Page, code: string) =>
    page
      .getByTestId('recent-scans')
      .locator('li')
      .filter({ has: page.locator('.code', { hasText: code }) })
      .first();
  const previewCaptions = (page: Page) => page.locator('[data-testid="label-previews"] figcaption').allTextContents();
  const recentLines = (page: Page) => page.getByTestId('recent-scans').locator('li').allInnerTexts();
  async function reload(page: Page) {
    await page.reload();
    await page.getByTestId('screen-station').waitFor();
  }

  for (const l of langs) {
    it(`${l.lang}: a label cancelled in the print queue leaves "Waiting" and the last labels, also after a reload (item 8)`, async () => {
      const page = pages.get(l.lang)!;
      await reload(page);
      await expect.poll(() => counter(page, 'queued'), { timeout: 20_000 }).not.toBe('–');
      const waitingBefore = Number(await counter(page, 'queued'));
      const zpl = d.hs.station.printing.virtual.zpl;
      await zpl.offline();
      let jobId: number;
      let caption: string;
      try {
        const o = await scan(page, l.cancelCode);
        expect(o.kind).toBe('printer_down');
        const down = o as Extract<ScanOutcome, { kind: 'printer_down' }>;
        jobId = down.jobIds[0]!;
        caption = `${down.shipment.carrier} · #${jobId}`;
        await expect.poll(() => counter(page, 'queued'), { timeout: 20_000 }).toBe(String(waitingBefore + 1));
        await expect.poll(() => previewCaptions(page), { timeout: 20_000 }).toContain(caption);
        // The worker cancels the label in the print queue.
        await d.rpc.call('printing.queue.cancel', { jobId });
      } finally {
        await zpl.online();
      }
      for (const when of ['live', 'after a reload']) {
        if (when !== 'live') await reload(page);
        await expect
          .poll(() => counter(page, 'queued'), { message: when, timeout: 20_000 })
          .toBe(String(waitingBefore));
        await expect.poll(() => previewCaptions(page), { message: when, timeout: 20_000 }).not.toContain(caption);
        await expect
          .poll(() => recentRow(page, l.cancelCode).getAttribute('data-kind'), { message: when, timeout: 20_000 })
          .toBe('print_cancelled');
        expect(await recentRow(page, l.cancelCode).innerText()).toContain(l.cancelled);
      }
      await page.screenshot({ path: path.join(screenshotsDir, `station-print_cancelled-${l.lang}.png`) });
    });

    it(`${l.lang}: a reload and a second page show the same recent scans and label previews (item 12)`, async () => {
      const page = pages.get(l.lang)!;
      // The printer is back (the test before took it offline).
      await expect
        .poll(() => page.getByTestId('station-printer').first().getAttribute('data-state'), { timeout: 30_000 })
        .toBe('ready');
      const printed = await scan(page, l.reloadCode);
      expect(['printed', 'queued']).toContain(printed.kind);
      await scan(page, `NOPE-${l.lang}`);
      await expect.poll(() => recentRow(page, `NOPE-${l.lang}`).innerText(), { timeout: 20_000 }).toContain(l.notFound);
      const { jobIds, shipment } = printed as Extract<ScanOutcome, { kind: 'printed' }>;
      await expect
        .poll(() => previewCaptions(page), { timeout: 20_000 })
        .toContain(`${shipment.carrier} · #${jobIds[0]}`);
      expect(await recentRow(page, l.reloadCode).innerText()).toContain(
        `${shipment.carrier} · ${shipment.recipientName}`,
      );
      const lines = await recentLines(page);
      const captions = await previewCaptions(page);
      expect(lines.length).toBeGreaterThanOrEqual(2);
      const images = () =>
        page
          .locator('[data-testid="label-previews"] img')
          .evaluateAll((imgs) => imgs.map((i) => (i as unknown as { naturalWidth: number }).naturalWidth));

      await reload(page);
      await expect.poll(() => recentLines(page), { timeout: 20_000 }).toEqual(lines);
      await expect.poll(() => previewCaptions(page), { timeout: 20_000 }).toEqual(captions);
      // The previews are pictures that loaded, not empty frames.
      expect((await images()).every((w) => w > 0)).toBe(true);
      await page.screenshot({ path: path.join(screenshotsDir, `station-after-reload-${l.lang}.png`) });

      const second = await d.browser.newPage({ locale: l.locale, viewport: { width: 1366, height: 768 } });
      try {
        await second.goto(d.hs.host.url);
        await second.getByTestId('screen-station').waitFor();
        await expect.poll(() => recentLines(second), { timeout: 20_000 }).toEqual(lines);
        await expect.poll(() => previewCaptions(second), { timeout: 20_000 }).toEqual(captions);
      } finally {
        await second.close();
      }
    });

    it(`${l.lang}: after "Reset demo data" Shipments lists every demo shipment at once and the batch drops its "already closed" mark (item 8)`, async () => {
      const page = pages.get(l.lang)!;
      await page.getByTestId('nav-station').click();
      const closed = await scan(page, l.batchCode);
      expect(['printed', 'queued', 'already_closed']).toContain(closed.kind);
      if (closed.kind === 'already_closed') await page.keyboard.press('Escape');
      await page.keyboard.press('F5');
      await page.getByTestId('scan-input').focus();
      await page.keyboard.type(l.batchCode);
      await page.keyboard.press('Enter');
      const item = page.locator(`[data-testid="batch-items"] li[data-code="${l.batchCode}"]`);
      await expect.poll(() => item.getAttribute('data-status'), { timeout: 20_000 }).toBe('closed');

      await page.keyboard.press('F8');
      await page.getByTestId('settings-tab-accounts').click();
      await page.getByTestId('demo-reset').click();
      await page.getByTestId('demo-reset-yes').click();
      await page.getByTestId('demo-reset-done').waitFor({ timeout: 30_000 });

      // No "Sync now": the list is whole at once.
      await page.keyboard.press('F2');
      await page.getByTestId('screen-shipments').waitFor();
      await expect
        .poll(() => page.getByTestId('shipments-count').getAttribute('data-total'), { timeout: 3000 })
        .toBe(String(DEMO_SHIPMENTS));
      await page.screenshot({ path: path.join(screenshotsDir, `shipments-after-demo-reset-${l.lang}.png`) });

      await page.keyboard.press('F1');
      await expect.poll(() => item.getAttribute('data-status'), { timeout: 3000 }).toBe('ready');
      expect(await page.getByTestId('batch-last').getAttribute('data-status')).toBe('ready');
      await page.screenshot({ path: path.join(screenshotsDir, `station-batch-after-demo-reset-${l.lang}.png`) });
      await page.keyboard.press('F5');
    });
  }
});
