/**
 * Settings → Metrics in Chromium through the web host, in English and Czech: the admin turns the
 * desk's Prometheus endpoint on at a loopback port, sees where Prometheus reads it, and sees the
 * token only on asking (then it is the one the endpoint takes); a LAN address is warned about
 * before it is saved; a wrong address or port is marked in the form and refused by the core too.
 */
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../electron/auth/keychain';
import { freePort } from '../support/freePort';
import { StationCallError, type RpcSocket } from '../support/rpcSocket';
import { needs } from '../support/services';
import { closeDesk, openDesk, screenshotsDir } from '../support/desk';
import type { HostedStation } from '../support/station';

describe.skipIf(!needs('chromium'))('Settings → Metrics', { timeout: 120_000 }, () => {
  let hs: HostedStation;
  let rpc: RpcSocket;
  let browser: Browser;

  beforeAll(async () => {
    ({ hs, rpc, browser } = await openDesk({ secrets: createMemorySecretStore() }));
  });
  afterAll(() => closeDesk({ hs, rpc, browser }));

  it('the core refuses an address that is not an IP address, every address at once, and a port below 1024', async () => {
    for (const bad of [
      { enabled: true, address: 'printers.example.com', port: 9477 },
      { enabled: true, address: '127.0.0.1', port: 80 },
      { enabled: true, address: '0.0.0.0', port: 9477 },
    ]) {
      const refused = await rpc.call('metrics.set', bad).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(StationCallError);
    }
    expect((await rpc.call('metrics.get', {})).settings.enabled).toBe(false);
  });

  it.each([
    {
      lang: 'en',
      locale: 'en-US',
      off: 'Metrics are off.',
      serving: 'Prometheus reads them at',
      lan: 'can be reached from other computers',
      addressBad: 'Type an IP address of this computer',
      saved: 'Saved.',
    },
    {
      lang: 'cs',
      locale: 'cs-CZ',
      off: 'Metriky jsou vypnuté.',
      serving: 'Prometheus je čte na adrese',
      lan: 'se dostanou i jiné počítače v síti',
      addressBad: 'Zadejte IP adresu tohoto počítače',
      saved: 'Uloženo.',
    },
  ])('$lang: turned on at a loopback port, the token shown only on request, a LAN address warned about', async (c) => {
    await rpc.call('metrics.set', { enabled: false, address: '127.0.0.1', port: 9477 });
    await rpc.call('settings.set', { language: c.lang as 'en' | 'cs' });
    const token = (await rpc.call('metrics.token', {})).token;
    const page = await browser.newPage({ locale: c.locale, viewport: { width: 1366, height: 768 } });
    try {
      await page.goto(hs.host.url);
      await page.getByTestId('screen-station').waitFor();
      await page.keyboard.press('F8');
      await page.getByTestId('settings-tab-metrics').click();
      await page.getByTestId('settings-metrics').waitFor();
      expect(await page.getByTestId('metrics-status').textContent()).toBe(c.off);
      // A secret: not on the page until the admin asks for it.
      expect(await page.content()).not.toContain(token);

      const port = await freePort();
      await page.getByTestId('metrics-enabled').check();
      await page.getByTestId('metrics-port').fill(String(port));
      await page.getByTestId('metrics-save').click();
      await expect.poll(() => page.getByTestId('metrics-result').textContent()).toBe(c.saved);
      const url = `http://127.0.0.1:${port}/metrics`;
      expect(await page.getByTestId('metrics-status').textContent()).toBe(`${c.serving} ${url}`);
      expect(await page.getByTestId('metrics-lan-warning').count()).toBe(0);

      await page.getByTestId('metrics-show-token').click();
      await page.getByTestId('metrics-token').waitFor();
      expect(await page.getByTestId('metrics-token').inputValue()).toBe(token);
      const scrape = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      expect(scrape.status).toBe(200);
      expect(await scrape.text()).toContain('label_station_scans_total');

      // A LAN address: said before it is saved.
      await page.getByTestId('metrics-address').fill('192.168.10.21');
      expect(await page.getByTestId('metrics-lan-warning').textContent()).toContain(c.lan);
      await page.screenshot({ path: path.join(screenshotsDir, `metrics-settings-${c.lang}.png`) });

      await page.getByTestId('metrics-address').fill('desk-7');
      expect(await page.getByTestId('metrics-address-error').textContent()).toContain(c.addressBad);
      await page.getByTestId('metrics-save').click();
      expect(await page.evaluate('document.activeElement?.id')).toBe('metrics-address');
      expect((await rpc.call('metrics.get', {})).settings.address).toBe('127.0.0.1');
    } finally {
      await page.close();
    }
  });
});
