/**
 * Tracking (F7) in Chromium through the web host, in English and Czech: a code no
 * shipment has is named in the message and leaves the field empty, so the next scan is looked up
 * on its own instead of being appended to it ("NOPE-1ORD-1002"). Scans come from a keyboard-wedge
 * scanner (test/support/wedgeScanner.ts) and typed codes from the keyboard.
 */
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcSocket } from '../support/rpcSocket';
import { needs } from '../support/services';
import { closeDesk, openDesk } from '../support/desk';
import { repoRoot, type HostedStation } from '../support/station';
import { wedgeScanner } from '../support/wedgeScanner';

const shots = path.join(repoRoot, 'test-results', 'screenshots');

describe.skipIf(!needs('chromium'))('Tracking screen', { timeout: 120_000 }, () => {
  let hs: HostedStation;
  let rpc: RpcSocket;
  let browser: Browser;

  beforeAll(async () => {
    ({ hs, rpc, browser } = await openDesk({ printWaitMs: 5000 }));
  });
  afterAll(() => closeDesk({ hs, rpc, browser }));

  it.each([
    {
      lang: 'en',
      locale: 'en-US',
      notFound: 'No shipment has the code NOPE-1.',
      typedNotFound: 'No shipment has the code NOPE-2.',
      next: 'ORD-1002',
      typedNext: 'ORD-1003',
    },
    {
      lang: 'cs',
      locale: 'cs-CZ',
      notFound: 'Kód NOPE-1 nemá žádná zásilka.',
      typedNotFound: 'Kód NOPE-2 nemá žádná zásilka.',
      next: 'ORD-1004',
      typedNext: 'ORD-1005',
    },
  ])(
    '$lang: a code not found is named and cleared from the field; the next scan and the next typed code are looked up on their own',
    async ({ lang, locale, notFound, typedNotFound, next, typedNext }) => {
      await rpc.call('settings.set', { language: lang as 'en' | 'cs' });
      const page = await browser.newPage({ locale, viewport: { width: 1366, height: 768 } });
      const scanner = await wedgeScanner(page);
      await page.goto(hs.host.url);
      await page.getByTestId('screen-station').waitFor();
      await page.keyboard.press('F7');
      const input = page.getByTestId('tracking-input');
      await input.waitFor();
      await input.focus();

      // Scanned: not found, then a real code.
      await scanner.scan('NOPE-1');
      await expect.poll(() => page.getByTestId('tracking-message').textContent({ timeout: 20_000 })).toBe(notFound);
      expect(await input.inputValue()).toBe('');
      await page.screenshot({ path: path.join(shots, `tracking-not_found-${lang}.png`) });
      await scanner.scan(next);
      await expect.poll(() => page.getByTestId('tracking-shipment').count(), { timeout: 20_000 }).toBe(1);
      expect(await page.getByTestId('tracking-message').count()).toBe(0);
      expect(await input.inputValue()).toBe('');

      // Typed with the keyboard and Enter: the same.
      await input.focus();
      await page.keyboard.type('NOPE-2');
      await page.keyboard.press('Enter');
      await expect
        .poll(() => page.getByTestId('tracking-message').textContent({ timeout: 20_000 }))
        .toBe(typedNotFound);
      expect(await input.inputValue()).toBe('');
      await page.keyboard.type(typedNext);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('tracking-shipment').count(), { timeout: 20_000 }).toBe(2);
      expect(await page.getByTestId('tracking-message').count()).toBe(0);
      await page.screenshot({ path: path.join(shots, `tracking-found-${lang}.png`) });
      await page.close();
    },
  );
});
