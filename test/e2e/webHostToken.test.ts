/**
 * Issue item 8: the web host's token must not reach other servers on 127.0.0.1. Browsers send a
 * cookie to every port of a host (RFC 6265 8.5), so the token once kept in a cookie went to any
 * other local server the same browser visited. Now the page keeps it in sessionStorage and shows
 * it only when it opens the station's socket.
 */
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { needs } from '../support/services';
import { repoRoot, startHostedStation, type HostedStation } from '../support/station';

describe.skipIf(!needs('chromium'))('the web host token stays with the station page', () => {
  let hs: HostedStation;
  let browser: Browser;
  let other: http.Server;
  let otherPort = 0;
  const seen: { url: string; headers: http.IncomingHttpHeaders }[] = [];

  beforeAll(async () => {
    if (!existsSync(path.join(repoRoot, 'dist', 'renderer', 'index.html'))) {
      throw new Error('dist/renderer is missing: run `npm run build` (npm test does it first).');
    }
    hs = await startHostedStation();
    browser = await launchChromium();
    // Another local program's web server, on another port of the same address.
    other = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>other</title><img src="/pixel.png">');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    otherPort = (other.address() as { port: number }).port;
  });
  afterAll(async () => {
    await browser?.close();
    await hs?.close();
    await new Promise((r) => other?.close(r));
  });

  it('a second local server visited in the same browser receives no station token', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(hs.host.url);
    // The page works (its socket presented the token) and the token left the address bar.
    await page.getByTestId('nav-status').click();
    await expect.poll(() => page.getByTestId('version').textContent()).toBe('0.0.0-test');
    expect(page.url()).toBe(`${hs.host.origin}/`);
    // A reload in the same tab still reaches the station (the token is kept for this tab).
    await page.reload();
    await page.getByTestId('nav-status').click();
    await expect.poll(() => page.getByTestId('version').textContent()).toBe('0.0.0-test');

    // The same browser visits another server on 127.0.0.1 (and on localhost), in this tab and another.
    await page.goto(`http://127.0.0.1:${otherPort}/`);
    const second = await context.newPage();
    await second.goto(`http://localhost:${otherPort}/welcome`);
    await expect.poll(() => seen.length).toBeGreaterThanOrEqual(3);

    const everything = JSON.stringify(seen);
    expect(everything).not.toContain(hs.host.token);
    for (const r of seen) expect(r.headers.cookie ?? '').not.toContain('station_token');
    // Nothing for 127.0.0.1 is in the browser's cookie jar at all.
    expect(await context.cookies(`http://127.0.0.1:${otherPort}/`)).toEqual([]);
    await context.close();
  });
});
