/**
 * The OAuth loopback login end to end (RFC 8252, spec "Authentication" Flow): the station's
 * listener on 127.0.0.1, the sandbox's real login and consent pages followed over HTTP, the code
 * exchanged once through a counting proxy.
 */
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { createServiceClient } from '../../../electron/api/index';
import { createMemorySecretStore } from '../../../electron/auth/keychain';
import { loginWithBrowser } from '../../../electron/auth/loopbackLogin';
import { createTokenManager } from '../../../electron/auth/tokenManager';
import { systemClock } from '../../../electron/base/clock';
import { StationError } from '../../../electron/base/stationError';
import { startProxy, type Proxy } from '../api/proxy';
import { adminPost, captureLog } from '../api/support';
import { followLogin, type BrowserVisit } from './httpBrowser';
import { freePort } from '../../support/freePort';

let sb: Sandbox;
let proxy: Proxy;
const secret = 'loopback-test-secret-123';

/** A client registered with its own loopback redirect, so tests do not share port 53682. */
async function registerClient(path = '/callback') {
  const port = await freePort();
  const { clientId } = await adminPost<{ clientId: string }>(sb, 'clients', {
    companyName: 'Loopback Test',
    redirectUri: `http://127.0.0.1:${port}${path}`,
    clientSecret: secret,
  });
  return { clientId, port, path };
}

beforeAll(async () => {
  sb = await startSandbox();
  proxy = await startProxy(sb.url);
});
afterAll(async () => {
  await proxy?.close();
  await sb?.close();
});

const scopes = ['deliveries', 'collection-places'];

describe('login through the system browser with a loopback redirect', () => {
  it('follows the login and consent pages, exchanges the code once, and the tokens work', async () => {
    const c = await registerClient();
    let visit: BrowserVisit | null = null;
    let browser: Promise<unknown> = Promise.resolve();
    let opened = '';
    const tokenRequestsBefore = proxy.count('POST', '/connect/token/');
    const grant = await loginWithBrowser({
      baseUrl: proxy.url,
      clientId: c.clientId,
      clientSecret: secret,
      scopes,
      redirectPort: c.port,
      log: captureLog(),
      openBrowser: (url) => {
        opened = url;
        browser = followLogin(url, { username: sb.demo.username, password: sb.demo.password }).then((v) => (visit = v));
      },
    });
    const u = new URL(opened);
    expect(u.pathname).toBe('/connect/authorize/');
    expect(u.searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:${c.port}/callback`);
    expect(u.searchParams.get('code_challenge_method')).toBe('S256');
    expect(u.searchParams.get('state')!.length).toBeGreaterThanOrEqual(32);
    expect(grant.refreshToken).toMatch(/^[a-z0-9]{40}$/);
    expect(proxy.count('POST', '/connect/token/') - tokenRequestsBefore).toBe(1);
    // The browser ends on the station's friendly page.
    await browser;
    expect(visit!.finalStatus).toBe(200);
    expect(visit!.finalHtml).toContain('You are logged in');

    // The tokens reach the service.
    const secrets = createMemorySecretStore();
    await secrets.set('acc:client-secret', secret);
    const log = captureLog();
    const tm = createTokenManager({
      accountId: 'acc',
      baseUrl: sb.url,
      clientId: c.clientId,
      redirectUri: `http://127.0.0.1:${c.port}/callback`,
      scopes,
      secrets,
      clock: systemClock,
      log,
    });
    await tm.adoptGrant(grant);
    const client = createServiceClient({ baseUrl: sb.url, tokens: tm, language: () => 'en', log });
    expect((await client.getCollectionPlaces()).length).toBeGreaterThan(0);

    // The listener accepted one callback and closed.
    const again = await fetch(`http://127.0.0.1:${c.port}/callback?code=x&state=y`).catch((e) => e);
    expect(again).toBeInstanceOf(Error);
  });

  it('a denial shows the service description in the browser and fails with login_access_denied', async () => {
    const c = await registerClient();
    let visit: BrowserVisit | null = null;
    let browser: Promise<unknown> = Promise.resolve();
    const err = await loginWithBrowser({
      baseUrl: sb.url,
      clientId: c.clientId,
      clientSecret: secret,
      scopes,
      redirectPort: c.port,
      log: captureLog(),
      openBrowser: (url) => {
        browser = followLogin(url, { username: sb.demo.username, password: sb.demo.password, decision: 'deny' }).then(
          (v) => (visit = v),
        );
      },
    }).catch((e) => e);
    expect(err).toBeInstanceOf(StationError);
    expect(err.code).toBe('login_access_denied');
    await browser;
    expect(visit!.finalHtml).toContain('Permission not granted');
    // The description the service put in error_description is shown.
    expect(err.message.length).toBeGreaterThan(0);
    expect(visit!.finalHtml).toContain(
      err.message.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;'),
    );
  });

  it('a stray request with another state is answered and ignored; the real callback still logs in', async () => {
    const c = await registerClient();
    const before = proxy.count('POST', '/connect/token/');
    const pages: { status: number; html: string }[] = [];
    let visit: BrowserVisit | null = null;
    let browser: Promise<unknown> = Promise.resolve();
    const grant = await loginWithBrowser({
      baseUrl: proxy.url,
      clientId: c.clientId,
      clientSecret: secret,
      scopes,
      redirectPort: c.port,
      log: captureLog(),
      openBrowser: (url) => {
        browser = followLogin(url, {
          username: sb.demo.username,
          password: sb.demo.password,
          beforeCallback: async (cb) => {
            // Any local program or web page can reach the port: a forged state, a missing state,
            // and an error with a forged state must all leave the login waiting.
            const forged = new URL(cb);
            forged.searchParams.set('state', 'forged-state');
            const noState = new URL(cb);
            noState.searchParams.delete('state');
            const forgedDenial = new URL(`http://127.0.0.1:${c.port}/callback?error=access_denied&state=forged`);
            for (const u of [forged, noState, forgedDenial]) {
              const res = await fetch(u);
              pages.push({ status: res.status, html: await res.text() });
            }
            return cb; // the real answer arrives after the stray ones
          },
        }).then((v) => (visit = v));
      },
    });
    await browser;
    expect(pages.map((p) => p.status)).toEqual([400, 400, 400]);
    for (const p of pages) expect(p.html).toContain('This request was ignored');
    expect(grant.refreshToken).toMatch(/^[a-z0-9]{40}$/);
    expect(visit!.finalHtml).toContain('You are logged in');
    // Only the real code was exchanged, once.
    expect(proxy.count('POST', '/connect/token/') - before).toBe(1);
  });

  it('a code that expired before the exchange fails once and is never retried', async () => {
    const c = await registerClient();
    const before = proxy.count('POST', '/connect/token/');
    const err = await loginWithBrowser({
      baseUrl: proxy.url,
      clientId: c.clientId,
      clientSecret: secret,
      scopes,
      redirectPort: c.port,
      log: captureLog(),
      openBrowser: async (url) => {
        await followLogin(url, {
          username: sb.demo.username,
          password: sb.demo.password,
          beforeCallback: async () => {
            await adminPost(sb, 'clock/advance', { seconds: 120 }); // codes live 90 s (spec Flow 3)
          },
        });
      },
    }).catch((e) => e);
    expect(err).toBeInstanceOf(StationError);
    expect(err.code).toBe('login_exchange_failed');
    expect(proxy.count('POST', '/connect/token/') - before).toBe(1);
  });

  it('fails before any browser opens when the port is taken', async () => {
    const blocker = http.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    let opened = false;
    try {
      const err = await loginWithBrowser({
        baseUrl: sb.url,
        clientId: 'x',
        clientSecret: 'y',
        scopes,
        redirectPort: port,
        log: captureLog(),
        openBrowser: () => {
          opened = true;
        },
      }).catch((e) => e);
      expect(err.code).toBe('login_port_unavailable');
      expect(err.message).toContain(String(port));
      expect(opened).toBe(false);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it('listens on 127.0.0.1 only, can be cancelled, and frees the port', async () => {
    const port = await freePort();
    const ac = new AbortController();
    const pending = loginWithBrowser({
      baseUrl: sb.url,
      clientId: 'x',
      clientSecret: 'y',
      scopes,
      redirectPort: port,
      log: captureLog(),
      signal: ac.signal,
      openBrowser: () => undefined,
    }).catch((e) => e);
    await new Promise((r) => setTimeout(r, 50));
    // Reachable on loopback (a wrong path gets 404 and does not end the login) ...
    expect((await fetch(`http://127.0.0.1:${port}/favicon.ico`)).status).toBe(404);
    // ... and not on any other interface of this machine.
    const other = Object.values(os.networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    if (other) expect(await fetch(`http://${other.address}:${port}/callback`).catch((e) => e)).toBeInstanceOf(Error);
    ac.abort();
    const err = await pending;
    expect(err.code).toBe('login_cancelled');
    const reuse = net.createServer();
    await new Promise<void>((r, j) => reuse.once('error', j).listen(port, '127.0.0.1', r));
    await new Promise((r) => reuse.close(r));
  });

  it('gives up after its time limit', async () => {
    const port = await freePort();
    const err = await loginWithBrowser({
      baseUrl: sb.url,
      clientId: 'x',
      clientSecret: 'y',
      scopes,
      redirectPort: port,
      log: captureLog(),
      timeoutMs: 100,
      openBrowser: () => undefined,
    }).catch((e) => e);
    expect(err.code).toBe('login_timeout');
  });
});
