/**
 * The label check's red "WRONG LABEL" alert on the Station screen, in Chromium
 * through the web host, in English and in Czech: the red covers the whole outcome area (no part of
 * the last parcel's green beside it), Esc takes it away, and once the check is turned off the next
 * scan's outcome (here the "Already closed – Enter reprint / Esc skip" question) is not hidden under
 * a stale red alert.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../electron/auth/keychain';
import { defaultScaleSettings } from '../../shared/contract/scale';
import type { RpcSocket } from '../support/rpcSocket';
import { needs } from '../support/services';
import { closeDesk, openDesk } from '../support/desk';
import { repoRoot, type HostedStation } from '../support/station';

const shots = path.join(repoRoot, 'test-results', 'screenshots');

const langs = [
  {
    lang: 'en',
    locale: 'en-US',
    wrong: 'WRONG LABEL',
    alreadyClosed: 'Already closed',
    codes: ['ORD-1012', 'ORD-1013'],
  },
  {
    lang: 'cs',
    locale: 'cs-CZ',
    wrong: 'ŠPATNÝ ŠTÍTEK',
    alreadyClosed: 'Už uzavřeno',
    codes: ['ORD-1010', 'ORD-1011'],
  },
] as const;

describe.skipIf(!needs('chromium'))('the label check’s red alert on the Station screen', { timeout: 120_000 }, () => {
  let hs: HostedStation;
  let rpc: RpcSocket;
  let browser: Browser;

  const checkOn = (verifyLabels: boolean) => rpc.call('scale.setSettings', { ...defaultScaleSettings, verifyLabels });
  async function scan(page: Page, code: string) {
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
  }
  async function barcodeOf(code: string): Promise<string> {
    const r = await hs.station.deps.session()!.client.searchDeliveries({ filters: { externalId: code } });
    if (r.status !== 'ok') throw new Error('search failed');
    return (r.deliveries[0] as { packages: { barcode: string }[] }).packages[0]!.barcode;
  }
  /** The red alert's box and the box the outcome screen covers (the Station body, nothing in line). */
  async function boxes(page: Page) {
    const red = await page.getByTestId('verify-result').boundingBox();
    const body = await page.locator('.station-body').boundingBox();
    return { red: red!, body: body! };
  }

  beforeAll(async () => {
    ({ hs, rpc, browser } = await openDesk({ secrets: createMemorySecretStore(), printWaitMs: 5000 }));
  });
  afterAll(() => closeDesk({ hs, rpc, browser }));

  for (const l of langs) {
    it(`${l.lang}: the red alert covers the outcome area, Esc clears it, and it does not outlive the check`, async () => {
      await rpc.call('settings.set', { language: l.lang });
      await checkOn(true);
      const page = await browser.newPage({ locale: l.locale, viewport: { width: 1366, height: 768 } });
      await page.goto(hs.host.url);
      await page.getByTestId('scan-input').waitFor();
      const [first, second] = l.codes;

      // Two parcels closed and printed; the second one's label is expected, the first one's is scanned.
      await scan(page, first);
      await page.waitForSelector(`[data-testid="scan-outcome"][data-kind="printed"]`, { timeout: 20_000 });
      await scan(page, second);
      await page.getByTestId('verify-expect').waitFor();
      await page
        .locator('[data-testid="scan-outcome"][data-kind="printed"]', { hasText: second })
        .waitFor({ timeout: 20_000 });
      const firstLabel = await barcodeOf(first);
      await scan(page, firstLabel);
      await page.waitForSelector('[data-testid="verify-result"][data-result="mismatch"]');
      expect(await page.getByTestId('verify-result').textContent()).toContain(l.wrong);
      // The red covers all of the area the green outcome covers: none of the green beside it.
      const { red, body } = await boxes(page);
      expect(red.x).toBeCloseTo(body.x, 0);
      expect(red.width).toBeCloseTo(body.width, 0);
      expect(red.y).toBeCloseTo(body.y, 0);
      expect(red.height).toBeCloseTo(body.height, 0);
      const [x, y] = [body.x + body.width - 20, body.y + body.height / 2];
      const atRightEdge = await page.evaluate(
        `document.elementFromPoint(${x}, ${y})?.closest('[data-testid]')?.getAttribute('data-testid')`,
      );
      expect(atRightEdge).toBe('verify-result');
      await page.screenshot({ path: path.join(shots, `verify-red-full-${l.lang}.png`) });

      // Esc takes the red away; the label is still to be checked.
      await page.keyboard.press('Escape');
      await page.getByTestId('verify-expect').waitFor();
      expect(await page.getByTestId('verify-result').count()).toBe(0);

      // Red again, then the check is turned off: the next scan (a parcel closed already) shows its question, no red.
      await scan(page, firstLabel);
      await page.waitForSelector('[data-testid="verify-result"][data-result="mismatch"]');
      await checkOn(false);
      await scan(page, first);
      await page.waitForSelector('[data-testid="scan-outcome"][data-kind="already_closed"]', { timeout: 20_000 });
      expect(await page.getByTestId('verify-result').count()).toBe(0);
      expect(await page.getByTestId('scan-outcome').textContent()).toContain(l.alreadyClosed);
      expect(await page.getByTestId('outcome-skip').isVisible()).toBe(true);
      await page.screenshot({ path: path.join(shots, `verify-off-already_closed-${l.lang}.png`) });
      // Esc answers the question (skip), as without the check.
      await page.keyboard.press('Escape');
      await page.getByTestId('outcome-skip').waitFor({ state: 'detached' });
      await page.close();
    });
  }
});
