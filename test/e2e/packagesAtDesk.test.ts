/**
 * Packages at the desk in Chromium through the loopback web host, in English and Czech at 1366×768,
 * keyboard and scanner only: Ctrl+B arms it and the next scan opens the parcel's packages instead of
 * closing; Ctrl+S, 2, Enter splits it into two boxes, Enter types each box's weight (Insert adds a
 * box, Delete removes it), Space asks the scale (none here: it says so), Ctrl+Enter sends: the shipment has
 * two packages at the service, it is closed, and two labels come out of the virtual label printer.
 * A box too heavy for the chosen transport is refused in plain words with nothing closed or printed;
 * Esc leaves the parcel prepared. The parcel scanned again while its packages are open goes with the
 * boxes on screen (as Ctrl+Enter: a box without a weight is named first); another parcel scanned
 * meanwhile is refused, not closed. In batch mode Ctrl+B and its code say that packages work with
 * single scans, and nothing is armed. Screenshots of the armed key, the opened parcel, the split,
 * the refusal, another parcel scanned, and batch mode.
 *
 * ORD-1001 (National Post to the door, one box of 2.3 kg) and ORD-1003 (National Post to a post
 * office, boxes up to 20 kg) are demo shipments of the embedded sandbox (sandbox/domain/demo.ts).
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../electron/auth/keychain';
import { closeDesk, openDesk, screenshotsDir, type Desk } from '../support/desk';
import { needs } from '../support/services';
import { wedgeScanner, type WedgeScanner } from '../support/wedgeScanner';

describe.each([
  {
    lang: 'en',
    locale: 'en-US',
    armed: 'the next parcel you scan opens its packages',
    title: 'Packages of parcel ORD-1001',
    weights: ['1.4', '0.95'],
    shownWeight: '2.3',
    noScale: 'The scale shows no settled weight',
    split: 'Split into 2 boxes',
    refused: 'NP NP-POST does not take the parcel with these packages',
    heavy: '25.5',
    otherParcel: 'ORD-1004 is another parcel: it was not closed. Finish the packages of ORD-1002 first',
    noWeight: 'Box 4 has no weight yet',
    batchRefused: 'Packages at the desk work with single scans, not in batch mode',
  },
  {
    lang: 'cs',
    locale: 'cs-CZ',
    armed: 'další naskenovaná zásilka otevře své balíky',
    title: 'Balíky zásilky ORD-1001',
    weights: ['1,4', '0,95'],
    shownWeight: '2,3',
    noScale: 'Váha neukazuje ustálenou hmotnost',
    split: 'Rozděleno na 2 balíky',
    refused: 'NP NP-POST zásilku s těmito balíky nepřijme',
    heavy: '25,5',
    otherParcel: 'ORD-1004 je jiná zásilka: neuzavřela se. Nejdřív dokončete balíky zásilky ORD-1002',
    noWeight: 'Balík 4 ještě nemá hmotnost',
    batchRefused: 'Balíky u stolu fungují jen při jednotlivém skenování, ne v hromadném režimu',
  },
])(
  'packages at the desk ($lang)',
  ({
    lang,
    locale,
    armed,
    title,
    weights,
    shownWeight,
    noScale,
    split,
    refused,
    heavy,
    otherParcel,
    noWeight,
    batchRefused,
  }) => {
    describe.skipIf(!needs('chromium'))('in Chromium', { timeout: 150_000 }, () => {
      let desk: Desk;
      let page: Page;
      let scanner: WedgeScanner;
      const shot = (name: string) =>
        page.screenshot({ path: path.join(screenshotsDir, `packages-${lang}-${name}.png`) });
      const note = () => page.getByTestId('packages-note').textContent();
      const rows = () => page.getByTestId('package-row').count();
      /** The shipment as the service holds it now (GET /api/v3/deliveries through the station's own client). */
      const atService = async (code: string) => {
        const found = desk.hs.station.deps.lookupCached(code);
        if (found?.kind !== 'found') throw new Error(`${code} is not cached`);
        const [d] = await desk.hs.station.deps.session()!.client.getDeliveriesByIds([found.shipment.deliveryId]);
        return d!;
      };
      const jobsOf = (deliveryId: number) =>
        desk.hs.station.printing.queue.list({ limit: 100 }).filter((j) => j.deliveryIds.includes(deliveryId));

      /** Enter on the list types the chosen box's weight; Enter again goes back to the list, the next box chosen. */
      async function typeWeight(kg: string) {
        await page.keyboard.press('Enter');
        await page.locator('.package-weight:focus').waitFor();
        await scanner.byHand(kg);
        await page.keyboard.press('Enter');
        await page.locator('[data-testid="packages-list"]:focus').waitFor();
      }

      beforeAll(async () => {
        desk = await openDesk({ secrets: createMemorySecretStore(), printWaitMs: 5000 });
        page = await desk.browser.newPage({ locale, viewport: { width: 1366, height: 768 } });
        scanner = await wedgeScanner(page);
        await page.goto(desk.hs.host.url);
        await page.getByTestId('screen-station').waitFor();
        await page.waitForSelector('[data-testid="station-printer"][data-state="ready"]', { timeout: 20_000 });
      });
      afterAll(() => closeDesk(desk ?? {}));

      it('Ctrl+B, a scan, Ctrl+S 2, two weights typed, Ctrl+Enter: two packages at the service, closed, two labels printed', async () => {
        const zpl = desk.hs.station.printing.virtual.zpl;
        const before = zpl.printed().length;
        await page.getByTestId('scan-input').focus();
        await page.keyboard.press('Control+b');
        await page.getByTestId('packages-armed').waitFor();
        expect(await page.getByTestId('packages-armed').textContent()).toContain(armed);
        await shot('armed');

        await scanner.scan('ORD-1001');
        await page.getByTestId('packages-dialog').waitFor();
        expect(await page.locator('#packages-title').textContent()).toBe(title);
        expect(await page.getByTestId('package-weight-0').inputValue()).toBe(shownWeight);
        expect(await rows()).toBe(1);
        await shot('opened');

        // No scale at this desk: Space (weigh the chosen box) says so plainly and changes nothing.
        await page.keyboard.press(' ');
        await expect.poll(note).toContain(noScale);

        await page.keyboard.press('Control+s');
        await page.locator('[data-testid="packages-split-count"]:focus').waitFor();
        await scanner.byHand('2');
        await page.keyboard.press('Enter');
        await expect.poll(rows).toBe(2);
        expect(await note()).toContain(split);
        await typeWeight(weights[0]!);
        await typeWeight(weights[1]!);
        // A third box by mistake, removed again.
        await page.keyboard.press('Insert');
        await expect.poll(rows).toBe(3);
        await page.keyboard.press('Delete');
        await expect.poll(rows).toBe(2);
        await shot('split');

        const done = desk.rpc.waitFor('scan.outcome', (o) => o.code === 'ORD-1001' && o.kind === 'printed', 30_000);
        await page.keyboard.press('Control+Enter');
        await done;
        await page.getByTestId('packages-dialog').waitFor({ state: 'detached' });
        const s = await atService('ORD-1001');
        expect(s.deliveryState).not.toBe(0);
        expect(s.packages.map((p) => p.weight)).toEqual(['1.4', '0.95']);
        // One label per package came out of the label printer, each with its own package barcode.
        await expect.poll(() => zpl.printed().length - before, { timeout: 20_000 }).toBe(2);
        const printed = zpl.printed().slice(before);
        for (const p of s.packages) expect(printed.filter((l) => l.zpl.includes(p.barcode!))).toHaveLength(1);
        await page.getByTestId('scan-outcome').waitFor();
        await shot('printed');
      });

      it('a box too heavy for the chosen transport is refused in plain words; nothing closed or printed; Esc leaves it prepared', async () => {
        await page.keyboard.press('Escape');
        await page.getByTestId('scan-input').focus();
        await scanner.scan('!LS-PACKAGES_OPEN');
        await page.getByTestId('packages-armed').waitFor();
        await scanner.scan('ORD-1003');
        await page.getByTestId('packages-dialog').waitFor();
        const id = (await atService('ORD-1003')).deliveryId;
        await scanner.scan('!LS-PACKAGE_ADD');
        await expect.poll(rows).toBe(2);
        await typeWeight(heavy);
        await scanner.scan('!LS-PACKAGES_SEND');
        await expect.poll(note, { timeout: 20_000 }).toContain(refused);
        // Box 2 has no sides, so no transport search could rate it: the service's own check said why.
        expect(await note()).toContain('20 kg');
        expect(await page.getByTestId('packages-note').getAttribute('data-tone')).toBe('bad');
        expect(await rows()).toBe(2);
        await shot('refused');
        const s = await atService('ORD-1003');
        expect(s.deliveryState).toBe(0);
        expect(s.packages).toHaveLength(1);
        expect(jobsOf(id)).toEqual([]);

        await page.keyboard.press('Escape');
        await page.getByTestId('packages-dialog').waitFor({ state: 'detached' });
        expect((await atService('ORD-1003')).deliveryState).toBe(0);
      });

      it('the parcel scanned again while its packages are open goes with the boxes on screen; another parcel scanned meanwhile is refused, not closed', async () => {
        const zpl = desk.hs.station.printing.virtual.zpl;
        await page.getByTestId('scan-input').focus();
        await page.keyboard.press('Control+b');
        await page.getByTestId('packages-armed').waitFor();
        // ORD-1002: National Post to the door, three boxes (1,5 + 4 + 7,25 kg).
        await scanner.scan('ORD-1002');
        await page.getByTestId('packages-dialog').waitFor();
        expect(await rows()).toBe(3);

        await scanner.scan('ORD-1004');
        await expect.poll(note).toContain(otherParcel);
        expect(await page.getByTestId('packages-note').getAttribute('data-tone')).toBe('bad');
        await shot('other-parcel');
        expect((await atService('ORD-1004')).deliveryState).toBe(0);

        // A box added and left empty: the scan names it, and nothing is sent.
        await page.keyboard.press('Insert');
        await expect.poll(rows).toBe(4);
        await scanner.scan('ORD-1002');
        await expect.poll(note).toContain(noWeight);
        expect((await atService('ORD-1002')).deliveryState).toBe(0);

        // The empty box and the 7,25 kg one out; the scan sends the two left, closes and prints them.
        await page.keyboard.press('Delete');
        await expect.poll(rows).toBe(3);
        await page.keyboard.press('Delete');
        await expect.poll(rows).toBe(2);
        const before = zpl.printed().length;
        const done = desk.rpc.waitFor('scan.outcome', (o) => o.code === 'ORD-1002' && o.kind === 'printed', 30_000);
        await scanner.scan('ORD-1002');
        await done;
        await page.getByTestId('packages-dialog').waitFor({ state: 'detached' });
        const s = await atService('ORD-1002');
        expect(s.deliveryState).not.toBe(0);
        expect(s.packages.map((p) => p.weight)).toEqual(['1.5', '4']);
        await expect.poll(() => zpl.printed().length - before, { timeout: 20_000 }).toBe(2);
        expect((await atService('ORD-1004')).deliveryState).toBe(0);
      });

      it('in batch mode Ctrl+B and its code say plainly that packages work with single scans; nothing is armed', async () => {
        await page.keyboard.press('Escape');
        await page.getByTestId('scan-input').focus();
        await page.keyboard.press('F5');
        await page.locator('[data-testid="screen-station"].batch-mode').waitFor();
        await page.keyboard.press('Control+b');
        await expect.poll(() => page.getByTestId('command-note').textContent()).toContain(batchRefused);
        expect(await page.getByTestId('packages-armed').count()).toBe(0);
        await shot('batch-mode');
        // A click hides the note; the command barcode says it again.
        await page.getByTestId('command-note').click();
        await page.getByTestId('command-note').waitFor({ state: 'detached' });
        await page.getByTestId('scan-input').focus();
        await scanner.scan('!LS-PACKAGES_OPEN');
        await expect.poll(() => page.getByTestId('command-note').textContent()).toContain(batchRefused);
        expect(await page.getByTestId('packages-armed').count()).toBe(0);
        await page.keyboard.press('F5');
        await page.locator('[data-testid="screen-station"]:not(.batch-mode)').waitFor();
      });
    });
  },
);
