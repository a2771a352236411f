/**
 * A Zebra that goes silent when it stops, as Zebra's guide says under ~HS ("the printer will not
 * send a response to the host if the printer is in one of these conditions: MEDIA OUT, RIBBON OUT,
 * HEAD OPEN, …"), while it still answers ~HQES with the stop's bits (the guide's ~HQ examples;
 * docs/printer-behaviour-sources.md § 1a, 2b). The station's own virtual label printer (a real TCP
 * listener) is switched to that profile (`silentOnFault`).
 *
 * What the worker sees, in English and in Czech, in Chromium through the web host: the stop named
 * in their words on the Station screen (the printer beside the scan box, the scan's outcome) and in
 * the print queue, both for a label that waits to be sent and for one already in the printer; and,
 * once the printer prints again, the stop gone and the labels printed, never "not answering".
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../electron/auth/keychain';
import type { ScanOutcome } from '../../shared/contract/workflows';
import { closeDesk, openDesk, screenshotsDir, type Desk } from '../support/desk';
import { needs } from '../support/services';

const langs = [
  {
    lang: 'en',
    locale: 'en-US',
    station: 'Station',
    outOfLabels: 'out of labels',
    headOpen: 'head is open',
    held: 'In the printer, held',
    notAnswering: 'does not answer',
    waitCode: 'ORD-1002',
    heldCode: 'ORD-1007',
  },
  {
    lang: 'cs',
    locale: 'cs-CZ',
    station: 'Stanice',
    outOfLabels: 'došly štítky',
    headOpen: 'hlava je otevřená',
    held: 'V tiskárně, zadrženo',
    notAnswering: 'neodpovídá',
    waitCode: 'ORD-1010',
    heldCode: 'ORD-1011',
  },
] as const;

describe.skipIf(!needs('chromium'))('a label printer silent while it is stopped', { timeout: 180_000 }, () => {
  let desk: Desk;

  beforeAll(async () => {
    desk = await openDesk({ secrets: createMemorySecretStore(), printWaitMs: 2000 });
    desk.hs.station.printing.virtual.zpl.setProfile({ silentOnFault: true });
  });
  afterAll(() => closeDesk(desk));

  const zpl = () => desk.hs.station.printing.virtual.zpl;
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(screenshotsDir, `${name}.png`) });

  async function open(l: (typeof langs)[number]): Promise<Page> {
    await desk.rpc.call('settings.set', { language: l.lang });
    const page = await desk.browser.newPage({ locale: l.locale, viewport: { width: 1366, height: 768 } });
    page.setDefaultTimeout(20_000);
    await page.goto(desk.hs.host.url);
    await page.getByTestId('scan-input').waitFor({ state: 'visible' });
    await expect.poll(() => page.getByTestId('nav-station').textContent()).toContain(l.station);
    await page.getByTestId('scan-input').focus();
    return page;
  }

  async function scan(page: Page, code: string): Promise<Extract<ScanOutcome, { jobIds: number[] }>> {
    const told = desk.rpc.waitFor('scan.outcome', (o) => o.code === code && 'jobIds' in o, 30_000);
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    const o = await told;
    if (!('jobIds' in o)) throw new Error(`unexpected outcome ${o.kind}`);
    return o;
  }

  const jobState = async (id: number) =>
    (await desk.rpc.call('printing.queue.list', { limit: 500 })).find((j) => j.id === id)?.state;
  const chip = (page: Page) => page.getByTestId('station-printer').first();

  for (const l of langs) {
    it(`${l.lang}: out of labels before the scan: the outcome, the printer beside the scan box and the queue say "${l.outOfLabels}"; loaded, it prints and the screen turns green`, async () => {
      const page = await open(l);
      zpl().clear();
      zpl().set({ paperOut: true });
      try {
        const o = await scan(page, l.waitCode);
        const outcome = page.getByTestId('scan-outcome');
        await expect.poll(() => outcome.getAttribute('data-kind'), { timeout: 30_000 }).toBe('printer_down');
        await expect.poll(async () => (await outcome.textContent())!.toLowerCase()).toContain(l.outOfLabels);
        expect(await outcome.textContent()).not.toContain(l.notAnswering);
        await expect.poll(async () => (await chip(page).textContent())!.toLowerCase()).toContain(l.outOfLabels);
        expect(zpl().printed()).toEqual([]);
        await shot(page, `silent-stop-outcome-${l.lang}`);

        await page.keyboard.press('F4');
        const row = page.locator(`[data-testid="queue-row"][data-job-id="${o.jobIds[0]}"]`);
        await expect
          .poll(async () => (await row.getByTestId('queue-reason').textContent())!.toLowerCase())
          .toContain(l.outOfLabels);
        await shot(page, `silent-stop-queue-${l.lang}`);
        // The Status screen names the stop beside the printer's state.
        await page.keyboard.press('F9');
        await expect
          .poll(async () => (await page.getByTestId('printers').textContent())!.toLowerCase())
          .toContain(l.outOfLabels);
        await shot(page, `silent-stop-status-${l.lang}`);

        zpl().set({ paperOut: false });
        await expect.poll(() => jobState(o.jobIds[0]!), { timeout: 60_000 }).toBe('done');
        await page.keyboard.press('F1');
        await expect.poll(() => outcome.getAttribute('data-kind'), { timeout: 20_000 }).toBe('printed');
        await expect.poll(() => chip(page).getAttribute('data-state')).toBe('ready');
        expect(await chip(page).textContent()).not.toContain(l.notAnswering);
        await page.keyboard.press('F9');
        await expect
          .poll(async () => (await page.getByTestId('printers').textContent())!.toLowerCase())
          .not.toContain(l.outOfLabels);
      } finally {
        zpl().set({ paperOut: false });
        await page.close();
      }
    });

    it(`${l.lang}: the head opened with the label in the printer: the queue says "${l.held}" with the stop, the outcome and the printer beside the scan box too; closed, the label comes out and the outcome turns green, never "not answering"`, async () => {
      const page = await open(l);
      // Slow enough that the label is still in the printer when the head opens (six inches at
      // 0.01 in/s: ten minutes); full speed again once it is closed.
      zpl().setSpeed(0.01, 300);
      try {
        const o = await scan(page, l.heldCode);
        const id = o.jobIds[0]!;
        await expect.poll(() => jobState(id), { timeout: 20_000 }).toBe('sent');
        zpl().set({ headOpen: true });
        await expect
          .poll(async () => (await chip(page).textContent())!.toLowerCase(), { timeout: 30_000 })
          .toContain(l.headOpen);
        // The scan's outcome, green while its label printed, turns amber naming the stop.
        const outcome = page.getByTestId('scan-outcome');
        await expect.poll(() => outcome.getAttribute('data-kind')).toBe('printer_down');
        expect((await outcome.textContent())!.toLowerCase()).toContain(l.headOpen);
        await shot(page, `silent-stop-held-station-${l.lang}`);
        await page.keyboard.press('F4');
        const row = page.locator(`[data-testid="queue-row"][data-job-id="${id}"]`);
        await expect.poll(() => row.getByTestId('queue-state').textContent()).toBe(l.held);
        expect((await row.getByTestId('queue-reason').textContent())!.toLowerCase()).toContain(l.headOpen);
        expect(await row.getByTestId('queue-reprint').count()).toBe(0);
        await shot(page, `silent-stop-held-queue-${l.lang}`);

        zpl().setSpeed(null);
        zpl().set({ headOpen: false });
        await expect.poll(() => jobState(id), { timeout: 60_000 }).toBe('done');
        expect(
          zpl()
            .printed()
            .filter((p) => o.shipment.barcodes.some((b) => p.zpl.includes(b))),
        ).toHaveLength(o.shipment.barcodes.length);
        await page.keyboard.press('F1');
        await expect.poll(() => page.getByTestId('scan-outcome').getAttribute('data-kind')).toBe('printed');
        await expect.poll(() => chip(page).getAttribute('data-state')).toBe('ready');
        expect(await chip(page).textContent()).not.toContain(l.notAnswering);
      } finally {
        zpl().setSpeed(null);
        zpl().set({ headOpen: false });
        await page.close();
      }
    });
  }
});
