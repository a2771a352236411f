/**
 * One package's label (issue 41, point 2), in Chromium through the web host at 1366×768, in
 * English and Czech: the demo parcel ORD-1002 has three packages. A lost label of one of them is
 * reprinted alone from each place a reprint starts, and exactly that one label comes out of the
 * station's virtual ZPL printer (a real TCP listener that counts the labels it printed):
 *
 * - the Station screen: Ctrl+P (the desk's last label) asks which labels too, keyboard only:
 *   ← picks package 3/3; the already-closed question's reason dialog offers the labels (all, or
 *   package 1/3, 2/3, 3/3); package 2 is picked with a click;
 * - the shipment's detail: "Reprint this label" on package 3's line, with the worker's own words;
 * - the print queue: Reprint on the parcel's job, package 1 picked with →; the queue names the
 *   new job as that package's label.
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
    which: 'Which labels',
    all: 'All 3',
    pkg: (n: number) => `Package ${n}/3`,
    detailSubject: 'Parcel ORD-1002, label of package 3/3',
    reprinted: 'The label of package 3/3 was printed again.',
    reprintLine: 'Reprint this label',
    queueName: 'label of package 1/3',
    ctrlP: 'the label of package 3/3 printed again',
  },
  {
    lang: 'cs',
    locale: 'cs-CZ',
    which: 'Které štítky',
    all: 'Všechny (3)',
    pkg: (n: number) => `Balík ${n}/3`,
    detailSubject: 'Zásilka ORD-1002, štítek balíku 3/3',
    reprinted: 'Štítek balíku 3/3 se vytiskl znovu.',
    reprintLine: 'Vytisknout tento štítek znovu',
    queueName: 'štítek balíku 1/3',
    ctrlP: 'štítek balíku 3/3 vytištěn znovu',
  },
])(
  'one package’s label reprinted ($lang)',
  ({ lang, locale, which, all, pkg, detailSubject, reprinted, reprintLine, queueName, ctrlP }) => {
    describe.skipIf(!needs('chromium', 'keychain'))('in Chromium', { timeout: 180_000 }, () => {
      let d: Desk;
      let page: Page;
      let barcodes: string[];
      let firstJobId: number;
      const shot = (name: string) =>
        page.screenshot({ path: path.join(screenshotsDir, `package-reprint-${name}-${lang}.png`) });
      const printed = () => d.hs.station.printing.virtual.zpl.printed();
      /** The package barcodes on the labels printed since `before`, one entry per label. */
      const barcodesSince = (before: number) =>
        printed()
          .slice(before)
          .map((l) => barcodes.find((b) => l.zpl.includes(b)) ?? '?');
      const dialog = () => page.getByTestId('reprint-why');

      beforeAll(async () => {
        d = await openDesk({ printWaitMs: 3000 });
        page = await d.browser.newPage({ locale, viewport: { width: 1366, height: 768 } });
        await page.goto(d.hs.host.url);
        await page.getByTestId('screen-station').waitFor();
        await page.waitForSelector('[data-testid="station-printer"][data-state="ready"]', { timeout: 20_000 });
      });
      afterAll(() => closeDesk(d));

      it('the Station screen: Ctrl+P with package 3/3 picked by ←, then package 2/3 picked at the already-closed reason; only their labels come out', async () => {
        const scan = async (code: string) => {
          const after = d.rpc.events('scan.outcome').length;
          const next = d.rpc.waitFor(
            'scan.outcome',
            (o) => o.code === code && d.rpc.events('scan.outcome').indexOf(o) >= after,
            30_000,
          );
          await page.getByTestId('scan-input').focus();
          await page.keyboard.type(code);
          await page.keyboard.press('Enter');
          return next;
        };
        const first = await scan('ORD-1002');
        expect(first.kind).toBe('printed');
        firstJobId = 'jobIds' in first ? first.jobIds[0]! : -1;
        await expect.poll(() => printed().length).toBe(3);
        const full = await d.rpc.call('shipments.get', { deliveryId: 1002 });
        barcodes = full!.packages.map((p) => p.barcode!);

        // Ctrl+P: the desk's last label is the parcel's three; ← (from "all") picks package 3/3.
        await page.keyboard.press('Control+p');
        await dialog().waitFor();
        await page.getByTestId('reprint-why-package-all').waitFor();
        await page.keyboard.press('ArrowLeft');
        expect(await page.getByTestId('reprint-why-package-3').getAttribute('aria-checked')).toBe('true');
        await shot('ctrl-p-question');
        await page.keyboard.press('2'); // label lost
        await expect.poll(() => printed().length, { timeout: 20_000 }).toBe(4);
        expect(barcodesSince(3)).toEqual([barcodes[2]]);
        await expect.poll(() => page.getByTestId('command-note').textContent()).toContain(ctrlP);
        await shot('ctrl-p-printed');

        const asked = await scan('ORD-1002');
        expect(asked.kind).toBe('already_closed');
        await page.waitForSelector(
          `[data-testid="scan-outcome"][data-kind="already_closed"][data-scan-id="${asked.scanId}"]`,
        );
        await page.keyboard.press('Enter');
        await dialog().waitFor();
        expect(await dialog().getByRole('radiogroup').getAttribute('aria-label')).toBe(which);
        expect(await page.getByTestId('reprint-why-package-all').textContent()).toBe(all);
        expect(await page.getByTestId('reprint-why-package-all').getAttribute('aria-checked')).toBe('true');
        await page.getByTestId('reprint-why-package-2').click();
        expect(await page.getByTestId('reprint-why-package-2').getAttribute('aria-checked')).toBe('true');
        expect(await page.getByTestId('reprint-why-package-2').textContent()).toBe(pkg(2));
        await shot('station-question');
        await page.keyboard.press('2'); // label lost
        await page.waitForSelector(
          `[data-testid="scan-outcome"][data-kind="printed"][data-scan-id="${asked.scanId}"]`,
          { timeout: 20_000 },
        );
        await expect.poll(() => printed().length).toBe(5);
        expect(barcodesSince(4)).toEqual([barcodes[1]]);
        await shot('station-printed');
      });

      it("the shipment's detail: package 3's line reprints its label alone, with the worker's words", async () => {
        await page.getByTestId('nav-shipments').click();
        const row = page.locator('[data-testid="shipment-row"][data-delivery-id="1002"]');
        await row.click();
        await page.keyboard.press('Enter');
        const detail = page.getByTestId('shipment-detail');
        await detail.getByTestId('detail-reprint-package-3').waitFor();
        expect(await detail.getByTestId('detail-reprint-package-3').textContent()).toBe(reprintLine);
        const before = printed().length;
        await detail.getByTestId('detail-reprint-package-3').click();
        await dialog().waitFor();
        expect(await page.getByTestId('reprint-why-subject').textContent()).toBe(detailSubject);
        // The package is chosen already: no choice of labels here.
        expect(await page.getByTestId('reprint-why-package-all').count()).toBe(0);
        await page.keyboard.press('4');
        await page.getByTestId('reprint-why-note').fill('Štítek se roztrhl při přelepování');
        await page.keyboard.press('Enter');
        await expect
          .poll(() => detail.getByTestId('detail-reprinted').textContent(), { timeout: 20_000 })
          .toBe(reprinted);
        expect(barcodesSince(before)).toEqual([barcodes[2]]);
        await detail.getByTestId('detail-reprinted').scrollIntoViewIfNeeded();
        await shot('detail');
        await detail.getByTestId('detail-close').click();
      });

      it('the print queue: the parcel’s job, package 1 picked with →; the queue names the new job', async () => {
        await page.getByTestId('nav-queue').click();
        await page.getByTestId('queue-show-all').check();
        const before = printed().length;
        await page
          .locator(`[data-testid="queue-row"][data-job-id="${firstJobId}"]`)
          .getByTestId('queue-reprint')
          .click();
        await dialog().waitFor();
        await page.getByTestId('reprint-why-package-all').waitFor();
        await page.keyboard.press('ArrowRight');
        expect(await page.getByTestId('reprint-why-package-1').getAttribute('aria-checked')).toBe('true');
        await shot('queue-question');
        await page.keyboard.press('1'); // damaged label
        await expect.poll(() => printed().length, { timeout: 20_000 }).toBe(before + 1);
        expect(barcodesSince(before)).toEqual([barcodes[0]]);
        await expect
          .poll(
            // The new job, named as that package's label, shown printed.
            () => page.locator('[data-testid="queue-row"][data-state="done"]').filter({ hasText: queueName }).count(),
            { timeout: 20_000 },
          )
          .toBe(1);
        await shot('queue');
      });
    });
  },
);
