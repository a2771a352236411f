/**
 * What the desk shows when the station cannot write its data, in Chromium
 * through the web host, in English and in Czech. The station's data folder is a FUSE mount whose
 * writes fail on demand (test/support/lossyfs.py, EIO): the scan made after the failure is refused
 * on the Station screen with the storage reason, and a banner says scanning has stopped and where
 * the data folder is. (Hosted in the test's process, the station has no supervisor to exit to: it
 * stays in the failed state, which is what the page shows in the second before the core exits;
 * the exit and the restart are test/integration/station/storageFailure.test.ts.) Then a station
 * started again after such a stop shows why it was restarted.
 * Screenshots (1366×768): test-results/screenshots/storage-{failed,restarted}-{en,cs}.png.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../electron/auth/keychain';
import type { StorageFailure } from '../../shared/storageFailure';
import { closeDesk, openDesk, screenshotsDir, type Desk } from '../support/desk';
import { mountLossyFs, type LossyMount } from '../support/lossyFs';
import { needs } from '../support/services';

const ready = needs('chromium', 'fuse');

const langs = [
  {
    lang: 'en',
    locale: 'en-US',
    refused: 'The station cannot write its data: the disk reported an input/output error (SQLITE_IOERR',
    stopped: 'Scanning has stopped',
    footer: 'Scanning is stopped until the station starts again',
    restarted:
      'The station was started again after it stopped because it could not write its data: the disk is full (SQLITE_FULL).',
  },
  {
    lang: 'cs',
    locale: 'cs-CZ',
    refused: 'Stanice nemůže zapisovat svá data: disk ohlásil chybu vstupu/výstupu (SQLITE_IOERR',
    stopped: 'Skenování je zastaveno',
    footer: 'Skenování je zastaveno, dokud se stanice znovu nespustí',
    restarted:
      'Stanice byla znovu spuštěna poté, co se zastavila, protože nemohla zapisovat svá data: disk je plný (SQLITE_FULL).',
  },
] as const;

describe.skipIf(!ready)('the desk when the station cannot write its data', { timeout: 120_000 }, () => {
  let desk: Partial<Desk> = {};
  let disk: LossyMount | null = null;
  const top = mkdtempSync(path.join(tmpdir(), 'station-storage-desk-'));
  afterAll(async () => {
    await closeDesk(desk).catch(() => undefined);
    disk?.failWrites(null);
    await disk?.unmount();
    rmSync(top, { recursive: true, force: true });
  });

  async function stationPage(browser: Browser, url: string, locale: string): Promise<Page> {
    const page = await browser.newPage({ locale, viewport: { width: 1366, height: 768 } });
    await page.goto(url);
    await page.getByTestId('scan-input').waitFor();
    return page;
  }
  async function scan(page: Page, code: string) {
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
  }

  it('a failing disk: the next scan is refused with the reason, and the banner says scanning has stopped', async () => {
    const backing = path.join(top, 'backing');
    const dataDir = path.join(top, 'data');
    mkdirSync(backing);
    mkdirSync(dataDir);
    disk = await mountLossyFs(backing, dataDir, { failFlag: path.join(top, 'fail') });
    desk = await openDesk({ dataDir, secrets: createMemorySecretStore(), printWaitMs: 5000 });
    const { hs, browser } = desk as Desk;

    const first = await stationPage(browser, hs.host.url, 'en-US');
    await scan(first, 'ORD-1001');
    await first.waitForSelector('[data-testid="scan-outcome"][data-kind="printed"]', { timeout: 20_000 });
    await first.close();

    disk.failWrites('EIO');
    for (const [i, l] of langs.entries()) {
      const page = await stationPage(browser, hs.host.url, l.locale);
      await scan(page, `ORD-100${2 + i}`);
      const refused = page.getByTestId('scan-refused');
      await refused.waitFor({ timeout: 20_000 });
      expect(await refused.textContent()).toContain(l.refused);
      const banner = page.locator('[data-testid="storage-banner"][data-state="failed"]');
      await banner.waitFor({ timeout: 20_000 });
      const text = await banner.textContent();
      expect(text).toContain(l.refused);
      expect(text).toContain(l.stopped);
      expect(text).toContain(dataDir);
      // The refused scan's footer does not invite the next parcel while scans are refused.
      await expect.poll(() => refused.getByTestId('outcome-next').textContent(), { timeout: 10_000 }).toBe(l.footer);
      // The top bar still names the company (its reads are answered): nothing but scanning looks broken.
      expect(await page.getByTestId('connection').textContent()).toBe(l.lang === 'en' ? 'Connected' : 'Připojeno');
      await page.screenshot({ path: path.join(screenshotsDir, `storage-failed-${l.lang}.png`) });
      await page.close();
    }
    await closeDesk(desk);
    desk = {};
  });

  it('a station started again after a storage failure says why', async () => {
    disk?.failWrites(null);
    const earlier: StorageFailure = {
      kind: 'full',
      code: 'SQLITE_FULL',
      message: 'database or disk is full',
      at: new Date().toISOString(),
    };
    desk = await openDesk({
      dataDir: path.join(top, 'data'),
      secrets: createMemorySecretStore(),
      restartedAfter: earlier,
    });
    const { hs, browser } = desk as Desk;
    for (const l of langs) {
      const page = await stationPage(browser, hs.host.url, l.locale);
      const banner = page.locator('[data-testid="storage-banner"][data-state="restarted"]');
      await banner.waitFor({ timeout: 20_000 });
      const text = await banner.textContent();
      expect(text).toContain(l.restarted);
      expect(text).toContain(hs.dataDir);
      // Scanning works again.
      await scan(page, l.lang === 'en' ? 'ORD-1002' : 'ORD-1003');
      await page.waitForSelector('[data-testid="scan-outcome"][data-kind="printed"]', { timeout: 20_000 });
      await page.screenshot({ path: path.join(screenshotsDir, `storage-restarted-${l.lang}.png`) });
      await page.close();
    }
  });
});
