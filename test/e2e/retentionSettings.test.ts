/**
 * Retention (keep) in Chromium through the web host at 1366×768, in English and Czech:
 * Settings → Data kept shows the desk's windows (90 and 400 days at first), refuses a window
 * shorter than its minimum before saving, saves whole days, and the Status screen then says what
 * the desk keeps and how much its data folder holds. The core refuses what the form would not send.
 */
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../electron/auth/keychain';
import { closeDesk, openDesk } from '../support/desk';
import type { RpcSocket } from '../support/rpcSocket';
import { needs } from '../support/services';
import { repoRoot, type HostedStation } from '../support/station';

const shots = path.join(repoRoot, 'test-results', 'screenshots');

const expected = {
  en: {
    values: { labelsDays: 30, historyDays: 365 },
    tooShort: 'Whole days: 0 (keep forever) or 7 to 3650.',
    shipmentsLeave: 'Older delivered, returned and cancelled shipments leave the Shipments list',
    saved: 'Saved.',
    status: /^Labels kept 30 days, journal 365 days; \d+(\.\d)? (kB|MB|GB) in the data folder$/,
  },
  cs: {
    values: { labelsDays: 0, historyDays: 1000 },
    tooShort: 'Celé dny: 0 (uchovávat navždy) nebo 7 až 3650.',
    shipmentsLeave: 'Starší doručené, vrácené a zrušené zásilky ze seznamu Zásilek odejdou',
    saved: 'Uloženo.',
    status: /^Štítky se uchovávají navždy, deník 1000 dní; \d+(,\d)? (kB|MB|GB) ve složce dat$/,
  },
};

describe.skipIf(!needs('chromium'))('retention settings and status', { timeout: 120_000 }, () => {
  let hs: HostedStation;
  let rpc: RpcSocket;
  let browser: Browser;

  beforeAll(async () => {
    ({ hs, rpc, browser } = await openDesk({ secrets: createMemorySecretStore() }));
  });
  afterAll(() => closeDesk({ hs, rpc, browser }));

  it('the core refuses fractions, negative days and windows past ten years', async () => {
    for (const bad of [
      { labelsDays: 1.5, historyDays: 400 },
      { labelsDays: -1, historyDays: 400 },
      { labelsDays: 90, historyDays: 29 },
      { labelsDays: 90, historyDays: 3651 },
    ])
      await expect(rpc.call('retention.set', bad)).rejects.toThrow();
    expect((await rpc.call('retention.get', {})).settings).toEqual({ labelsDays: 90, historyDays: 400 });
  });

  it.each(['en', 'cs'] as const)('%s: Settings → Data kept saves the windows and Status says them', async (lang) => {
    const x = expected[lang];
    await rpc.call('settings.set', { language: lang });
    await rpc.call('retention.set', { labelsDays: 90, historyDays: 400 });
    const page = await browser.newPage({ locale: 'en-US', viewport: { width: 1366, height: 768 } });
    await page.goto(hs.host.url);
    await page.getByTestId('screen-station').waitFor();

    await page.keyboard.press('F8');
    await page.getByTestId('settings-tab-retention').click();
    const labels = page.getByTestId('retention-labels');
    const history = page.getByTestId('retention-history');
    await expect.poll(() => labels.inputValue()).toBe('90');
    expect(await history.inputValue()).toBe('400');
    // The history window also says which shipments leave the list (and that a scan brings one back).
    expect(await page.getByTestId('settings-retention').textContent()).toContain(x.shipmentsLeave);

    // Three days is shorter than a week: said under the field, nothing saved.
    await labels.fill('3');
    await page.getByTestId('retention-save').click();
    await expect.poll(() => page.getByTestId('retention-labels-error').textContent()).toBe(x.tooShort);
    await page.screenshot({ path: path.join(shots, `retention-settings-refused-${lang}.png`) });
    expect((await rpc.call('retention.get', {})).settings).toEqual({ labelsDays: 90, historyDays: 400 });

    await labels.fill(String(x.values.labelsDays));
    await history.fill(String(x.values.historyDays));
    await page.getByTestId('retention-save').click();
    await expect.poll(() => page.getByTestId('retention-result').textContent()).toBe(x.saved);
    await page.screenshot({ path: path.join(shots, `retention-settings-${lang}.png`) });
    expect((await rpc.call('retention.get', {})).settings).toEqual(x.values);

    await page.keyboard.press('F9');
    await expect.poll(() => page.getByTestId('retention').textContent()).toMatch(x.status);
    await page.screenshot({ path: path.join(shots, `retention-status-${lang}.png`) });
    await page.close();
  });
});
