/**
 * Batch mode with a scale on the Station screen, in Chromium through the web host (issue 19 item
 * 2, "Batch mode too"): in Czech, a parcel scanned in batch mode waits on the weighing panel, its
 * row shows the weight taken, and the summary after "close all" the weight each shipment was
 * closed with — updated at the service for the one off by more than the tolerance.
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

describe.skipIf(!needs('chromium', 'socat'))('batch mode with a scale on the Station screen', { timeout: 120_000 }, () => {
  let hs: HostedStation;
  let rpc: RpcSocket;
  let browser: Browser;
  let vs: VirtualScale;
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(shots, `scale-batch-${name}.png`) });

  async function collectOnScale(page: Page, code: string, weight: string) {
    vs.show({ state: 'stable', text: '0.000 kg' });
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await page.getByTestId('weigh-panel').waitFor({ timeout: 20_000 });
    // In batch mode the wait ends in collecting the parcel, not closing it.
    expect(await page.getByTestId('weigh-countdown').textContent()).toMatch(/^Za \d+ s se přidá do dávky s hmotností ze zásilky/);
    if (code === 'ORD-1013') await shot(page, 'weighing-cs');
    vs.show({ state: 'stable', text: `${weight} kg` });
    await page.waitForSelector(`[data-testid="batch-items"] li[data-code="${code}"] [data-testid="batch-item-weight"]`, { timeout: 20_000 });
  }

  beforeAll(async () => {
    vs = await startVirtualScale();
    hs = await startHostedStation({ secrets: createMemorySecretStore(), printWaitMs: 5000 });
    rpc = await connectRpc(hs.host);
    await rpc.call('scale.setSettings', { kind: 'mt-sics', path: vs.stationPath, baudRate: 9600, toleranceKg: '0.05', displayUnit: 'kg', waitSeconds: 60, verifyLabels: false });
    await rpc.call('settings.set', { language: 'cs' });
    browser = await launchChromium();
    mkdirSync(shots, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    rpc?.close();
    await hs?.close();
    await vs?.close();
  });

  it('Czech: each parcel weighed as it is collected; the summary names the weight used', async () => {
    const page = await browser.newPage({ locale: 'cs-CZ', viewport: { width: 1366, height: 768 } });
    await page.goto(hs.host.url);
    await page.getByTestId('scan-input').waitFor();
    await page.keyboard.press('F5');
    await page.getByTestId('batch-close').waitFor();

    await collectOnScale(page, 'ORD-1013', '2.75');
    await collectOnScale(page, 'ORD-1010', '1.81');
    expect(await page.locator('[data-testid="batch-items"] li[data-code="ORD-1013"] [data-testid="batch-item-weight"]').textContent()).toBe('zváženo: 2,75 kg');
    await shot(page, 'collected-cs');

    await page.getByTestId('batch-close').click();
    const weights = page.getByTestId('batch-weights');
    await weights.waitFor({ timeout: 30_000 });
    expect(await weights.locator('li[data-code="ORD-1013"]').textContent()).toContain('2,75 kg');
    expect(await weights.locator('li[data-code="ORD-1013"]').getAttribute('data-updated')).toBe('true');
    expect(await weights.locator('li[data-code="ORD-1010"]').getAttribute('data-updated')).toBe('false');
    await shot(page, 'summary-cs');
    await page.close();
  });
});
