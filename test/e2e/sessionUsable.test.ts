/**
 * What the desk says when the active company cannot be used, in Chromium through the web host at
 * 1366x768, in English and Czech: logged out while the service answers, the headline says a login
 * is needed (not "service unreachable"), a scan's outcome and the line of waiting scans say it
 * waits for a login (not "check the internet connection"); the demo company logs in again with no
 * password and the waiting scan prints; the demo banner goes while another company is active.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { connectRpc, type RpcSocket } from '../support/rpcSocket';
import { cs } from '../../renderer/src/i18n/cs';
import { en } from '../../renderer/src/i18n/en';
import { needs } from '../support/services';
import { repoRoot, startHostedStation, type HostedStation } from '../support/station';

const shots = path.join(repoRoot, 'test-results', 'screens-1366');
mkdirSync(shots, { recursive: true });

type Lang = 'en' | 'cs';
const locales: Record<Lang, string> = { en: 'en-US', cs: 'cs-CZ' };
const texts = { en, cs } as const;

describe.skipIf(!needs('chromium'))('the desk while a login is needed', { timeout: 240_000 }, () => {
  let hs: HostedStation;
  let browser: Browser;
  let rpc: RpcSocket;
  let demoId: string;
  const pages: Partial<Record<Lang, Page>> = {};
  const page = (lang: Lang) => pages[lang]!;
  const shot = (p: Page, name: string) => p.screenshot({ path: path.join(shots, `${name}.png`) });

  beforeAll(async () => {
    hs = await startHostedStation({ printWaitMs: 5000 });
    browser = await launchChromium();
    rpc = await connectRpc(hs.host);
    demoId = (await rpc.call('accounts.list', {})).find((a) => a.demo)!.id;
    for (const lang of ['en', 'cs'] as const) {
      const p = await browser.newPage({ locale: locales[lang], viewport: { width: 1366, height: 768 } });
      p.setDefaultTimeout(20_000);
      await p.goto(hs.host.url);
      await p.getByTestId('screen-station').waitFor();
      pages[lang] = p;
    }
  });
  afterAll(async () => {
    rpc?.close();
    await browser?.close();
    await hs?.close();
  });

  for (const [lang, code] of [
    ['en', 'ORD-1001'],
    ['cs', 'ORD-1003'],
  ] as const) {
    it(`${lang}: logged out, the headline and the scan say a login is needed; the demo logs in with no password and the scan prints`, async () => {
      const p = page(lang);
      const m = texts[lang];
      await p.keyboard.press('F1');
      await rpc.call('accounts.logout', { accountId: demoId });
      const pill = p.getByTestId('service-pill');
      await expect.poll(() => pill.textContent()).toBe(m['service.loginNeeded']);
      expect(await pill.textContent()).not.toBe(m['service.unreachable']);

      await p.keyboard.type(code);
      await p.keyboard.press('Enter');
      const outcome = p.locator('[data-testid="scan-outcome"][data-kind="service_unreachable"]');
      await outcome.waitFor();
      await expect
        .poll(() => outcome.locator('.outcome-title').textContent())
        .toContain(m['station.kind.loginWaiting']);
      const said = (await outcome.textContent()) ?? '';
      expect(said).toContain(m['station.note.loginWaiting']);
      expect(said).not.toContain(m['error.service_network']);
      expect(said).not.toContain(m['station.note.unreachable']);
      const line = p.getByTestId('pending-scans').locator('li', { hasText: code });
      await expect.poll(() => line.textContent()).toContain(m['station.pending.waitingLogin']);
      await shot(p, `session-login-needed-${lang}`);
      await p.keyboard.press('F9');
      const service = p.getByTestId('service');
      await expect.poll(() => service.textContent()).toContain(m['status.loginNeeded']);
      await shot(p, `session-status-${lang}`);

      // The demo company's password is made anew at every launch: its login asks for none.
      const printedBefore = hs.station.printing.virtual.zpl.printed().length;
      const printed = rpc.waitFor('scan.outcome', (o) => o.code === code && o.kind === 'printed', 60_000);
      await p.keyboard.press('F8');
      await p.getByTestId('settings-tab-accounts').click();
      const row = p.locator(`[data-testid="account-row"][data-account-id="${demoId}"]`);
      const login = row.getByTestId('account-login');
      expect(await login.textContent()).toBe(m['accounts.loginDemo']);
      await shot(p, `session-demo-login-${lang}`);
      await login.click();
      await p.locator(`[data-testid="account-row"][data-account-id="${demoId}"][data-login="logged-in"]`).waitFor();
      await printed;
      expect(hs.station.printing.virtual.zpl.printed().length).toBeGreaterThan(printedBefore);
      await expect.poll(() => pill.textContent()).toBe(m['service.reachable']);
      expect(await p.getByTestId('login-banner').count()).toBe(0);
    });
  }

  it('a waiting scan says what it waits for now: a login, the service while it does not answer, then a login again', async () => {
    const sandbox = (method: string, what: string, body?: unknown) =>
      fetch(`${hs.station.sandbox.url}/_sandbox/${what}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const code = 'ORD-1005';
    await rpc.call('accounts.logout', { accountId: demoId });
    for (const lang of ['en', 'cs'] as const) await page(lang).keyboard.press('F1');
    const waiting = rpc.waitFor('scan.outcome', (o) => o.code === code, 30_000);
    await rpc.call('scan.submit', { code });
    await waiting;
    const state = (lang: Lang) =>
      page(lang).getByTestId('pending-scans').locator('li', { hasText: code }).locator('.muted').textContent();
    const pill = (lang: Lang) => page(lang).getByTestId('service-pill').textContent();
    for (const lang of ['en', 'cs'] as const) {
      await expect.poll(() => state(lang)).toBe(texts[lang]['station.pending.waitingLogin']);
      await expect.poll(() => pill(lang)).toBe(texts[lang]['service.loginNeeded']);
    }
    // The service stops answering: the scan waits for the service now, as the headline says.
    expect((await sandbox('POST', 'faults', { path: '/api/', reset: true })).ok).toBe(true);
    try {
      for (const lang of ['en', 'cs'] as const) {
        await expect.poll(() => pill(lang), { timeout: 30_000 }).toBe(texts[lang]['service.unreachable']);
        await expect.poll(() => state(lang)).toBe(texts[lang]['station.pending.waiting']);
        await shot(page(lang), `session-unreachable-${lang}`);
      }
    } finally {
      await sandbox('DELETE', 'faults');
    }
    for (const lang of ['en', 'cs'] as const) {
      await expect.poll(() => pill(lang), { timeout: 30_000 }).toBe(texts[lang]['service.loginNeeded']);
      await expect.poll(() => state(lang)).toBe(texts[lang]['station.pending.waitingLogin']);
    }
    const printed = rpc.waitFor('scan.outcome', (o) => o.code === code && o.kind === 'printed', 60_000);
    await rpc.call('accounts.loginDemo', { accountId: demoId });
    await printed;
  });

  it('the demo banner goes while another company is active, in both languages, and comes back with the demo', async () => {
    // A company of its own on a sandbox (npm run sandbox): real work, not the demo.
    const other = await rpc.call('accounts.add', {
      name: 'Pobočka Žižkov',
      environment: 'sandbox',
      baseUrl: hs.station.sandbox.url,
      clientId: 'zizkov-client',
      clientSecret: 'tajné-heslo',
    });
    for (const lang of ['en', 'cs'] as const) {
      await page(lang).keyboard.press('F1');
      await page(lang).getByTestId('demo-banner').waitFor();
    }
    await rpc.call('accounts.setActive', { accountId: other.id });
    for (const lang of ['en', 'cs'] as const) {
      const p = page(lang);
      await p.getByTestId('demo-banner').waitFor({ state: 'detached' });
      await p.getByTestId('login-banner').waitFor();
      expect(await p.textContent('body')).not.toContain(texts[lang]['banner.demo']);
      await shot(p, `session-other-company-${lang}`);
    }
    await rpc.call('accounts.setActive', { accountId: demoId });
    for (const lang of ['en', 'cs'] as const) await page(lang).getByTestId('demo-banner').waitFor();
  });
});
