/**
 * Operators at the desk in Chromium through the loopback web host, in English and Czech at
 * 1366×768: workers registered in Settings → Operators (a badge scanned into its field, a PIN typed
 * twice), a desk that requires a sign-in (the Station screen says so and a parcel's scan is refused,
 * nothing kept), a badge scanned at a scanner's pace with the focus in a dropdown of the top bar,
 * an unknown badge that signs nobody out, the PIN dialog (a wrong PIN refused, the right one
 * signs in), the journal naming who scanned, a worker removed after a confirmation. Screenshots
 * of Settings → Operators, the top bar and the PIN dialog.
 *
 * A scanner is test/support/wedgeScanner.ts (keys stamped 5 ms apart). ORD-1001 closes and prints
 * on the embedded sandbox (sandbox/domain/demo.ts).
 */
import path from 'node:path';
import Database from 'better-sqlite3';
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
    nobody: 'Nobody signed in',
    signInToScan: 'Sign in to scan',
    signInFirst: 'Sign in first',
    unknownBadge: 'Unknown badge',
    wrongPin: 'Wrong PIN',
    tab: 'Operators',
    added: 'Added: Alena Svobodová.',
  },
  {
    lang: 'cs',
    locale: 'cs-CZ',
    nobody: 'Nikdo nepřihlášen',
    signInToScan: 'Před skenováním se přihlaste',
    signInFirst: 'Nejdřív se přihlaste',
    unknownBadge: 'Neznámá karta',
    wrongPin: 'Špatný PIN',
    tab: 'Pracovníci',
    added: 'Přidáno: Alena Svobodová.',
  },
])(
  'operators at the desk ($lang)',
  ({ lang, locale, nobody, signInToScan, signInFirst, unknownBadge, wrongPin, tab, added }) => {
    describe.skipIf(!needs('chromium'))('in Chromium', { timeout: 120_000 }, () => {
      let desk: Desk;
      let page: Page;
      let scanner: WedgeScanner;
      const shot = (name: string) =>
        page.screenshot({ path: path.join(screenshotsDir, `operators-${lang}-${name}.png`) });
      const pill = () => page.getByTestId('operator-pill');
      const journalOf = (code: string) => {
        const db = new Database(path.join(desk.hs.dataDir, 'station.db'), { readonly: true, fileMustExist: true });
        try {
          return db
            .prepare(
              'SELECT e.code, o.name AS operator, e.desk FROM journal_entries e LEFT JOIN operators o ON o.id = e.operator_id WHERE e.code = ?',
            )
            .all(code);
        } finally {
          db.close();
        }
      };

      beforeAll(async () => {
        desk = await openDesk({ secrets: createMemorySecretStore(), printWaitMs: 5000 });
        page = await desk.browser.newPage({ locale, viewport: { width: 1366, height: 768 } });
        scanner = await wedgeScanner(page);
        await page.goto(desk.hs.host.url);
        await page.getByTestId('screen-station').waitFor();
        await page.waitForSelector('[data-testid="station-printer"][data-state="ready"]', { timeout: 20_000 });
      });
      afterAll(() => closeDesk(desk ?? {}));

      it('Settings → Operators: the desk requires a sign-in; a worker added with a badge scanned into its field and a PIN typed twice', async () => {
        await page.getByTestId('nav-settings').click();
        await page.getByTestId('settings-tab-operators').click();
        expect(await page.getByTestId('settings-tab-operators').textContent()).toBe(tab);
        await page.getByTestId('desk-name').fill('Balicí stůl 3');
        await page.getByTestId('desk-sign-in-required').check();
        await page.getByTestId('desk-idle').fill('15');
        await page.getByTestId('desk-save').click();
        await expect
          .poll(async () => (await desk.rpc.call('settings.get', {})).desk)
          .toEqual({ name: 'Balicí stůl 3', signInRequired: true, idleMinutes: 15 });

        await page.getByTestId('operator-name').fill('Alena Svobodová');
        await page.getByTestId('operator-badge').focus();
        await scanner.scan('!LS-OP-ALENA');
        // The scan stays in the field: it neither signed anyone in nor saved the form.
        expect(await page.getByTestId('operator-badge').inputValue()).toBe('!LS-OP-ALENA');
        expect(await pill().textContent()).toContain(nobody);
        await page.getByTestId('operator-pin').fill('4821');
        await page.getByTestId('operator-pin2').fill('4812');
        await page.getByTestId('operator-save').click();
        // Two PINs that differ: nothing saved, said at the field.
        await page.getByTestId('op-pin2-error').waitFor();
        expect(await desk.rpc.call('operators.list', {})).toEqual([]);
        await page.getByTestId('operator-pin').fill('4821');
        await page.getByTestId('operator-pin2').fill('4821');
        await page.getByTestId('operator-save').click();
        await expect.poll(() => page.getByTestId('operator-result').textContent(), { timeout: 20_000 }).toBe(added);

        await page.getByTestId('operator-name').fill('Petr Dvořák');
        await page.getByTestId('operator-badge').fill('EMP-0042');
        await page.getByTestId('operator-save').click();
        await expect.poll(() => page.getByTestId('operator-row').count(), { timeout: 20_000 }).toBe(2);
        expect(await desk.rpc.call('operators.list', {})).toEqual([
          { id: expect.any(Number), name: 'Alena Svobodová', badge: '!LS-OP-ALENA', hasPin: true, supervisor: false },
          { id: expect.any(Number), name: 'Petr Dvořák', badge: 'EMP-0042', hasPin: false, supervisor: false },
        ]);
        await shot('settings');
      });

      it('nobody signed in: the top bar says so, the Station screen asks for a sign-in, a scan is refused and nothing kept', async () => {
        await page.getByTestId('nav-station').click();
        expect(await pill().textContent()).toContain(nobody);
        expect(await page.getByTestId('sign-in-prompt').textContent()).toContain(signInToScan);
        await scanner.scan('ORD-1001');
        await page.getByTestId('scan-refused').waitFor();
        expect(await page.getByTestId('scan-refused').textContent()).toContain(signInFirst);
        expect(journalOf('ORD-1001')).toEqual([]);
        expect((await desk.rpc.call('scan.pending', {})).scans).toEqual([]);
        await shot('sign-in-required');
      });

      it('a badge scanned with the focus in the language dropdown signs its worker in; the same scan then goes, with her name', async () => {
        await page.getByTestId('language').focus();
        const changed = desk.rpc.waitFor('operators.changed', (w) => w.operator?.name === 'Alena Svobodová');
        await scanner.scan('!LS-OP-ALENA');
        await changed;
        await expect.poll(() => pill().textContent(), { timeout: 20_000 }).toContain('Alena Svobodová');
        expect(await page.getByTestId('language').inputValue()).toBe(lang);
        expect(await page.getByTestId('sign-in-prompt').count()).toBe(0);
        // The refusal of the scan before is off the screen: the next scan goes.
        await expect.poll(() => page.getByTestId('scan-refused').count(), { timeout: 20_000 }).toBe(0);
        await shot('top-bar-signed-in');

        const outcome = desk.rpc.waitFor('scan.outcome', (o) => o.code === 'ORD-1001', 30_000);
        await page.getByTestId('scan-input').focus();
        await scanner.scan('ORD-1001');
        expect(DONE).toContain((await outcome).kind);
        expect(journalOf('ORD-1001')).toEqual([
          { code: 'ORD-1001', operator: 'Alena Svobodová', desk: 'Balicí stůl 3' },
        ]);
      });

      it('an unknown badge is refused, says why, and signs nobody out', async () => {
        await page.getByTestId('nav-shipments').click();
        await scanner.scan('!LS-OP-NOBODY');
        await page.locator('[data-testid="operator-notice"][data-kind="bad"]').waitFor();
        expect(await page.getByTestId('operator-notice').textContent()).toContain(unknownBadge);
        expect(await pill().textContent()).toContain('Alena Svobodová');
        expect((await desk.rpc.call('operators.who', {})).operator?.name).toBe('Alena Svobodová');
        await shot('unknown-badge');
      });

      it('another badge switches the worker; Sign out leaves nobody signed in', async () => {
        await scanner.scan('EMP-0042');
        await expect.poll(() => pill().textContent(), { timeout: 20_000 }).toContain('Petr Dvořák');
        await page.getByTestId('operator-sign-out').click();
        await expect.poll(() => pill().textContent(), { timeout: 20_000 }).toContain(nobody);
      });

      it('the PIN dialog: a wrong PIN is refused in the dialog; the right one signs in', async () => {
        await page.getByTestId('operator-sign-in').click();
        await page.getByTestId('pin-dialog').waitFor();
        // Only workers with a PIN are offered.
        expect(await page.locator('[data-testid="pin-operator"] option').allTextContents()).toEqual([
          expect.any(String),
          'Alena Svobodová',
        ]);
        await page.getByTestId('pin-operator').selectOption({ label: 'Alena Svobodová' });
        await page.getByTestId('pin-input').pressSequentially('1111', { delay: 120 });
        await page.getByTestId('pin-submit').click();
        await expect.poll(() => page.getByTestId('pin-error').textContent(), { timeout: 20_000 }).toContain(wrongPin);
        expect(await pill().textContent()).toContain(nobody);
        await shot('pin-dialog');
        await page.getByTestId('pin-input').pressSequentially('4821', { delay: 120 });
        await page.getByTestId('pin-submit').click();
        await expect.poll(() => pill().textContent(), { timeout: 20_000 }).toContain('Alena Svobodová');
        expect(await page.getByTestId('pin-dialog').count()).toBe(0);
      });

      it('a worker removed after a confirmation can no longer sign in with their badge', async () => {
        await page.getByTestId('nav-settings').click();
        await page.getByTestId('settings-tab-operators').click();
        const petr = page.getByTestId('operator-row').filter({ hasText: 'Petr Dvořák' });
        await petr.getByTestId('operator-remove').click();
        await petr.getByTestId('operator-remove-confirm').waitFor();
        await shot('remove-confirm');
        await petr.getByTestId('operator-remove-yes').click();
        await expect.poll(() => page.getByTestId('operator-row').count(), { timeout: 20_000 }).toBe(1);
        // The badge is nobody's now: the core refuses it, and whoever is signed in stays.
        await expect(desk.rpc.call('operators.signInBadge', { code: 'EMP-0042' })).rejects.toMatchObject({
          code: 'badge_unknown',
        });
        expect(await pill().textContent()).toContain('Alena Svobodová');
      });
    });
  },
);
