/**
 * What the screen says about a print is true, in Chromium through the web host at 1366×768, in
 * English and Czech. The label printer is the station's virtual ZPL printer, a real TCP listener
 * that is switched off (it stops listening) and on again.
 *
 * - Settings → Test print with the printer off: the result says the label waits for the printer
 *   (with why), a second press queues no second label, and once the printer is back it says
 *   printed, and exactly one test label came out.
 * - Ctrl+P (reprint the last label) names the parcel (order number, recipient), not a job number;
 *   after the question closes by any way (Esc, a reason, a click beside it) the scan box has the
 *   focus, so a code typed by hand is scanned. The print queue's Reprint names the parcel too.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDesk, openDesk, screenshotsDir, type Desk } from '../support/desk';
import { needs } from '../support/services';

describe.each([
  {
    lang: 'en',
    locale: 'en-US',
    parcel: 'Parcel ORD-1001 (Jana Nováková)',
    job: 'Print job',
    waits: 'waiting for the printer',
    offline: /printer|connect/i,
    printed: 'printed',
    already: 'already waiting',
    officePrinter: 'Printed on Virtual office printer (PDF folder), not on the usual label printer',
  },
  {
    lang: 'cs',
    locale: 'cs-CZ',
    parcel: 'Zásilka ORD-1001 (Jana Nováková)',
    job: 'Tisková úloha',
    waits: 'čeká na tiskárnu',
    offline: /tiskárn|připoj/i,
    printed: 'vytištěno',
    already: 'už čeká',
    officePrinter: 'Vytištěno na tiskárně Virtuální kancelářská tiskárna (složka PDF), ne na obvyklé tiskárně štítků',
  },
])(
  'what the screen says about a print ($lang)',
  ({ lang, locale, parcel, job, waits, offline, printed, already, officePrinter }) => {
    describe.skipIf(!needs('chromium', 'keychain'))('in Chromium', { timeout: 180_000 }, () => {
      let d: Desk;
      let page: Page;
      const shot = (name: string) =>
        page.screenshot({ path: path.join(screenshotsDir, `print-words-${name}-${lang}.png`) });
      const focusedTestId = () => page.evaluate<string | null>('document.activeElement?.dataset.testid ?? null');
      const outcomeOf = (code: string) =>
        d.rpc.waitFor(
          'scan.outcome',
          (o) => o.code === code && ['printed', 'queued', 'printer_down'].includes(o.kind),
          30_000,
        );

      beforeAll(async () => {
        d = await openDesk({ printWaitMs: 1500 });
        page = await d.browser.newPage({ locale, viewport: { width: 1366, height: 768 } });
        await page.goto(d.hs.host.url);
        await page.getByTestId('screen-station').waitFor();
        await page.waitForSelector('[data-testid="station-printer"][data-state="ready"]', { timeout: 20_000 });
      });
      afterAll(() => closeDesk(d));

      it('Ctrl+P names the parcel, and after Esc, a reason or a click beside the question the scan box has the focus', async () => {
        const first = outcomeOf('ORD-1001');
        await page.getByTestId('scan-input').focus();
        await page.keyboard.type('ORD-1001');
        await page.keyboard.press('Enter');
        await first;

        const ask = async () => {
          await page.keyboard.press('Control+p');
          await page.getByTestId('reprint-why').waitFor();
        };
        const closed = () => expect.poll(() => page.getByTestId('reprint-why').count()).toBe(0);
        /** A code typed by hand after the question closed is scanned: it went into the box. */
        const typedIsScanned = async (code: string) => {
          await expect.poll(focusedTestId).toBe('scan-input');
          const scanned = outcomeOf(code);
          await page.keyboard.type(code);
          await page.keyboard.press('Enter');
          await scanned;
        };

        await ask();
        const subject = await page.getByTestId('reprint-why-subject').textContent();
        expect(subject).toBe(parcel);
        expect(subject).not.toContain(job);
        await shot('reprint-question');
        await page.keyboard.press('Escape');
        await closed();
        await typedIsScanned('ORD-1002');

        await ask();
        await page.keyboard.press('1');
        await closed();
        await typedIsScanned('ORD-1003');

        await ask();
        // Beside the dialog: the backdrop's top-left corner.
        await page.mouse.click(5, 5);
        await closed();
        await typedIsScanned('ORD-1004');
      });

      it("the print queue's Reprint names the parcel, not the job number", async () => {
        const scanned = (await d.rpc.call('scan.recent', {})).scans.filter((x) => x.code === 'ORD-1001');
        const jobId = scanned[scanned.length - 1]!.jobIds[0]!;
        await page.getByTestId('nav-queue').click();
        await page.getByTestId('queue-show-all').check();
        await page.locator(`[data-testid="queue-row"][data-job-id="${jobId}"]`).getByTestId('queue-reprint').click();
        await page.getByTestId('reprint-why').waitFor();
        const subject = await page.getByTestId('reprint-why-subject').textContent();
        expect(subject).toBe(parcel);
        expect(subject).not.toContain(job);
        await shot('queue-reprint-question');
        await page.keyboard.press('Escape');
        await expect.poll(() => page.getByTestId('reprint-why').count()).toBe(0);
        await page.getByTestId('nav-station').click();
        await page.getByTestId('screen-station').waitFor();
      });

      it('Test print with the printer off waits for it (and says so), a second press sends no other, and it prints once when the printer is back', async () => {
        const printer = d.hs.station.printing.virtual.zpl;
        await page.reload(); // a page of its own, whatever the test before left open
        await page.getByTestId('nav-settings').click();
        await page.getByTestId('settings-tab-printers').click();
        const row = page.locator('[data-testid="printer-row"][data-printer-id="virtual-zpl"]');
        await row.waitFor();
        const result = row.getByTestId('printer-test-result');
        const before = printer.printed().length;
        await printer.offline();
        try {
          await row.getByTestId('printer-test-print').click();
          // Said as the worker reads it: waiting for the printer, and why (not "failed").
          await expect.poll(() => result.textContent(), { timeout: 30_000 }).toContain(waits);
          expect(await result.textContent()).toMatch(offline);
          await shot('test-print-waiting');

          await row.getByTestId('printer-test-print').click();
          expect(await row.getByTestId('printer-test-already').textContent()).toContain(already);
          const tests = await d.rpc.call('printing.queue.list', { limit: 100 });
          expect(tests.filter((j) => j.document.kind === 'testPrint')).toHaveLength(1);
        } finally {
          await printer.online();
        }
        await expect.poll(() => result.textContent(), { timeout: 60_000 }).toContain(printed);
        expect(printer.printed().length - before).toBe(1);
        // "Already waiting" is no longer said of a label that came out.
        expect(await row.getByTestId('printer-test-already').count()).toBe(0);
        await shot('test-print-printed');
      });

      it("the green outcome names the printer when a carrier's labels go to another printer than the usual one", async () => {
        await page.reload();
        await page.getByTestId('nav-station').click();
        await page.getByTestId('screen-station').waitFor();
        await page.waitForSelector('[data-testid="station-printer"][data-state="ready"]', { timeout: 30_000 });
        const outcome = page.getByTestId('scan-outcome');
        const scan = async (code: string) => {
          const done = d.rpc.waitFor('scan.outcome', (o) => o.code === code && o.kind === 'printed', 30_000);
          await page.getByTestId('scan-input').focus();
          await page.keyboard.type(code);
          await page.keyboard.press('Enter');
          const o = await done;
          await page.locator(`[data-testid="scan-outcome"][data-scan-id="${o.scanId}"]`).waitFor();
        };
        // RegioExpress goes the usual way (the default route): no printer is named.
        await scan('ORD-1008');
        expect(await outcome.getByTestId('outcome-printers').count()).toBe(0);

        // ParcelPro's labels routed to the office printer (one PDF per label).
        const rules = await d.rpc.call('printing.routes.get', {});
        await d.rpc.call('printing.routes.set', {
          ...rules,
          carriers: { ...rules.carriers, PPR: { format: 'pdf-single', printerId: 'virtual-pdf' } },
        });
        await scan('ORD-1005');
        await expect.poll(() => outcome.getByTestId('outcome-printers').textContent()).toBe(officePrinter);
        await shot('outcome-other-printer');
      });
    });
  },
);
