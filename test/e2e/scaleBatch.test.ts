/**
 * Batch mode with a scale on the Station screen, in Chromium through the web host ("Batch mode
 * too"): in Czech, a parcel scanned in batch mode waits on the weighing panel, its
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

describe.skipIf(!needs('chromium', 'socat'))(
  'batch mode with a scale on the Station screen',
  { timeout: 120_000 },
  () => {
    let hs: HostedStation;
    let rpc: RpcSocket;
    let browser: Browser;
    let vs: VirtualScale;
    const shot = (page: Page, name: string) => page.screenshot({ path: path.join(shots, `scale-batch-${name}.png`) });

    async function collectOnScale(page: Page, code: string, weight: string) {
      await vs.shown({ state: 'stable', text: '0.000 kg' });
      await page.keyboard.type(code);
      await page.keyboard.press('Enter');
      await page.getByTestId('weigh-panel').waitFor({ timeout: 20_000 });
      // In batch mode the wait ends in collecting the parcel, not closing it.
      expect(await page.getByTestId('weigh-countdown').textContent()).toMatch(
        /^Za \d+ s se přidá do dávky s hmotností ze zásilky/,
      );
      if (code === 'ORD-1013') await shot(page, 'weighing-cs');
      vs.show({ state: 'stable', text: `${weight} kg` });
      await page.waitForSelector(
        `[data-testid="batch-items"] li[data-code="${code}"] [data-testid="batch-item-weight"]`,
        { timeout: 20_000 },
      );
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
        verifyLabels: false,
      });
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
      expect(
        await page
          .locator('[data-testid="batch-items"] li[data-code="ORD-1013"] [data-testid="batch-item-weight"]')
          .textContent(),
      ).toBe('zváženo: 2,75 kg');
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

    // The weight check: "when the scale's weight differs from the stored one by more than a share the
    // desk sets (default 30 %), the station asks the worker before it sends the new weight (… Enter
    // accepts and corrects, Esc holds the parcel)" — in batch mode as for a single scan.
    const checks = [
      {
        lang: 'en',
        locale: 'en-US',
        code: 'ORD-1001',
        expected: '2.3',
        kg: '4.6',
        line: '4.6 kg on the scale, 2.3 kg expected — wrong contents?',
        title: 'Check the weight',
        question: 'Add it to the batch with this weight?',
        keys: ['Accept', 'Hold'],
        held: 'Parcel held',
        weighed: '4.6 kg',
      },
      {
        lang: 'cs',
        locale: 'cs-CZ',
        code: 'ORD-1005',
        expected: '3.4',
        kg: '6.8',
        line: '6,8 kg na váze, očekáváno 3,4 kg — špatný obsah?',
        title: 'Zkontrolujte hmotnost',
        question: 'Přidat do dávky s touto hmotností?',
        keys: ['Přijmout', 'Zadržet'],
        held: 'Zásilka zadržena',
        weighed: '6,8 kg',
      },
    ] as const;
    async function atService(code: string) {
      const r = await hs.station.deps.session()!.client.searchDeliveries({ filters: { externalId: code } });
      if (r.status !== 'ok') throw new Error('search failed');
      const d = r.deliveries[0] as { deliveryState: unknown; packages: { weight: unknown }[] };
      return { state: Number(d.deliveryState), weights: d.packages.map((p) => String(p.weight)) };
    }
    for (const l of checks) {
      it(`${l.lang}: batch mode asks about a weight far off the shipment's — Esc leaves the parcel out, Enter collects it and close all sends the scale's weight`, async () => {
        await rpc.call('settings.set', { language: l.lang });
        const page = await browser.newPage({ locale: l.locale, viewport: { width: 1366, height: 768 } });
        await page.goto(hs.host.url);
        await page.getByTestId('scan-input').waitFor();
        await page.keyboard.press('F5');
        await page.getByTestId('batch-close').waitFor();
        expect(await atService(l.code)).toEqual({ state: 0, weights: [l.expected] });
        const row = page.locator(`[data-testid="batch-items"] li[data-code="${l.code}"]`);
        const asked = async () => {
          // The worker lifts the parcel off before scanning it again: the station must have read the empty
          // scale, or the same parcel's weight still lying there is (rightly) never taken twice.
          await vs.shown({ state: 'stable', text: '0.000 kg' });
          await page.keyboard.type(l.code);
          await page.keyboard.press('Enter');
          await page.getByTestId('weigh-panel').waitFor({ timeout: 20_000 });
          vs.show({ state: 'stable', text: `${l.kg} kg` });
          await page
            .locator('[data-testid="scan-outcome"][data-kind="weight_check"]', { hasText: l.title })
            .waitFor({ timeout: 20_000 });
          expect(await page.getByTestId('weight_check-line').textContent()).toBe(l.line);
          expect(await page.getByTestId('outcome-question').textContent()).toBe(l.question);
          expect(await page.getByTestId('outcome-reprint').textContent()).toContain(l.keys[0]);
          expect(await page.getByTestId('outcome-skip').textContent()).toContain(l.keys[1]);
          expect(await row.count()).toBe(0);
        };

        // Esc holds: the parcel is not in the batch, nothing was sent.
        await asked();
        await shot(page, `weight_check-${l.lang}`);
        await page.keyboard.press('Escape');
        await page
          .locator('[data-testid="scan-outcome"][data-kind="held"]', { hasText: l.held })
          .waitFor({ timeout: 20_000 });
        expect(await row.count()).toBe(0);
        expect(await atService(l.code)).toEqual({ state: 0, weights: [l.expected] });

        // Scanned again, Enter accepts: in the batch with the scale's weight.
        await asked();
        await page.keyboard.press('Enter');
        await row.locator('[data-testid="batch-item-weight"]', { hasText: l.weighed }).waitFor({ timeout: 20_000 });
        expect(await atService(l.code)).toEqual({ state: 0, weights: [l.expected] });

        // Close all: closed with the scale's weight.
        await page.getByTestId('batch-close').click();
        const weights = page.getByTestId('batch-weights');
        await weights.waitFor({ timeout: 30_000 });
        expect(await weights.locator(`li[data-code="${l.code}"]`).getAttribute('data-updated')).toBe('true');
        const closed = await atService(l.code);
        expect(closed.weights).toEqual([l.kg]);
        expect(closed.state).not.toBe(0);
        await page.close();
      });
    }
  },
);
