import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { needs } from '../support/services';
import { repoRoot, startHostedStation, type HostedStation } from '../support/station';

const shots = path.join(repoRoot, 'test-results', 'screenshots');

describe.skipIf(!needs('chromium'))('status page in Chromium through the web host', () => {
  let hs: HostedStation;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(path.join(repoRoot, 'dist', 'renderer', 'index.html'))) {
      throw new Error('dist/renderer is missing: run `npm run build` (npm test does it first).');
    }
    hs = await startHostedStation();
    browser = await launchChromium();
    mkdirSync(shots, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await hs?.close();
  });

  it('starts in Czech when the system locale is Czech', async () => {
    const context = await browser.newContext({ locale: 'cs-CZ' });
    const page = await context.newPage();
    await page.goto(hs.host.url);
    // No language saved yet on this station: the page follows the browser's locale.
    await expect.poll(() => page.getByTestId('nav-station').textContent()).toContain('Stanice');
    await page.keyboard.press('F9');
    await expect.poll(() => page.getByRole('heading').textContent()).toBe('Stav stanice');
    await context.close();
  });

  it('shows the status read through the contract and updates on pushed events', async () => {
    const page = await browser.newPage({ locale: 'en-US' });
    const cspErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') cspErrors.push(m.text());
    });
    await page.goto(hs.host.url);
    // The token left the address bar (kept in this tab's sessionStorage, never in a cookie).
    expect(page.url()).toBe(`${hs.host.origin}/`);
    await page.getByTestId('nav-status').click();
    await expect.poll(() => page.getByTestId('version').textContent()).toBe('0.0.0-test');
    expect(await page.getByTestId('data-dir').textContent()).toBe(hs.dataDir);
    await expect.poll(() => page.getByTestId('service').textContent()).toContain('reachable');
    expect(await page.getByTestId('service').textContent()).toContain('sandbox');

    const firstTick = await page.getByTestId('tick').textContent();
    await expect.poll(() => page.getByTestId('tick').textContent(), { timeout: 5000 }).not.toBe(firstTick);
    await expect.poll(() => page.getByTestId('demo-banner').textContent()).toContain('built-in sandbox');
    await page.screenshot({ path: path.join(shots, 'status-en.png') });

    await page.getByTestId('language').selectOption('cs');
    await expect.poll(() => page.getByRole('heading').textContent()).toBe('Stav stanice');
    expect(await page.getByTestId('service').textContent()).toContain('Služba dostupná');
    // The printer states too, not the raw English state ("Virtual label printer (ZPL) (ready)").
    expect(await page.getByTestId('printers').textContent()).toContain('(připravena)');
    expect(await page.getByTestId('printers').textContent()).not.toContain('(ready)');
    await page.screenshot({ path: path.join(shots, 'status-cs.png') });
    expect(cspErrors).toEqual([]);
    await page.close();
  });

  it("shows the keychain line the README promises, and times in the desk's zone and the UI language's format", async () => {
    for (const { lang, locale, keychain } of [
      { lang: 'en', locale: 'en-US', keychain: ['system keychain in use', 'not available'] },
      { lang: 'cs', locale: 'cs-CZ', keychain: ['používá se systémová klíčenka', 'není dostupná'] },
    ]) {
      // The desk is in Prague; the core's clock is UTC.
      const context = await browser.newContext({ locale, timezoneId: 'Europe/Prague' });
      const page = await context.newPage();
      await page.goto(hs.host.url);
      await page.getByTestId('language').selectOption(lang);
      await page.keyboard.press('F9');
      const line = page.getByTestId('keychain');
      await line.waitFor();
      const available = (await line.getAttribute('data-available')) === 'true';
      expect(await line.textContent()).toContain(keychain[available ? 0 : 1]);
      await page.getByTestId('tick').and(page.locator('[data-iso]')).waitFor();
      // Both read at once: the clock moves every second.
      const [iso, shown] = await page
        .getByTestId('tick')
        .evaluate((el) => [el.getAttribute('data-iso')!, el.textContent ?? '']);
      expect(shown).not.toMatch(/\d{4}-\d{2}-\d{2}T|Z$/);
      // The same instant on a Prague wall clock, hours and minutes as the language writes them.
      const [h, m] = new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Prague',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })
        .format(new Date(iso))
        .split(':');
      expect(shown).toContain(`${lang === 'cs' ? Number(h) : h}:${m}`);
      const year = new Date(iso).getUTCFullYear();
      expect(shown).toContain(String(year));
      if (lang === 'cs') expect(shown).toMatch(/\d{1,2}\. \d{1,2}\. \d{4}/);
      await page.screenshot({ path: path.join(shots, `status-desk-time-${lang}.png`) });
      await context.close();
    }
  });

  it('a page opened without the token gets nothing from the station', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // The renderer's files are public; the station is behind the socket, which needs the token.
    const res = await page.goto(hs.host.origin + '/');
    expect(res?.status()).toBe(200);
    await expect.poll(() => hs.log.lines.some((l) => l.includes('web host refused a socket'))).toBe(true);
    expect(await page.getByTestId('connection').getAttribute('class')).toContain('bad');
    await context.close();
  });
});
