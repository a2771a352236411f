/**
 * Settings → Scale & check in Chromium through the web host, in English and Czech: a serial scale
 * with an empty port is not saved — the field says why and the result
 * says "not saved" — and the core refuses such settings too; the tolerance is written with the UI
 * language's decimal separator ("0.05" in English, "0,05" in Czech), and the scale's state is said in
 * the UI language (item 6).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultScaleSettings } from '../../shared/contract/scale';
import { StationCallError, type RpcSocket } from '../support/rpcSocket';
import { needs } from '../support/services';
import { closeDesk, openDesk } from '../support/desk';
import { repoRoot, type HostedStation } from '../support/station';

const shots = path.join(repoRoot, 'test-results', 'screenshots');

describe.skipIf(!needs('chromium'))('Settings → Scale & check', { timeout: 120_000 }, () => {
  let hs: HostedStation;
  let rpc: RpcSocket;
  let browser: Browser;

  beforeAll(async () => {
    ({ hs, rpc, browser } = await openDesk({}));
  });
  afterAll(() => closeDesk({ hs, rpc, browser }));

  it('the core refuses a serial scale without its port, with a code the screen translates', async () => {
    const refused = await rpc
      .call('scale.setSettings', { ...defaultScaleSettings, kind: 'mt-sics', path: '  ' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StationCallError);
    expect((refused as StationCallError).code).toBe('scale_no_path');
    expect((await rpc.call('scale.getSettings', {})).kind).toBe('none');
  });

  it.each([
    {
      lang: 'en',
      locale: 'en-US',
      tolerance: '0.05',
      pathError: 'Give the scale’s port or device',
      notSaved: 'Not saved',
      saved: 'Saved',
      noScale: 'No scale: No scale is set up.',
      noUdevadm:
        'Serial ports could not be listed: this computer lacks the system program udevadm. Type the port’s path.',
    },
    {
      lang: 'cs',
      locale: 'cs-CZ',
      tolerance: '0,05',
      pathError: 'Zadejte port nebo zařízení váhy',
      notSaved: 'Neuloženo',
      saved: 'Uloženo',
      noScale: 'Váha nepřipojena: Žádná váha není nastavena.',
      noUdevadm: 'Sériové porty nelze vypsat: v počítači chybí systémový program udevadm. Napište cestu k portu.',
    },
  ])(
    '$lang: an MT-SICS scale with an empty port is not saved and says why; the tolerance reads $tolerance',
    async (c) => {
      await rpc.call('settings.set', { language: c.lang as 'en' | 'cs' });
      const page = await browser.newPage({ locale: c.locale, viewport: { width: 1366, height: 768 } });
      await page.goto(hs.host.url);
      await page.getByTestId('screen-station').waitFor();
      await page.keyboard.press('F8');
      await page.getByTestId('settings-tab-scale').click();
      await page.getByTestId('settings-scale').waitFor();
      expect(await page.getByTestId('scale-tolerance').inputValue()).toBe(c.tolerance);

      await page.getByTestId('scale-kind').selectOption('mt-sics');
      await page.getByTestId('scale-save').click();
      await expect.poll(() => page.getByTestId('scale-result').textContent()).toContain(c.notSaved);
      expect(await page.getByTestId('scale-result').textContent()).not.toContain(c.saved);
      expect(await page.getByTestId('scale-path-error').textContent()).toContain(c.pathError);
      expect(await page.evaluate('document.activeElement?.id')).toBe('scale-path');
      expect((await rpc.call('scale.getSettings', {})).kind).toBe('none');
      // The scale's state in the UI language ("No scale is set up." on the Czech screen).
      expect(await page.getByTestId('scale-live').textContent()).toContain(c.noScale);
      // Find scales where udevadm is missing (serialport runs it on Linux): said in the UI language, not "spawn udevadm ENOENT".
      await page.getByTestId('scale-discover').click();
      const noUdevadm = spawnSync('sh', ['-c', 'command -v udevadm']).status !== 0;
      if (noUdevadm) await page.getByTestId('scale-discover-problem').first().waitFor();
      else await expect.poll(() => page.getByTestId('scale-discover').isDisabled()).toBe(false);
      const problems = await page.getByTestId('scale-discover-problem').allTextContents();
      for (const p of problems) expect(p).not.toMatch(/ENOENT|spawn/);
      if (noUdevadm) expect(problems).toContain(c.noUdevadm);
      await page.screenshot({ path: path.join(shots, `scale-settings-no-port-${c.lang}.png`) });

      // Back to no scale: saved, with the tolerance as shown.
      await page.getByTestId('scale-kind').selectOption('none');
      await page.getByTestId('scale-save').click();
      await expect.poll(() => page.getByTestId('scale-result').textContent()).toContain(c.saved);
      expect((await rpc.call('scale.getSettings', {})).toleranceKg).toBe('0.05');
      await page.close();
    },
  );
});
