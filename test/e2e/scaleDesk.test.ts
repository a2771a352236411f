/**
 * The scale and the label check on the Station screen, in Chromium through the web host (issue
 * 19): the weighing panel with its countdown while the station waits for the virtual MT-SICS scale
 * (socat pty pair), the weight used on the outcome, and the label check answering green for the
 * right label and red for another parcel's. In English and in Czech; Settings → Scale & check.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../electron/auth/keychain';
import { launchChromium } from '../support/browser';
import { connectRpc, type RpcSocket } from '../support/rpcSocket';
import { needs } from '../support/services';
import { repoRoot, startHostedStation, type HostedStation } from '../support/station';
import { startVirtualScale, type VirtualScale } from '../integration/scale/virtualScale';

const shots = path.join(repoRoot, 'test-results', 'screenshots');

describe.skipIf(!needs('chromium', 'socat'))(
  'scale and label check on the Station screen',
  { timeout: 120_000 },
  () => {
    let hs: HostedStation;
    let rpc: RpcSocket;
    let browser: Browser;
    let vs: VirtualScale;
    const shot = (page: Page, name: string) => page.screenshot({ path: path.join(shots, `scale-${name}.png`) });

    async function scan(page: Page, code: string) {
      await page.keyboard.type(code);
      await page.keyboard.press('Enter');
    }
    async function barcodeOf(code: string): Promise<string> {
      const s = hs.station.deps.session()!;
      const r = await s.client.searchDeliveries({ filters: { externalId: code } });
      if (r.status !== 'ok') throw new Error('search failed');
      return (r.deliveries[0] as { packages: { barcode: string }[] }).packages[0]!.barcode;
    }
    async function openPage(locale: string): Promise<Page> {
      const page = await browser.newPage({ locale, viewport: { width: 1366, height: 768 } });
      await page.goto(hs.host.url);
      await page.getByTestId('scan-input').waitFor();
      return page;
    }

    beforeAll(async () => {
      vs = await startVirtualScale();
      hs = await startHostedStation({ secrets: createMemorySecretStore(), printWaitMs: 5000 });
      rpc = await connectRpc(hs.host);
      await rpc.call('scale.setSettings', {
        kind: 'mt-sics',
        path: vs.stationPath,
        baudRate: 9600,
        toleranceKg: '0.05',
        displayUnit: 'kg',
        waitSeconds: 60,
        verifyLabels: true,
      });
      browser = await launchChromium();
      mkdirSync(shots, { recursive: true });
    });
    afterAll(async () => {
      await browser?.close();
      rpc?.close();
      await hs?.close();
      await vs?.close();
    });

    it('English: weigh with a countdown, the weight on the outcome, the right label green, another parcel’s label red', async () => {
      const page = await openPage('en-US');
      await vs.shown({ state: 'stable', text: '0.000 kg' });
      await scan(page, 'ORD-1013');
      const panel = page.getByTestId('weigh-panel');
      await panel.waitFor({ timeout: 20_000 });
      expect(await panel.textContent()).toContain('Put package 1 of 1 on the scale');
      expect(await page.getByTestId('weigh-countdown').textContent()).toMatch(/in \d+ s/);
      vs.show({ state: 'moving', text: '2.741 kg' });
      await page.waitForSelector('[data-testid="scale-reading"][data-state="motion"]');
      await shot(page, 'weighing-en');
      vs.show({ state: 'stable', text: '2.75 kg' });
      await page.waitForSelector('[data-testid="scan-outcome"][data-kind="printed"]', { timeout: 20_000 });
      expect(await page.getByTestId('outcome-weight').textContent()).toBe('Weight: 2.75 kg (updated at the service)');
      await shot(page, 'weighed-en');

      // The label check: the station asks for the label; the right one is green.
      await page.keyboard.press('Escape');
      await page.getByTestId('verify-expect').waitFor();
      const right = await barcodeOf('ORD-1013');
      await scan(page, right);
      await page.waitForSelector('[data-testid="verify-result"][data-result="match"]');
      expect(await page.getByTestId('verify-result').textContent()).toContain(right);

      // The next parcel (within the tolerance) — and ORD-1013's label stuck on it: red, both named.
      await vs.shown({ state: 'stable', text: '0.000 kg' });
      await scan(page, 'ORD-1010');
      await page.getByTestId('weigh-panel').waitFor({ timeout: 20_000 });
      vs.show({ state: 'stable', text: '1.81 kg' });
      await page.waitForSelector('[data-testid="scan-outcome"][data-kind="printed"]', { timeout: 20_000 });
      expect(await page.getByTestId('outcome-weight').textContent()).toBe('Weight: 1.8 kg');
      await page.keyboard.press('Escape');
      await page.getByTestId('verify-expect').waitFor();
      await scan(page, right);
      await page.waitForSelector('[data-testid="verify-result"][data-result="mismatch"]');
      const red = await page.getByTestId('verify-result').textContent();
      expect(red).toContain('WRONG LABEL');
      expect(red).toContain(right);
      await shot(page, 'verify-red-en');

      // End of day lists the label nobody checked (ORD-1010's), not the checked one.
      await page.keyboard.press('F6');
      const list = page.getByTestId('unverified-labels');
      await list.waitFor();
      const text = await list.textContent();
      expect(text).toContain('Labels nobody checked');
      expect(text).toContain(await barcodeOf('ORD-1010'));
      expect(text).not.toContain(right);
      await shot(page, 'unverified-en');
      await page.close();
    });

    it('Czech: the weighing panel and Settings → Scale & check', async () => {
      await rpc.call('settings.set', { language: 'cs' });
      const page = await openPage('cs-CZ');
      await vs.shown({ state: 'stable', text: '0.000 kg' });
      await scan(page, 'ORD-1011');
      const panel = page.getByTestId('weigh-panel');
      await panel.waitFor({ timeout: 20_000 });
      expect(await panel.textContent()).toContain('Položte balík 1 z 1 na váhu');
      await shot(page, 'weighing-cs');
      // The skip key: closes with the shipment's own weight.
      await page.keyboard.press('F10');
      await page.waitForSelector('[data-testid="scan-outcome"][data-kind="printed"]', { timeout: 20_000 });
      expect(await page.getByTestId('outcome-weight').textContent()).toContain('ze zásilky');
      await shot(page, 'skipped-cs');

      await page.keyboard.press('F8');
      await page.getByTestId('settings-tab-scale').click();
      await page.getByTestId('settings-scale').waitFor();
      expect(await page.getByTestId('scale-path').inputValue()).toBe(vs.stationPath);
      vs.show({ state: 'stable', text: '0.000 kg' });
      await page.waitForSelector('[data-testid="scale-live"] [data-testid="scale-reading"][data-state="stable"]');
      expect(await page.getByTestId('scale-live').textContent()).toContain('Ustáleno: 0,000 kg');
      // Find scales: a list, or (where udevadm is missing) the reason in Czech — never a failure.
      await page.getByTestId('scale-discover').click();
      await page.waitForFunction(
        `document.querySelector('[data-testid="scale-discover"]')?.textContent === 'Najít váhy'`,
      );
      const problems = await page.getByTestId('scale-discover-problem').allTextContents();
      for (const p of problems) expect(p).toMatch(/^(Sériové porty nelze vypsat|USB váhy nelze vypsat)/);
      await shot(page, 'settings-cs');
      await page.close();
    });
  },
);
