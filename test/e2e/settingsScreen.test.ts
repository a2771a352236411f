/**
 * Settings screen in Chromium through the loopback web host, against the
 * station's embedded sandbox: accounts with the browser login through the sandbox's own OAuth
 * pages (spec "Authentication", Flow 1-6) and the manual mode ("Access to resources" 4), a TCP
 * printer that is a real listener, routing and language kept across a reload, screenshots.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { connectRpc, type RpcSocket } from '../support/rpcSocket';
import { needs } from '../support/services';
import { repoRoot, startHostedStation, type HostedStation } from '../support/station';
import { freePort } from '../support/freePort';

const shots = path.join(repoRoot, 'test-results', 'screenshots');
const SCOPE = 'deliveries transports collection-protocols collection-places';

async function postJson<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** A plain TCP listener standing in for a network label printer: keeps every byte it receives. */
async function startTcpPrinter(): Promise<{ port: number; received: () => string; close: () => Promise<void> }> {
  const chunks: Buffer[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((sock) => {
    sockets.add(sock);
    sock.on('data', (d) => chunks.push(d));
    sock.on('close', () => sockets.delete(sock));
    sock.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    received: () => Buffer.concat(chunks).toString('latin1'),
    close: () =>
      new Promise<void>((r) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => r());
      }),
  };
}

describe.skipIf(!needs('chromium'))('settings screen in Chromium through the web host', { timeout: 90_000 }, () => {
  let hs: HostedStation;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let rpc: RpcSocket;
  let clientId: string;
  let redirectPort: number;
  const popups: Page[] = [];

  const row = (name: string) => page.getByTestId('account-row').filter({ hasText: name });
  const openSettings = async (tab: 'accounts' | 'printers' | 'routing' | 'scanner' | 'language') => {
    await page.getByTestId('nav-settings').click();
    await page.getByTestId(`settings-tab-${tab}`).click();
  };

  /** The sandbox's login and consent pages in a second page, as the worker would in the browser. */
  async function answerLoginPage(url: string, decision: 'allow' | 'deny'): Promise<Page> {
    const second = await context.newPage();
    await second.goto(url);
    await second.locator('#username').fill(hs.station.sandbox.demo.username);
    await second.locator('#password').fill(hs.station.sandbox.demo.password);
    await second.locator('form button[type=submit]').click();
    await second.locator(`button[name=decision][value=${decision}]`).click();
    return second;
  }

  /**
   * Starts the browser login on the account's row. In the web host the page opens the login page
   * itself in a new tab (window.open), which comes to the front: the caller closes it once done
   * with it, as a worker goes back to the station tab. Left open, it keeps the station page in the
   * background, where Chromium throttles its animation frames and every Playwright action on it
   * waits 1-2 s for the element to be "stable".
   */
  async function startBrowserLogin(name: string): Promise<{ url: string; popup: Page }> {
    const popupOpened = context.waitForEvent('page', { timeout: 10_000 });
    await row(name).getByTestId('account-login').click();
    const link = row(name).getByTestId('login-link');
    await link.waitFor();
    const href = await link.getAttribute('href');
    expect(href).toMatch(new RegExp(`^${hs.station.sandbox.url}/connect/authorize/`));
    return { url: href!, popup: await popupOpened };
  }

  beforeAll(async () => {
    hs = await startHostedStation();
    browser = await launchChromium();
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 768 } });
    // The page opens the login page itself in the web host (window.open): keep those popups apart.
    context.on('page', (p) => {
      if (p.url() === 'about:blank' || p.url().startsWith(hs.station.sandbox.url)) popups.push(p);
    });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(hs.host.url);
    rpc = await connectRpc(hs.host);
    mkdirSync(shots, { recursive: true });

    redirectPort = await freePort();
    ({ clientId } = await postJson<{ clientId: string }>(`${hs.station.sandbox.url}/_sandbox/clients`, {
      companyName: 'Sklad Brno s.r.o.',
      redirectUri: `http://127.0.0.1:${redirectPort}/callback`,
      clientSecret: 'settings-e2e-secret-0123456789',
    }));
  });
  afterAll(async () => {
    rpc?.close();
    await context?.close();
    await browser?.close();
    await hs?.close();
  });

  it('adds a sandbox account, logs in through the sandbox login and consent pages, and makes it active', async () => {
    // F8 opens the settings from anywhere.
    await page.getByTestId('nav-settings').waitFor();
    await page.keyboard.press('F8');
    await page.getByTestId('screen-settings').waitFor();
    await openSettings('accounts');
    // The demo account the station made on first run is listed, active and logged in.
    await expect.poll(() => page.getByTestId('account-row').count()).toBe(1);
    expect(await page.getByTestId('account-row').first().getAttribute('data-active')).toBe('true');

    // A missing secret is refused with a message next to the field, nothing is added.
    await page.getByLabel('Company name').fill('Warehouse Brno');
    await page.getByLabel('Client id').fill(clientId);
    await page.getByTestId('account-add-submit').click();
    expect(await page.getByTestId('acct-secret-error').textContent()).toBe(
      'Enter the client secret the service issued.',
    );
    expect(await page.getByTestId('account-row').count()).toBe(1);

    await page.getByLabel('Client secret').fill('settings-e2e-secret-0123456789');
    await page.getByLabel('Redirect port').fill(String(redirectPort));
    expect(await page.getByLabel('Redirect path').inputValue()).toBe('/callback');
    await page.getByTestId('account-add-submit').click();
    await expect.poll(() => page.getByTestId('account-add-result').textContent()).toContain('“Warehouse Brno” added');
    // The secret is gone from the form once it was sent.
    expect(await page.getByLabel('Client secret').inputValue()).toBe('');
    await expect.poll(() => row('Warehouse Brno').getAttribute('data-login')).toBe('logged-out');
    expect(await row('Warehouse Brno').textContent()).toContain('built-in sandbox');

    const { url, popup } = await startBrowserLogin('Warehouse Brno');
    // In the web host the page itself opens the login page in a new tab.
    await expect.poll(() => popup.url()).toBe(url);
    await popup.close();
    expect(new URL(url).searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:${redirectPort}/callback`);
    expect(await row('Warehouse Brno').getByTestId('login-waiting').textContent()).toContain(
      'Waiting for the login in the browser',
    );
    await page.screenshot({ path: path.join(shots, 'settings-accounts-login-waiting-en.png') });

    const second = await answerLoginPage(url, 'allow');
    // The loopback listener answered the browser and the page learns it through accounts.changed.
    await expect.poll(() => row('Warehouse Brno').getAttribute('data-login'), { timeout: 15_000 }).toBe('logged-in');
    expect(await row('Warehouse Brno').getByTestId('account-login-state').textContent()).toBe('Logged in');
    expect(await second.content()).toMatch(/log|přihl/i);
    await second.close();

    // Its first login made the new company the active one by itself: scans go to it, not to the demo company.
    await expect.poll(() => row('Warehouse Brno').getAttribute('data-active')).toBe('true');
    expect(await row('Warehouse Brno').getByTestId('account-activate').count()).toBe(0);
    const accounts = await rpc.call('accounts.list', {});
    const brno = accounts.find((a) => a.name === 'Warehouse Brno')!;
    expect(brno.active).toBe(true);
    expect(await page.getByTestId('account-switch').inputValue()).toBe(brno.id);
    // Nothing of the secret reaches the page.
    expect(await page.content()).not.toContain('settings-e2e-secret');
  });

  it('a denied consent shows the reason on the account', async () => {
    const { url, popup } = await startBrowserLogin('Warehouse Brno');
    await popup.close();
    const second = await answerLoginPage(url, 'deny');
    await expect
      .poll(() => row('Warehouse Brno').getByTestId('account-last-error').textContent(), { timeout: 15_000 })
      .toContain('The last login failed: The user denied the request.');
    expect(await row('Warehouse Brno').getByTestId('login-waiting').count()).toBe(0);
    await second.close();
  });

  it('cancel stops a browser login that is waiting', async () => {
    const { popup } = await startBrowserLogin('Warehouse Brno');
    await popup.close();
    await row('Warehouse Brno').getByTestId('login-cancel').click();
    await expect.poll(() => row('Warehouse Brno').getByTestId('login-waiting').count()).toBe(0);
    expect(await row('Warehouse Brno').getAttribute('data-login')).toBe('logged-in');
  });

  it('a pasted refresh token logs in; a wrong one gets a clear error', async () => {
    await row('Warehouse Brno').getByTestId('account-logout').click();
    await expect.poll(() => row('Warehouse Brno').getAttribute('data-login')).toBe('logged-out');

    // Every screen says the active account needs a login, and the banner leads to its row.
    await openSettings('language');
    await page.getByTestId('nav-station').click();
    expect(await page.getByTestId('login-banner').textContent()).toContain('Warehouse Brno');
    await page.getByTestId('login-banner-action').click();
    expect(await page.getByTestId('settings-tab-accounts').getAttribute('aria-selected')).toBe('true');
    await row('Warehouse Brno').waitFor();

    await row('Warehouse Brno').getByTestId('account-paste-token').click();
    await row('Warehouse Brno').getByTestId('account-token-input').fill('this-is-not-a-token');
    await row('Warehouse Brno').getByTestId('account-token-submit').click();
    await expect
      .poll(() => row('Warehouse Brno').getByTestId('account-error').textContent())
      .toBe('The service does not accept this refresh token. Check that it belongs to this client and environment.');
    expect(await row('Warehouse Brno').getAttribute('data-login')).toBe('logged-out');

    const { refresh_token } = await postJson<{ refresh_token: string }>(`${hs.station.sandbox.url}/_sandbox/tokens`, {
      clientId,
      username: hs.station.sandbox.demo.username,
      scope: SCOPE,
    });
    await row('Warehouse Brno').getByTestId('account-token-input').fill(refresh_token);
    await row('Warehouse Brno').getByTestId('account-token-submit').click();
    await expect.poll(() => row('Warehouse Brno').getAttribute('data-login')).toBe('logged-in');
    expect(await row('Warehouse Brno').getByTestId('account-error').count()).toBe(0);
  });

  it('removing an account asks first', async () => {
    const before = (await rpc.call('accounts.list', {})).length;
    const added = await rpc.call('accounts.add', {
      name: 'Old branch',
      environment: 'test',
      baseUrl: 'https://test.example.invalid',
      clientId: 'x',
      clientSecret: 'y',
    });
    await expect.poll(() => row('Old branch').count()).toBe(1);
    expect(await row('Old branch').textContent()).toContain('test environment · https://test.example.invalid');
    await row('Old branch').getByTestId('account-remove').click();
    expect(await row('Old branch').getByTestId('account-remove-confirm').textContent()).toContain(
      'Remove “Old branch” from this station?',
    );
    await row('Old branch').getByTestId('account-remove-yes').click();
    await expect.poll(() => row('Old branch').count()).toBe(0);
    expect((await rpc.call('accounts.list', {})).map((a) => a.id)).not.toContain(added.id);
    expect((await rpc.call('accounts.list', {})).length).toBe(before);
  });

  it('adds a TCP label printer and its test print reaches the listener as ZPL', async () => {
    const printer = await startTcpPrinter();
    try {
      await openSettings('printers');
      // Built-ins say why they cannot be removed.
      const builtIn = page.locator('[data-testid="printer-row"][data-printer-id="virtual-zpl"]');
      expect(await builtIn.getByTestId('printer-builtin-note').textContent()).toContain('cannot be removed');
      expect(await builtIn.getByTestId('printer-remove').count()).toBe(0);

      await page.locator('#pr-add-host').fill('bad host!');
      await page.getByTestId('printer-add-submit').click();
      expect(await page.getByTestId('pr-add-host-error').textContent()).toContain('Enter a host name or IP address');
      expect(await page.getByTestId('pr-add-name-error').textContent()).toBe('Enter a name.');

      await page.locator('#pr-add-name').fill('Desk printer');
      await page.locator('#pr-add-host').fill('127.0.0.1');
      await page.locator('#pr-add-port').fill(String(printer.port));
      await page.getByTestId('printer-add-submit').click();
      await expect
        .poll(() => page.getByTestId('printer-add-result').textContent(), { timeout: 10_000 })
        .toBe('Printer “Desk printer” added.');
      const desk = page.locator(`[data-testid="printer-row"][data-printer-id="tcp-127.0.0.1-${printer.port}"]`);
      await desk.waitFor();
      expect(await desk.textContent()).toContain(`ZPL label printer on the network, 127.0.0.1:${printer.port}`);

      await desk.getByTestId('printer-test-print').click();
      await expect
        .poll(() => desk.getByTestId('printer-test-result').textContent(), { timeout: 15_000 })
        .toContain('printed');
      await expect.poll(() => printer.received()).toMatch(/\^XA[\s\S]*Desk printer[\s\S]*\^XZ/);

      // Per-printer settings: a bad value is explained and not saved; a good one is kept.
      await desk.getByTestId('printer-edit').click();
      await desk.getByTestId('printer-set-darkness').fill('45');
      await desk.getByTestId('printer-settings-save').click();
      expect(await desk.getByTestId(`pr-tcp-127_0_0_1-${printer.port}-darkness-error`).textContent()).toBe(
        'A whole number from -30 to 30.',
      );
      await desk.getByTestId('printer-set-darkness').fill('12');
      await desk.getByTestId('printer-set-copies').fill('2');
      await desk.getByTestId('printer-settings-save').click();
      await expect.poll(() => desk.getByTestId('printer-settings-result').textContent()).toBe('Saved.');
      const saved = (await rpc.call('printing.printers.list', {})).find(
        (p) => p.id === `tcp-127.0.0.1-${printer.port}`,
      )!;
      expect(saved.settings).toMatchObject({ darkness: 12, copies: 2 });
      await page.screenshot({ path: path.join(shots, 'settings-printers-edit-en.png'), fullPage: true });

      // A user-added printer can be removed, after a confirmation.
      await desk.getByTestId('printer-remove').click();
      await desk.getByTestId('printer-remove-yes').click();
      await expect.poll(() => desk.count()).toBe(0);
    } finally {
      await printer.close();
    }
  });

  it.skipIf(!needs('cups'))('finds the CUPS printers, adds one and its test print reaches CUPS', async () => {
    const printed = () => (existsSync('/root/PDF') ? readdirSync('/root/PDF') : []);
    const before = new Set(printed());
    await openSettings('printers');
    await page.getByTestId('printer-discover-run').click();
    const pdfQueue = page.locator('[data-testid="printer-found"][data-printer-id="pdf-system-PDF"]');
    await pdfQueue.waitFor();
    expect(await pdfQueue.textContent()).toContain('PDF through the system printer PDF');
    await page.screenshot({ path: path.join(shots, 'settings-printers-discovered-en.png') });
    await pdfQueue.getByTestId('printer-found-add').click();
    const row = page.locator('[data-testid="printer-row"][data-printer-id="pdf-system-PDF"]');
    await row.waitFor();
    // Once added, discovery marks it instead of offering it again.
    expect(await pdfQueue.getByTestId('printer-found-add').count()).toBe(0);

    await row.getByTestId('printer-test-print').click();
    await expect
      .poll(() => row.getByTestId('printer-test-result').textContent(), { timeout: 20_000 })
      .toMatch(/sent|printed|handed to the print system/);
    if (process.getuid?.() === 0) {
      // cups-pdf writes root's jobs to /root/PDF: the test label really went through CUPS.
      await expect.poll(() => printed().filter((f) => !before.has(f)).length, { timeout: 20_000 }).toBeGreaterThan(0);
    }
    // PDF printers get the PDF settings (paper, fit to page), not the ZPL ones.
    await row.getByTestId('printer-edit').click();
    expect(await row.getByTestId('printer-set-darkness').count()).toBe(0);
    expect(await row.getByLabel('Paper for PDF (CUPS media)').count()).toBe(1);
    await row.getByTestId('printer-remove').click();
    await row.getByTestId('printer-remove-yes').click();
    await expect.poll(() => row.count()).toBe(0);
  });

  it('a routing change is kept after a reload', async () => {
    await openSettings('routing');
    const ccr = page.getByTestId('route-CCR');
    // CityCourier has PDF labels only: ZPL cannot be picked for it.
    expect(await ccr.locator('option[value="zpl"]').isDisabled()).toBe(true);
    await page.getByTestId('route-CCR-format').selectOption('pdf-a4');
    expect(await page.getByTestId('route-CCR-printer').inputValue()).toBe('virtual-pdf');
    await ccr.getByLabel('CityCourier: Size / position').selectOption('3');
    await page.getByTestId('route-protocol-printer').selectOption('');
    await page.getByTestId('routing-save').click();
    await expect.poll(() => page.getByTestId('routing-result').textContent()).toBe('Saved.');

    await page.reload();
    await openSettings('routing');
    await expect.poll(() => page.getByTestId('route-CCR-format').inputValue()).toBe('pdf-a4');
    expect(await page.getByTestId('route-CCR-printer').inputValue()).toBe('virtual-pdf');
    expect(await page.getByTestId('route-protocol-printer').inputValue()).toBe('');
    expect(await page.getByTestId('route-NP-format').inputValue()).toBe('inherit');
    const rules = await rpc.call('printing.routes.get', {});
    expect(rules.carriers.CCR).toEqual({ format: 'pdf-a4', printerId: 'virtual-pdf', position: 3 });
    expect(rules.protocolPrinterId).toBeNull();
  });

  it('scanner affixes and sounds are saved, and the try-out field shows what is read', async () => {
    await openSettings('scanner');
    await page.getByTestId('scanner-prefix').fill('#');
    await page.getByTestId('scanner-suffix').fill('/E');
    await page.getByTestId('scanner-try').fill('#DR1001234567/E');
    expect(await page.getByTestId('scanner-read').textContent()).toBe('The station reads: DR1001234567');
    await page.getByTestId('scanner-try').fill(']C1#DR1001234567/E');
    expect(await page.getByTestId('scanner-read').textContent()).toBe('The station reads: DR1001234567');
    await page.getByTestId('scanner-save').click();
    await expect.poll(() => page.getByTestId('scanner-result').textContent()).toBe('Saved.');
    await page.getByTestId('sounds-on').uncheck();
    await expect.poll(async () => (await rpc.call('settings.get', {})).sounds).toBe(false);
    expect(await page.getByTestId('sounds-test').isDisabled()).toBe(true);
    await page.getByTestId('sounds-on').check();
    await expect.poll(async () => (await rpc.call('settings.get', {})).sounds).toBe(true);
    const s = await rpc.call('settings.get', {});
    expect(s.scanner).toEqual({ prefix: '#', suffix: '/E', keyGapMs: 35 });
    await page.getByTestId('sounds-test').click();
  });

  it('the language choice is kept after a reload, and "follow the system" goes back to it', async () => {
    await openSettings('language');
    await page.getByTestId('language-cs').check();
    await expect.poll(() => page.getByTestId('nav-settings').textContent()).toContain('Nastavení');
    await page.reload();
    await expect.poll(() => page.getByTestId('nav-settings').textContent()).toContain('Nastavení');
    await openSettings('language');
    expect(await page.getByTestId('language-cs').isChecked()).toBe(true);
    expect((await rpc.call('settings.get', {})).language).toBe('cs');

    await page.getByTestId('language-system').check();
    await expect.poll(() => page.getByTestId('nav-settings').textContent()).toContain('Settings');
    expect((await rpc.call('settings.get', {})).language).toBeNull();
  });

  it('screenshots of every section in English and Czech', async () => {
    for (const lang of ['en', 'cs'] as const) {
      await rpc.call('settings.set', { language: lang });
      await expect
        .poll(() => page.getByTestId('nav-settings').textContent())
        .toContain(lang === 'cs' ? 'Nastavení' : 'Settings');
      for (const tab of ['accounts', 'printers', 'routing', 'scanner', 'language'] as const) {
        await openSettings(tab);
        await page.getByTestId(`settings-${tab}`).waitFor();
        await page.screenshot({ path: path.join(shots, `settings-${tab}-${lang}.png`) });
      }
    }
    // The Czech screen really is Czech (and the catalogues are whole, or the build would fail).
    await rpc.call('settings.set', { language: 'cs' });
    await openSettings('accounts');
    await expect.poll(() => page.getByTestId('settings-tab-scanner').textContent()).toBe('Skener a zvuky');
    expect(await page.getByRole('heading', { level: 2 }).textContent()).toBe('Firmy a přihlášení');
    await rpc.call('settings.set', { language: null });
    for (const p of popups) await p.close().catch(() => undefined);
  });
});
