/**
 * The Shipments, Print queue and Tracking screens in Chromium through the loopback web host,
 * against the station's embedded sandbox and its virtual printers:
 * what the worker sees on screen and what comes out of the printers.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readA4Quarters } from '../support/a4Quadrants';
import { launchChromium } from '../support/browser';
import { connectRpc, type RpcSocket } from '../support/rpcSocket';
import { needs } from '../support/services';
import { shipmentRecord } from '../support/shipmentRecords';
import { repoRoot, startHostedStation, type HostedStation } from '../support/station';

const shots = path.join(repoRoot, 'test-results', 'screenshots');
/** Waits for a condition outside a test (expect.poll works only inside one). */
async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`condition not met in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const rendererDir = process.env.STATION_RENDERER_DIR ?? path.join(repoRoot, 'dist', 'renderer');

describe.skipIf(!needs('chromium', 'pdftoppm', 'zbarimg'))(
  'Shipments, Print queue and Tracking screens',
  { timeout: 60_000 },
  () => {
    let hs: HostedStation;
    let browser: Browser;
    let page: Page;
    let rpc: RpcSocket;

    const accountId = () => hs.station.deps.session()!.accountId;
    const cached = (id: number) => hs.station.deps.repos.shipments.get(accountId(), id)!;
    const barcodesOf = (id: number) => cached(id).packages.map((p) => p.barcode!);
    const row = (id: number) => page.locator(`[data-testid="shipment-row"][data-delivery-id="${id}"]`);
    const result = (id: number) => page.locator(`[data-testid="action-result"][data-delivery-id="${id}"]`);

    /** Takes the screenshot in English, then the same screen in Czech, and goes back to English. */
    async function screenshots(name: string, czechText: string) {
      await page.screenshot({ path: path.join(shots, `${name}-en.png`) });
      await page.getByTestId('language').selectOption('cs');
      await expect.poll(() => page.locator('main').textContent()).toContain(czechText);
      await page.screenshot({ path: path.join(shots, `${name}-cs.png`) });
      await page.getByTestId('language').selectOption('en');
    }

    beforeAll(async () => {
      if (!existsSync(path.join(rendererDir, 'index.html')))
        throw new Error(`${rendererDir} has no renderer build: run scripts/build.mjs --only renderer.`);
      hs = await startHostedStation({ printWaitMs: 3000 });
      rpc = await connectRpc(hs.host);
      // The first sync after start fills the cache with the demo company's 19 shipments.
      await until(async () => (await rpc.call('shipments.query', {})).total === 19, 20_000);
      browser = await launchChromium();
      page = await browser.newPage({ locale: 'en-US', viewport: { width: 1366, height: 768 } });
      mkdirSync(shots, { recursive: true });
      page.on('pageerror', (e) => console.error('page error:', e.message));
      await page.goto(hs.host.url);
      await page.getByTestId('nav-shipments').click();
      await until(
        async () =>
          (await page
            .getByTestId('shipments-count')
            .getAttribute('data-total', { timeout: 1000 })
            .catch(() => null)) === '19',
        10_000,
      ).catch(async (e) => {
        await page.screenshot({ path: path.join(shots, 'shipments-start-failed.png') });
        throw e;
      });
    }, 60_000);
    afterAll(async () => {
      rpc?.close();
      await browser?.close();
      await hs?.close();
    });

    it('lists the demo shipments from the cache and filters them by carrier and by text', async () => {
      await expect.poll(() => row(1001).textContent()).toContain('Nováková');
      expect(await page.getByTestId('shipments-count').textContent()).toContain('19 shipments');
      await screenshots('shipments-list', 'Zásilky');

      await page.getByTestId('filter-carrier').selectOption('PPR');
      await expect.poll(() => page.getByTestId('shipments-count').getAttribute('data-total')).toBe('5');
      const ids = await page
        .getByTestId('shipment-row')
        .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-delivery-id'))));
      expect(ids.sort()).toEqual([1004, 1005, 1006, 1007, 1016]);
      await page.getByTestId('filter-carrier').selectOption('');

      await page.getByTestId('filter-text').fill('Procházka');
      await expect.poll(() => page.getByTestId('shipments-count').getAttribute('data-total')).toBe('1');
      expect(await page.getByTestId('shipment-row').getAttribute('data-delivery-id')).toBe('1002');
      await page.getByTestId('filter-text').fill('');
      await expect.poll(() => page.getByTestId('shipments-count').getAttribute('data-total')).toBe('19');
    });

    it('closes two selected prepared shipments and their labels come out of the ZPL printer', async () => {
      const before = hs.station.printing.virtual.zpl.printed().length;
      await row(1001).click();
      await row(1002).click({ modifiers: ['Control'] });
      expect(await page.getByTestId('shipments-count').getAttribute('data-selected')).toBe('2');

      await page.getByTestId('action-close').click();

      await expect.poll(() => result(1001).getAttribute('data-outcome'), { timeout: 20_000 }).toBe('done');
      expect(await result(1002).getAttribute('data-outcome')).toBe('done');
      expect(await result(1001).getAttribute('data-print')).toBe('printed');
      expect(await result(1002).textContent()).toContain('labels printed');
      // One label per package: 1001 has one, 1002 three; each carries its package barcode.
      const printed = hs.station.printing.virtual.zpl
        .printed()
        .slice(before)
        .map((l) => l.zpl);
      const expected = [...barcodesOf(1001), ...barcodesOf(1002)];
      expect(expected).toHaveLength(4);
      for (const b of expected) expect(printed.filter((zpl) => zpl.includes(b))).toHaveLength(1);
      await expect.poll(() => row(1001).textContent()).toContain('Closed, not sent');
      await screenshots('shipments-closed', 'Uzavření a tisk');
    });

    it('prints the labels as PDF A4 from position 3 on the PDF printer: the label sits in the third quarter', async () => {
      const pdf = hs.station.printing.virtual.pdf;
      const before = pdf.received().length;
      await row(1001).click();
      await page.getByTestId('print-format').selectOption('pdf-a4');
      await page.getByTestId('print-position').selectOption('3');
      await page.getByTestId('action-print').click();

      await expect.poll(() => result(1001).getAttribute('data-print'), { timeout: 20_000 }).toBe('printed');
      const files = pdf.received().slice(before);
      expect(files).toHaveLength(1);
      const quarters = readA4Quarters(readFileSync(path.join(pdf.folder, files[0]!.name)));
      expect(quarters).toEqual({ 1: [], 2: [], 3: barcodesOf(1001), 4: [] });
      await page.getByTestId('print-format').selectOption('zpl');
    });

    it('shows every field of a shipment and the previews of its labels in the detail view', async () => {
      await row(1002).click();
      await page.keyboard.press('Enter');
      const detail = page.getByTestId('shipment-detail');
      await expect.poll(() => detail.getByTestId('detail-recipient').textContent()).toContain('Karel Procházka');
      expect(await detail.getByTestId('detail-cod').textContent()).toBe('4,200.50 CZK'); // the sandbox's "4200,5" without float drift
      expect(await detail.getByTestId('detail-sender').textContent()).toContain('WH-PRAHA');
      const packages = await detail.getByTestId('detail-packages').textContent();
      for (const b of barcodesOf(1002)) expect(packages).toContain(b);
      // The labels printed at closing, rendered from the stored ZPL: one image per package.
      await expect.poll(() => detail.getByTestId('label-preview').count(), { timeout: 30_000 }).toBe(3);
      await screenshots('shipments-detail', 'Dobírka');
      await detail.getByTestId('detail-close').click();
    });

    it('cancels a prepared shipment after a confirmation', async () => {
      await row(1003).click();
      await page.getByTestId('action-cancel').click();
      await expect.poll(() => page.getByTestId('confirm-yes').isVisible()).toBe(true);
      await page.getByTestId('confirm-yes').click();

      await expect.poll(() => result(1003).getAttribute('data-outcome'), { timeout: 20_000 }).toBe('done');
      await expect.poll(() => row(1003).textContent()).toContain('Cancelled');
      expect(cached(1003).state).toBe(10);
      const [atService] = await hs.station.deps.session()!.client.getDeliveriesByIds([1003]);
      expect(atService!.deliveryState).toBe(10);
    });

    it('shows the traces of a closed shipment on the Tracking screen once the carrier has it', async () => {
      await row(1001).click();
      await page.getByTestId('action-tracking').click();
      const card = page.locator('[data-testid="tracking-shipment"][data-delivery-id="1001"]');
      await expect.poll(() => card.textContent(), { timeout: 15_000 }).toContain('No traces yet');

      const res = await fetch(`${hs.station.sandbox.url}/_sandbox/clock/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seconds: 6 * 24 * 3600 }),
      });
      expect(res.status).toBe(200);
      await page.getByTestId('tracking-refresh').click();

      await expect.poll(() => card.getByTestId('trace').count(), { timeout: 15_000 }).toBeGreaterThan(0);
      expect(await card.textContent()).toContain('Parcel picked up by National Post');
      expect(await card.getByTestId('tracking-state').textContent()).toMatch(/Sent|Delivered/);
      await screenshots('tracking-traces', 'Zásilka převzata dopravcem');

      // A typed code of an unclosed shipment says why it has no traces.
      await page.getByTestId('tracking-input').fill('ORD-1005');
      await page.getByTestId('tracking-input').press('Enter');
      const open = page.locator('[data-testid="tracking-shipment"][data-delivery-id="1005"]');
      await expect
        .poll(() => open.getByTestId('tracking-error').getAttribute('data-code'), { timeout: 15_000 })
        .toBe('not_closed');
    });

    it('the core refuses calls with bad params over the WebSocket bridge, with a clear error', async () => {
      await expect(
        rpc.call('shipments.printLabels', { deliveryIds: [1001], format: 'zpl', position: 3 }),
      ).rejects.toMatchObject({ code: 'invalid_params' });
      await expect(rpc.call('shipments.close', { deliveryIds: [] })).rejects.toMatchObject({ code: 'invalid_params' });
      await expect(rpc.call('shipments.cancel', { deliveryIds: [1001], force: true } as never)).rejects.toMatchObject({
        code: 'invalid_params',
      });
      await expect(
        rpc.call('shipments.printLabels', { deliveryIds: [1001], format: 'pdf-a4', position: 5 }),
      ).rejects.toThrow(/position/);
    });

    it('queue: a label for an offline printer fails with its reason, and prints after the printer is back and the worker retries', async () => {
      const zpl = hs.station.printing.virtual.zpl;
      await zpl.offline();
      const reprint = await rpc.call('shipments.reprint', { deliveryIds: [1001], why: { code: 'damaged' } });
      expect(reprint.results[0]!.print).toBe('printer_down');
      const jobId = reprint.results[0]!.jobIds[0]!;

      await page.getByTestId('nav-queue').click();
      const job = page.locator(`[data-testid="queue-row"][data-job-id="${jobId}"]`);
      await expect.poll(() => job.getAttribute('data-state'), { timeout: 15_000 }).toBe('failed');
      expect((await job.getByTestId('queue-reason').textContent())!.length).toBeGreaterThan(5);
      await expect.poll(() => page.getByTestId('queue-offline').first().textContent()).toContain('offline');
      await screenshots('queue-failed', 'Tisková fronta');

      const before = zpl.printed().length;
      await zpl.online();
      // The job may retry by itself on its backoff; the worker's "Retry now" must not be needed to wait.
      // The printer is seen back within ~2 s and its lane drains by itself, so the button may go away under the click.
      await job
        .getByTestId('queue-retry')
        .click({ timeout: 2000 })
        .catch(() => undefined);
      await expect.poll(() => zpl.printed().length, { timeout: 15_000 }).toBeGreaterThan(before);
      expect(
        zpl
          .printed()
          .slice(before)
          .some((l) => l.zpl.includes(barcodesOf(1001)[0]!)),
      ).toBe(true);
      await page.getByTestId('queue-show-all').check();
      await expect.poll(() => job.getAttribute('data-state')).toBe('done');
    });

    it('queue: a job whose printer dropped off mid-label asks the worker to decide; "Print again" prints it', async () => {
      const zpl = hs.station.printing.virtual.zpl;
      zpl.set({ closeAfterBytes: 40 });
      const reprint = await rpc.call('shipments.reprint', { deliveryIds: [1002], why: { code: 'damaged' } });
      const jobId = reprint.results[0]!.jobIds[0]!;
      zpl.set({ closeAfterBytes: null });

      await page.getByTestId('queue-show-active').check();
      const job = page.locator(`[data-testid="queue-row"][data-job-id="${jobId}"]`);
      await expect.poll(() => job.getAttribute('data-state'), { timeout: 15_000 }).toBe('uncertain');
      expect(await page.getByTestId('queue-uncertain').textContent()).toContain('may or may not have printed');
      await screenshots('queue-uncertain', 'Vytisklo se');

      const before = zpl.printed().length;
      await job.getByTestId('queue-print-again').click();
      // Every reprint says why first (3: wrong printer).
      await page.getByTestId('reprint-why').waitFor();
      await page.keyboard.press('3');
      await expect.poll(() => zpl.printed().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(before + 3);
      const again = zpl
        .printed()
        .slice(before)
        .map((l) => l.zpl);
      for (const b of barcodesOf(1002)) expect(again.filter((z) => z.includes(b))).toHaveLength(1);
      await expect.poll(() => job.count()).toBe(0); // replaced by the reprint: it leaves the waiting list
    });
  },
);

describe.skipIf(!needs('chromium'))('Shipments screen with 10,000 cached shipments', () => {
  let hs: HostedStation;
  let browser: Browser;

  beforeAll(async () => {
    hs = await startHostedStation();
    const accountId = hs.station.deps.session()!.accountId;
    const records = Array.from({ length: 10_000 }, (_, i) =>
      shipmentRecord(200_000 + i, { agent: i % 2 ? 'PPR' : 'NP' }),
    );
    hs.station.deps.repos.shipments.upsertMany(accountId, records, new Date());
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await hs?.close();
  });

  it('keeps only the rows in view in the page, scrolls to the last one, and selects all with Ctrl+A', async () => {
    const page = await browser.newPage({ locale: 'en-US', viewport: { width: 1366, height: 768 } });
    await page.goto(hs.host.url);
    await page.getByTestId('nav-shipments').click();
    await expect
      .poll(async () => Number(await page.getByTestId('shipments-count').getAttribute('data-total')), {
        timeout: 20_000,
      })
      .toBeGreaterThanOrEqual(10_000);
    const total = Number(await page.getByTestId('shipments-count').getAttribute('data-total'));
    expect(await page.getByTestId('shipment-row').count()).toBeLessThan(60);

    // The oldest shipment is the last row: scrolling to the bottom loads and shows it.
    await page.getByTestId('shipments-list').evaluate((el) => (el.scrollTop = el.scrollHeight));
    const lowest = hs.station.deps.repos.shipments.query(hs.station.deps.session()!.accountId, {
      offset: total - 1,
      limit: 1,
    }).items[0]!.deliveryId;
    await expect
      .poll(() => page.locator(`[data-testid="shipment-row"][data-delivery-id="${lowest}"]`).count(), {
        timeout: 10_000,
      })
      .toBe(1);
    expect(await page.getByTestId('shipment-row').count()).toBeLessThan(60);

    await page.getByTestId('shipments-list').focus();
    await page.keyboard.press('Control+a');
    await expect
      .poll(() => page.getByTestId('shipments-count').getAttribute('data-selected'), { timeout: 20_000 })
      .toBe(String(total));
    await page.close();
  });
});
