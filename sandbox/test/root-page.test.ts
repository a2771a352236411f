/**
 * The root page a developer starts from: credentials, OAuth links, client
 * registration, the magic values, the whole carrier catalogue and the test controls.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, needs } from '../../test/support/services';
import { catalogue } from '../domain/index';
import type { Sandbox } from '../index';
import { start } from './support';

let sb: Sandbox;
beforeAll(async () => {
  sb = await start();
});
afterAll(() => sb.close());

const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

async function rootPage(
  headers: Record<string, string> = {},
  of = sb,
): Promise<{ status: number; type: string | null; html: string; text: string }> {
  const res = await fetch(`${of.url}/`, { headers });
  const html = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    html,
    text: unescape(html.replace(/<[^>]+>/g, ' ')),
  };
}

describe('Root page', () => {
  it('Root page: names the demo credentials, the client registration and every carrier, delivery type, extra service, ZPL size and magic value of the catalogue', async () => {
    const p = await rootPage();
    expect(p.status).toBe(200);
    expect(p.type).toBe('text/html; charset=UTF-8');
    for (const v of [sb.demo.username, sb.demo.password, sb.demo.clientId, sb.demo.clientSecret, sb.demo.redirectUri])
      expect(p.text).toContain(v);
    expect(p.html).toContain('href="/register"');
    expect(p.text).toContain('/_sandbox/clients');
    for (const c of catalogue.carriers) {
      expect(p.text).toContain(c.code);
      expect(p.text).toContain(c.name);
      for (const size of c.zpl?.sizes ?? []) expect(p.text).toContain(size);
      for (const d of c.deliveryTypes) expect(p.text).toContain(d.code);
      for (const s of c.extraServices) {
        expect(p.text).toContain(s.code);
        for (const a of s.arguments)
          expect(p.text).toMatch(new RegExp(`${a.identifier}\\s*:\\s*${a.example.replace(/[.+]/g, '\\$&')}`));
      }
    }
    expect(p.text).toContain('phoneRequired');
    expect(p.text).toContain('dimensionsRequired');
    for (const v of catalogue.magicValues) {
      expect(p.text).toContain(v.field);
      expect(p.text).toContain(v.value);
      expect(p.text).toContain(v.effect.en);
    }
  });

  it('Root page: a ready-made authorize link for the demo client with a state leads to the login page', async () => {
    const p = await rootPage();
    const href = unescape(/<a id="authorize" href="([^"]+)"/.exec(p.html)![1]!);
    const url = new URL(href);
    expect(url.searchParams.get('client_id')).toBe(sb.demo.clientId);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('state')).toBeTruthy();
    const login = await fetch(href);
    expect(login.status).toBe(200);
    expect(await login.text()).toContain('name="password"');
  });

  it('Root page: the test controls with curl examples, and a note instead when they are off (--no-admin)', async () => {
    const p = await rootPage();
    for (const call of [
      '/_sandbox/clock/advance',
      '/_sandbox/tokens',
      '/_sandbox/permissions/withdraw',
      '/_sandbox/licence',
      '/_sandbox/reset',
      '/_sandbox/faults',
    ]) {
      expect(p.text).toContain(`curl -s -X POST -H 'content-type: application/json'`);
      expect(p.text).toContain(`${sb.url}${call}`);
    }
    const off = await start({ admin: false });
    try {
      const q = await rootPage({}, off);
      expect(q.text).not.toContain('curl -s -X POST');
      expect(q.text).toContain('--no-admin');
    } finally {
      await off.close();
    }
  });

  it('Common conventions 9: the root page is in Czech with accept-language: cs', async () => {
    const p = await rootPage({ 'accept-language': 'cs' });
    expect(p.html).toContain('<html lang="cs">');
    expect(p.text).toContain('Katalog dopravců');
    expect(p.text).toContain(catalogue.magicValues[0]!.effect.cs);
  });

  it.skipIf(!needs('chromium'))(
    'Root page: renders in Chromium (screenshot in test-results/sandbox/root.png) and its authorize link opens the login form',
    async () => {
      const browser = await chromium.launch({
        executablePath: chromiumPath()!,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      });
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        await page.goto(`${sb.url}/`);
        expect(await page.locator('#carriers').isVisible()).toBe(true);
        const dir = path.resolve(__dirname, '../../test-results/sandbox');
        mkdirSync(dir, { recursive: true });
        await page.screenshot({ path: path.join(dir, 'root.png'), fullPage: true });
        await page.click('#authorize');
        await page.waitForSelector('input[name="password"]');
        expect(page.url()).toContain('/connect/authorize');
      } finally {
        await browser.close();
      }
    },
  );
});
