/**
 * Dates and times in the UI language's form, in Chromium through the web host
 * with an English-US browser for both languages (the browser's own locale must not leak in): End of
 * day's "labels nobody checked", the Print queue and the shipment detail. Czech writes
 * "26. 11. 2026 8:45" (the year in full, never "26.11.26"), English "26/11/2026, 08:45" (never
 * "11/26/2026, 8:45:18 AM").
 */
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../electron/auth/keychain';
import { defaultScaleSettings } from '../../shared/contract/scale';
import { closeDesk, openDesk } from '../support/desk';
import type { RpcSocket } from '../support/rpcSocket';
import { needs } from '../support/services';
import { repoRoot, type HostedStation } from '../support/station';

const shots = path.join(repoRoot, 'test-results', 'screenshots');
const forms = {
  cs: /^\d{1,2}\. \d{1,2}\. \d{4} \d{1,2}:\d{2}$/,
  en: /^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$/,
};

describe.skipIf(!needs('chromium'))('dates and times in the UI language', { timeout: 120_000 }, () => {
  let hs: HostedStation;
  let rpc: RpcSocket;
  let browser: Browser;

  beforeAll(async () => {
    ({ hs, rpc, browser } = await openDesk({ secrets: createMemorySecretStore(), printWaitMs: 5000 }));
    // The label check on: the printed label nobody checks is listed on End of day with its time.
    await rpc.call('scale.setSettings', { ...defaultScaleSettings, verifyLabels: true });
    await rpc.call('scan.submit', { code: 'ORD-1001' });
    await rpc.waitFor('scan.outcome', (o) => o.code === 'ORD-1001' && o.kind === 'printed', 30_000);
  });
  afterAll(() => closeDesk({ hs, rpc, browser }));

  it.each(['cs', 'en'] as const)(
    '%s: End of day, Print queue and the shipment detail write the full year in the language’s form',
    async (lang) => {
      await rpc.call('settings.set', { language: lang });
      const page = await browser.newPage({ locale: 'en-US', viewport: { width: 1366, height: 768 } });
      await page.goto(hs.host.url);
      await page.getByTestId('screen-station').waitFor();

      await page.keyboard.press('F6');
      const row = page.getByTestId('unverified-labels').locator('li').first();
      await row.waitFor({ timeout: 20_000 });
      const at = /, (?:printed|vytištěno) (.+)$/.exec((await row.textContent()) ?? '')?.[1];
      expect(at).toMatch(forms[lang]);
      await page.screenshot({ path: path.join(shots, `dates-end-of-day-${lang}.png`) });

      await page.keyboard.press('F4');
      await page.getByTestId('queue-show-all').check();
      const updated = page.getByTestId('queue-row').first().locator('td').last();
      await updated.waitFor({ timeout: 20_000 });
      const queueCells = await page.getByTestId('queue-row').first().locator('td').allTextContents();
      expect(queueCells.some((c) => forms[lang].test(c.trim()))).toBe(true);
      await page.screenshot({ path: path.join(shots, `dates-queue-${lang}.png`) });

      await page.keyboard.press('F2');
      await page.locator('[data-testid="shipment-row"][data-delivery-id="1001"]').dblclick();
      const detail = page.getByTestId('shipment-detail');
      await detail.waitFor();
      const values = await detail.locator('dd').allTextContents();
      expect(values.filter((v) => forms[lang].test(v.trim())).length).toBeGreaterThan(0);
      expect(values.join(' ')).not.toMatch(/\b\d{1,2}\.\d{1,2}\.\d{2}\b/);
      await page.screenshot({ path: path.join(shots, `dates-detail-${lang}.png`) });
      await page.close();
    },
  );
});
