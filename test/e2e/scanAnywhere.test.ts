/**
 * Scanner input wherever the focus is, in
 * Chromium through the loopback web host, in both languages: a burst of keys at a scanner's speed
 * ending with Enter is a scan though a dropdown, a button or a form field has the focus, and
 * changes nothing there; hand typing still goes into the form; the worker never sees the
 * scanner's prefix or suffix.
 *
 * A scanner is test/support/wedgeScanner.ts: keys stamped 5 ms apart, as the operating system
 * stamps a real scanner's keys however busy the machine is; a person types with 120 ms between keys. Demo shipments (sandbox/domain/demo.ts): ORD-1001, ORD-1002, ORD-1005, ORD-1008,
 * ORD-1010, ORD-1013 close and print.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { connectRpc, type RpcSocket } from '../support/rpcSocket';
import { needs } from '../support/services';
import { repoRoot, startHostedStation, type HostedStation } from '../support/station';
import { wedgeScanner, type WedgeScanner } from '../support/wedgeScanner';

const shots = path.join(repoRoot, 'test-results', 'screenshots');
const DONE = ['printed', 'queued', 'printer_down'];

describe.each([
  { lang: 'en', locale: 'en-US', tryIt: 'Try it', scanned: 'Scanned' },
  { lang: 'cs', locale: 'cs-CZ', tryIt: 'Vyzkoušejte', scanned: 'Naskenováno' },
])('scans wherever the focus is ($lang)', ({ lang, locale, tryIt, scanned }) => {
  describe.skipIf(!needs('chromium', 'keychain'))('in Chromium', { timeout: 120_000 }, () => {
    let hs: HostedStation;
    let rpc: RpcSocket;
    let browser: Browser;
    let page: Page;
    let scanner: WedgeScanner;

    const shot = (name: string) => page.screenshot({ path: path.join(shots, `scan-anywhere-${lang}-${name}.png`) });
    const focused = () => page.evaluate<string | null>('document.activeElement?.dataset.testid ?? null');
    /** A keyboard-wedge scanner: a key every 5 ms, then Enter. */
    const scan = (code: string, gapMs = 5) => scanner.scan(code, gapMs);
    /** The scan.outcome the core pushes for `code` (its normalised code). */
    const outcomeOf = (code: string) => rpc.waitFor('scan.outcome', (o) => o.code === code, 30_000);
    const activeAccount = async () => (await rpc.call('accounts.list', {})).find((a) => a.active)?.id;

    beforeAll(async () => {
      hs = await startHostedStation({ printWaitMs: 5000 });
      rpc = await connectRpc(hs.host);
      browser = await launchChromium();
      mkdirSync(shots, { recursive: true });
      page = await browser.newPage({ locale, viewport: { width: 1366, height: 768 } });
      scanner = await wedgeScanner(page);
      // A second company whose name starts like the demo barcodes: the dropdown's type-ahead would pick it at "O".
      await rpc.call('accounts.add', {
        name: 'Old branch',
        environment: 'test',
        baseUrl: 'https://test.example.invalid',
        clientId: 'x',
        clientSecret: 'y',
      });
      await page.goto(hs.host.url);
      await page.getByTestId('screen-station').waitFor();
      await page.locator('[data-testid="account-switch"] option').nth(1).waitFor({ state: 'attached' });
      await page.waitForSelector('[data-testid="station-printer"][data-state="ready"]', { timeout: 20_000 });
    });
    afterAll(async () => {
      await browser?.close();
      rpc?.close();
      await hs?.close();
    });

    it('a scan into the company dropdown is a scan and leaves the active company as it was', async () => {
      const before = await activeAccount();
      const selectBefore = await page.getByTestId('account-switch').inputValue();
      await page.getByTestId('account-switch').focus();
      const event = outcomeOf('ORD-1001');
      await scan('ORD-1001');
      expect(DONE).toContain((await event).kind);
      await page.waitForSelector('[data-testid="scan-outcome"][data-kind]');
      expect(await page.getByTestId('account-switch').inputValue()).toBe(selectBefore);
      expect(await activeAccount()).toBe(before);
      expect(await page.getByTestId('login-banner').count()).toBe(0);
      await shot('company-dropdown');
    });

    it('a scan into the language dropdown is a scan and the language stays', async () => {
      const before = await page.getByTestId('language').inputValue();
      expect(before).toBe(lang);
      await page.getByTestId('language').focus();
      const event = outcomeOf('ORD-1002');
      // "c" for Čeština, "e" for English: neither may switch the language on the way.
      await scan('ORD-1002');
      expect(DONE).toContain((await event).kind);
      expect(await page.getByTestId('language').inputValue()).toBe(before);
      expect((await rpc.call('settings.get', {})).language).not.toBe(lang === 'en' ? 'cs' : 'en');
    });

    it('a scan right after closing the pick list (focus on its button) is processed and does not open it again', async () => {
      await page.getByTestId('demo-pick-open').click();
      await page.getByTestId('demo-pick-list').waitFor();
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByTestId('demo-pick-list').count()).toBe(0);
      // Whatever has the focus now (the button that opened it, for a while), the scan is a scan.
      await page.getByTestId('demo-pick-open').focus();
      expect(await page.getByTestId('demo-pick-open').textContent()).toContain(tryIt);
      const event = outcomeOf('ORD-1005');
      await scan('ORD-1005');
      expect(DONE).toContain((await event).kind);
      await expect.poll(() => page.getByTestId('demo-pick-list').count()).toBe(0);
      await page.waitForSelector('[data-testid="scan-outcome"][data-scan-id]');
      expect(await page.getByTestId('scan-outcome').textContent()).toContain('ORD-1005');
      await shot('after-pick-list');
    });

    it('a scan right after closing the pick list with its close button is processed, not swallowed', async () => {
      await page.getByTestId('demo-pick-open').click();
      await page.getByTestId('demo-pick-list').waitFor();
      await page.getByTestId('demo-pick-close').click();
      await expect.poll(() => page.getByTestId('demo-pick-list').count()).toBe(0);
      // No help with the focus: the scanner types the moment the dialog is gone.
      const event = rpc.waitFor('scan.outcome', (o) => o.code === 'ORD-1005' && o.kind === 'already_closed', 30_000);
      await scan('ORD-1005');
      await event;
      await page.waitForSelector('[data-testid="scan-outcome"][data-kind="already_closed"]');
      expect(await page.getByTestId('demo-pick-list').count()).toBe(0);
      await page.keyboard.press('Escape');
    });

    it('New shipment: hand typing goes into the field, a scan there does not, and its outcome shows on this screen', async () => {
      await page.keyboard.press('F3');
      const field = page.getByTestId('ns-recipient.address.city');
      await field.waitFor();
      await field.click();
      await page.keyboard.type('Třebíč', { delay: 120 });
      expect(await field.inputValue()).toBe('Třebíč');
      const event = outcomeOf('ORD-1008');
      await scan('ORD-1008');
      const o = await event;
      expect(DONE).toContain(o.kind);
      expect(await field.inputValue()).toBe('Třebíč');
      await expect.poll(() => page.getByTestId('scan-toast').getAttribute('data-kind')).toBe(o.kind);
      expect(await page.getByTestId('scan-toast-code').textContent()).toContain('ORD-1008');
      // Still typing by hand after the scan, where the caret was.
      await page.keyboard.type(' 2', { delay: 120 });
      expect(await field.inputValue()).toBe('Třebíč 2');
      expect(await focused()).toBe('ns-recipient.address.city');
      await shot('new-shipment-toast');
    });

    it('a scan while a button has the focus presses nothing', async () => {
      await page.keyboard.press('F1');
      await page.getByTestId('screen-station').waitFor();
      await page.getByTestId('batch-toggle').focus();
      const event = outcomeOf('ORD-1010');
      await scan('ORD-1010');
      expect(DONE).toContain((await event).kind);
      expect(await page.getByTestId('batch-toggle').getAttribute('aria-pressed')).toBe('false');
    });

    it('Shipments: a scan in the filter field finds and selects the shipment; the filter keeps its text', async () => {
      await page.keyboard.press('F2');
      const filter = page.getByTestId('filter-text');
      await filter.waitFor();
      await expect
        .poll(() => page.getByTestId('shipments-count').getAttribute('data-total').then(Number))
        .toBeGreaterThan(5);
      await filter.click();
      await scan('ORD-1013');
      await expect.poll(() => page.getByTestId('shipments-scan').textContent()).toContain('ORD-1013');
      expect(await page.getByTestId('shipments-scan').textContent()).toContain(scanned);
      expect(await filter.inputValue()).toBe('');
      await expect.poll(() => page.getByTestId('shipments-count').getAttribute('data-selected')).toBe('1');
      await shot('shipments');
    });

    it('affixes are never shown: a scan with the prefix and suffix names the parcel by its code', async () => {
      await rpc.call('settings.set', { scanner: { prefix: '#', suffix: '/E', keyGapMs: 35 } });
      await page.keyboard.press('F1');
      await page.getByTestId('screen-station').waitFor();
      // From a dropdown, to the station line: the outcome and the recent list say ORD-1013 only.
      await page.getByTestId('account-switch').focus();
      // Named by the core without the affixes: the scan log and the outcome hold the bare code.
      const event = rpc.waitFor('scan.outcome', (o) => o.code === 'ORD-1013', 30_000);
      await scan('#ORD-1013/E');
      await event;
      await page.waitForSelector('[data-testid="scan-outcome"][data-scan-id]');
      const text = (await page.getByTestId('screen-station').textContent()) ?? '';
      expect(text).toContain('ORD-1013');
      expect(text).not.toContain('#ORD');
      expect(text).not.toContain('ORD-1013/E');
      await shot('affixes');
      // And on another screen, in the toast.
      await page.keyboard.press('F7');
      await page.getByTestId('screen-tracking').waitFor();
      await page.keyboard.press('F3');
      await page.getByTestId('ns-recipient.address.city').focus();
      const again = rpc.waitFor('scan.outcome', (o) => o.code === 'ORD-1013' && o.kind === 'already_closed', 30_000);
      await scan('#ORD-1013/E');
      await again;
      await expect.poll(() => page.getByTestId('scan-toast').getAttribute('data-kind')).toBe('already_closed');
      const toast = (await page.getByTestId('scan-toast').textContent()) ?? '';
      expect(toast).toContain('ORD-1013');
      expect(toast).not.toContain('#');
      expect(toast).not.toContain('/E');
      await rpc.call('settings.set', { scanner: { prefix: '', suffix: '', keyGapMs: 35 } });
      // Named on arrival: clearing the affixes later does not bring them back into sight.
      await page.waitForTimeout(200);
      expect(await page.getByTestId('scan-toast').textContent()).not.toContain('#');
    });

    it('Tracking: a scan while the language dropdown has the focus looks the shipment up', async () => {
      await page.keyboard.press('F7');
      await page.getByTestId('screen-tracking').waitFor();
      await page.getByTestId('language').focus();
      await scan('ORD-1001');
      await expect.poll(() => page.getByTestId('tracking-shipment').count(), { timeout: 20_000 }).toBe(1);
      expect(await page.getByTestId('tracking-input').inputValue()).toBe('');
      expect(await page.getByTestId('language').inputValue()).toBe(lang);
      await shot('tracking');
    });

    it('Settings → Scanner: the threshold sits next to prefix and suffix, is checked, saved, and used at once', async () => {
      await page.keyboard.press('F8');
      await page.getByTestId('settings-tab-scanner').click();
      const gap = page.getByTestId('scanner-key-gap');
      // The form takes the saved settings in after its first render: wait for them, do not race them.
      await expect.poll(() => gap.inputValue()).toBe('35');
      await gap.fill('500');
      expect(await page.getByTestId('scan-key-gap-error').textContent()).toBe(
        lang === 'en' ? 'A whole number from 5 to 100.' : 'Celé číslo od 5 do 100.',
      );
      await gap.fill('60');
      await page.getByTestId('scanner-save').click();
      await expect.poll(async () => (await rpc.call('settings.get', {})).scanner.keyGapMs).toBe(60);
      await shot('settings-scanner');
      // Hand typing at 120 ms with Enter into the try-out field's neighbour is still no scan...
      const scansBefore = rpc.events('scan.outcome').length;
      await page.getByTestId('scanner-prefix').click();
      await page.keyboard.type('abc\n', { delay: 120 });
      expect(await page.getByTestId('scanner-prefix').inputValue()).toBe('abc');
      // ...and a key every 45 ms now is one (the new threshold is 60 ms): it goes to the station line, the field keeps its text.
      const event = rpc.waitFor(
        'scan.outcome',
        (o) => o.code === 'ORD-1001' && rpc.events('scan.outcome').indexOf(o) >= scansBefore,
        30_000,
      );
      await scan('ORD-1001', 45);
      await event;
      expect(await page.getByTestId('scanner-prefix').inputValue()).toBe('abc');
      expect(rpc.events('scan.outcome').length).toBeGreaterThan(scansBefore);
      await page.getByTestId('scanner-prefix').fill('');
      await gap.fill('35');
      await page.getByTestId('scanner-save').click();
      await expect.poll(async () => (await rpc.call('settings.get', {})).scanner.keyGapMs).toBe(35);
    });

    it("the day's counters follow a company switch at once, without a reload", async () => {
      await page.keyboard.press('F1');
      await page.getByTestId('screen-station').waitFor();
      // The last outcome out of the way, so the screenshot shows the counters.
      const shown = page.getByTestId('scan-outcome');
      if ((await shown.count()) && (await shown.getAttribute('data-kind')) === 'already_closed') {
        await page.getByTestId('outcome-skip').click();
        await page.waitForSelector('[data-testid="scan-outcome"][data-kind="skipped"]');
      }
      if (await shown.count()) await shown.click();
      await expect.poll(() => shown.count()).toBe(0);
      const scanned = page.getByTestId('counter-scanned');
      await expect.poll(() => scanned.textContent().then(Number)).toBeGreaterThan(3);
      const demoCount = await scanned.textContent();
      const demoId = await page.getByTestId('account-switch').inputValue();
      const other = (await rpc.call('accounts.list', {})).find((a) => a.name === 'Old branch')!.id;
      await page.getByTestId('account-switch').selectOption(other);
      // Nothing scanned today for the other company.
      await expect.poll(() => scanned.textContent()).toBe('0');
      expect(await page.getByTestId('counter-printed').textContent()).toBe('0');
      await shot('counters-other-company');
      await page.getByTestId('account-switch').selectOption(demoId);
      await expect.poll(() => scanned.textContent()).toBe(demoCount);
      expect(Number(await page.getByTestId('counter-printed').textContent())).toBeGreaterThan(0);
    });
  });
});
