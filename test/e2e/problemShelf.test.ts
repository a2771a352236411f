/**
 * The problem shelf in Chromium through the loopback web host, in English and Czech at 1366×768,
 * keyboard and scanner only for the worker: Ctrl+H and a reason key (1) arm a hold and the next
 * scan is held instead of closed; the "other reason" command barcode asks for a few words first;
 * the shelf (Shift+F1) lists both with who held them and why; a scan of a held parcel asks, and
 * Enter closes and prints it and takes it off the shelf; a worker cannot release, a supervisor can;
 * the statistics (F12) count the holds. Screenshots of the armed hold, the held parcel, the question,
 * the shelf and the statistics.
 *
 * A scanner is test/support/wedgeScanner.ts (keys stamped 5 ms apart). ORD-1001 and ORD-1002 are
 * prepared demo shipments of the embedded sandbox (sandbox/domain/demo.ts).
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../electron/auth/keychain';
import { closeDesk, openDesk, screenshotsDir, type Desk } from '../support/desk';
import { needs } from '../support/services';
import { wedgeScanner, type WedgeScanner } from '../support/wedgeScanner';

const DONE = ['printed', 'queued', 'printer_down'];

describe.each([
  {
    lang: 'en',
    locale: 'en-US',
    armed: 'Problem shelf — Item missing: scan the parcel to hold it.',
    shelved: 'On the problem shelf',
    nav: 'Problem shelf',
    missing: 'Item missing',
    question: 'Close it and print its labels now?',
    note: 'The box is dented, Jana’s note',
    supervisorOnly: 'Only a supervisor can release',
    heldColumn: 'Held',
  },
  {
    lang: 'cs',
    locale: 'cs-CZ',
    armed: 'Police problémů — Chybí zboží: naskenujte zásilku, která se má odložit.',
    shelved: 'Na polici problémů',
    nav: 'Problémy',
    missing: 'Chybí zboží',
    question: 'Uzavřít ji a vytisknout štítky hned?',
    note: 'Krabice je promáčknutá, říká Jana',
    supervisorOnly: 'Zásilku může uvolnit jen vedoucí',
    heldColumn: 'Odloženo',
  },
])(
  'problem shelf ($lang)',
  ({ lang, locale, armed, shelved, nav, missing, question, note, supervisorOnly, heldColumn }) => {
    describe.skipIf(!needs('chromium'))('in Chromium', { timeout: 150_000 }, () => {
      let desk: Desk;
      let page: Page;
      let scanner: WedgeScanner;
      let jana: { id: number };
      const shot = (name: string) => page.screenshot({ path: path.join(screenshotsDir, `shelf-${lang}-${name}.png`) });
      /** The print jobs of a demo shipment, found by its code in the station's cache. */
      const jobsOf = (code: string) => {
        const found = desk.hs.station.deps.lookupCached(code);
        const id = found?.kind === 'found' ? found.shipment.deliveryId : -1;
        return desk.hs.station.printing.queue.list({ limit: 100 }).filter((j) => j.deliveryIds.includes(id));
      };
      const shelfCodes = async () => (await desk.rpc.call('shelf.list', {})).parcels.map((p) => p.code);

      beforeAll(async () => {
        desk = await openDesk({ secrets: createMemorySecretStore(), printWaitMs: 5000 });
        jana = await desk.rpc.call('operators.save', { name: 'Jana Nováková', badge: '!LS-OP-JANA', pin: null });
        await desk.rpc.call('operators.save', {
          name: 'Petr Dvořák',
          badge: '!LS-OP-PETR',
          pin: null,
          supervisor: true,
        });
        page = await desk.browser.newPage({ locale, viewport: { width: 1366, height: 768 } });
        scanner = await wedgeScanner(page);
        await page.goto(desk.hs.host.url);
        await page.getByTestId('screen-station').waitFor();
        await page.waitForSelector('[data-testid="station-printer"][data-state="ready"]', { timeout: 20_000 });
        await scanner.scan('!LS-OP-JANA');
        await page.waitForSelector('[data-testid="operator-pill"]:has-text("Jana Nováková")');
      });
      afterAll(() => closeDesk(desk ?? {}));

      it('Ctrl+H and 1 arm a hold; the next scan is held, not closed: no label, still prepared', async () => {
        await page.getByTestId('scan-input').focus();
        await page.keyboard.press('Control+h');
        await page.getByTestId('hold-why').waitFor();
        await page.keyboard.press('1');
        await page.getByTestId('hold-armed').waitFor();
        expect(await page.getByTestId('hold-armed').textContent()).toContain(armed);
        await shot('armed');
        await scanner.scan('ORD-1001');
        await page.getByTestId('scan-shelved').waitFor();
        const text = (await page.getByTestId('scan-shelved').textContent()) ?? '';
        expect(text).toContain(shelved);
        expect(text).toContain(missing);
        await shot('shelved');
        expect(await page.getByTestId('hold-armed').count()).toBe(0);
        expect(await shelfCodes()).toEqual(['ORD-1001']);
        const s = await desk.rpc.call('shipments.lookup', { code: 'ORD-1001' });
        expect(s).toMatchObject({ kind: 'found', shipment: { state: 0 } });
        expect(jobsOf('ORD-1001')).toEqual([]);
        await expect.poll(() => page.getByTestId('shelf-count').textContent()).toBe('1');
      });

      it('the "other reason" command barcode asks for a few words, then holds the next parcel with them', async () => {
        await page.keyboard.press('Escape');
        await scanner.scan('!LS-HOLD_OTHER');
        await page.getByTestId('hold-why-note').waitFor();
        // Typed at a person's pace: a burst at a scanner's pace ending with Enter would be a scan.
        await scanner.byHand(note);
        await page.keyboard.press('Enter');
        await page.getByTestId('hold-armed').waitFor();
        expect(await page.getByTestId('hold-armed').textContent()).toContain(note);
        await page.getByTestId('scan-input').focus();
        await scanner.scan('ORD-1002');
        await page.getByTestId('scan-shelved').waitFor();
        expect(await page.getByTestId('scan-shelved').textContent()).toContain(note);
        expect(await shelfCodes()).toEqual(['ORD-1001', 'ORD-1002']);
      });

      it('Shift+F1 lists the shelf with who held each parcel and why; a worker cannot release', async () => {
        await page.keyboard.press('Shift+F1');
        await page.getByTestId('screen-shelf').waitFor();
        expect(await page.getByTestId('nav-shelf').textContent()).toContain(nav);
        await expect.poll(() => page.getByTestId('shelf-row').count()).toBe(2);
        const rows = page.getByTestId('shelf-row');
        expect(await rows.nth(0).getByTestId('shelf-reason').textContent()).toContain(missing);
        expect(await rows.nth(1).getByTestId('shelf-reason').textContent()).toContain(note);
        expect(await rows.nth(0).getByTestId('shelf-held-by').textContent()).toBe('Jana Nováková');
        expect(await rows.nth(0).getByTestId('shelf-release').isDisabled()).toBe(true);
        expect(await page.getByTestId('screen-shelf').textContent()).toContain(supervisorOnly);
        await shot('list');
        await page.keyboard.press('F1');
        await page.getByTestId('screen-station').waitFor();
      });

      it('a scan of a held parcel asks; Enter closes and prints it, and it leaves the shelf', async () => {
        await page.getByTestId('scan-input').focus();
        await scanner.scan('ORD-1001');
        await page.waitForSelector('[data-testid="scan-outcome"][data-kind="on_shelf"]');
        expect(await page.getByTestId('outcome-question').textContent()).toBe(question);
        expect(await page.getByTestId('on-shelf-note').textContent()).toContain('Jana Nováková');
        expect(jobsOf('ORD-1001')).toEqual([]);
        await shot('question');
        const printed = desk.rpc.waitFor('scan.outcome', (o) => o.code === 'ORD-1001' && DONE.includes(o.kind), 30_000);
        await page.keyboard.press('Enter');
        await printed;
        await expect
          .poll(() => page.locator('[data-testid="scan-outcome"]').getAttribute('data-kind'))
          .not.toBe('on_shelf');
        expect(await shelfCodes()).toEqual(['ORD-1002']);
        await expect.poll(() => page.getByTestId('shelf-count').textContent()).toBe('1');
      });

      it('a supervisor releases the other parcel; the statistics count both holds for Jana', async () => {
        await page.keyboard.press('Escape');
        await scanner.scan('!LS-OP-PETR');
        await expect.poll(() => page.getByTestId('operator-pill').textContent()).toContain('Petr Dvořák');
        await page.keyboard.press('Shift+F1');
        await page.getByTestId('screen-shelf').waitFor();
        await expect.poll(() => page.getByTestId('shelf-row').count()).toBe(1);
        await page.getByTestId('shelf-release').click();
        await page.getByTestId('shelf-empty').waitFor();
        expect(await shelfCodes()).toEqual([]);
        const s = await desk.rpc.call('shipments.lookup', { code: 'ORD-1002' });
        expect(s).toMatchObject({ kind: 'found', shipment: { state: 0 } });
        await shot('released');
        await page.keyboard.press('F12');
        await page.getByTestId('stats-operators').waitFor();
        expect(await page.getByTestId('stats-operators').textContent()).toContain(heldColumn);
        const row = page.locator(`[data-testid="stats-operator"][data-scope="${jana.id}"]`);
        await expect.poll(() => row.getByTestId('stats-held').textContent()).toBe('2');
        await shot('statistics');
      });
    });
  },
);
