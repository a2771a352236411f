/**
 * The sandbox the station embeds (issue items 1 and 8): its test controls (/_sandbox/: mint
 * tokens, inject faults, reset) answer only the station process, which holds a per-launch secret,
 * and its database opens through the binding the station names.
 */
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../electron/auth/keychain';
import { createStation, type Station } from '../../../electron/station';
import { openSqlite } from '../../../electron/store/sqlite';
import { startSandbox } from '../../../sandbox/index';
import { memoryLogger } from '../../support/memoryLogger';

const require = createRequire(import.meta.url);
const nodeBinding = path.join(
  path.dirname(require.resolve('better-sqlite3/package.json')),
  'build',
  'Release',
  'better_sqlite3.node',
);

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe("the station's embedded sandbox gates its test controls by a per-launch secret", () => {
  let station: Station;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'embedded-sandbox-'));
    station = await createStation({
      dataDir,
      host: 'web',
      version: '0.0.0-test',
      log: memoryLogger(),
      secrets: createMemorySecretStore(),
    });
  });
  afterAll(() => station?.close());

  it('refuses a caller without the secret: no tokens, no faults, no reset, no clock', async () => {
    const sb = station.sandbox;
    const demo = { clientId: sb.demo.clientId, username: sb.demo.username, scope: sb.demo.scope };
    const tries = [
      await post(`${sb.url}/_sandbox/tokens`, demo),
      await post(`${sb.url}/_sandbox/faults`, { path: '/api/v1/deliveries/', status: 503 }),
      await post(`${sb.url}/_sandbox/reset`, { seed: 'none' }),
      await post(`${sb.url}/_sandbox/clock/advance`, { seconds: 3600 }),
      await fetch(`${sb.url}/_sandbox/faults`, { method: 'DELETE' }),
      await post(`${sb.url}/_sandbox/tokens`, demo, { 'x-sandbox-admin-secret': 'a-guess-that-is-long-enough' }),
    ];
    expect(tries.map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 403]);
    expect(await tries[0]!.text()).not.toContain('refresh_token');
    // Nothing was reset: the demo data is still there.
    const accounts = await station.rpc.dispatch('accounts.list', {});
    expect(accounts).toMatchObject({ ok: true });
  });

  it('the station itself got the demo login with its secret', async () => {
    const list = (await station.rpc.dispatch('accounts.list', {})) as {
      ok: true;
      value: { demo: boolean; login: { state: string } }[];
    };
    expect(list.value).toHaveLength(1);
    expect(list.value[0]).toMatchObject({ demo: true, login: { state: 'logged-in' } });
    // ... and the secret works for whoever holds it (only this process).
    const res = await post(
      `${station.sandbox.url}/_sandbox/tokens`,
      {
        clientId: station.sandbox.demo.clientId,
        username: station.sandbox.demo.username,
        scope: station.sandbox.demo.scope,
      },
      {
        'x-sandbox-admin-secret': station.sandbox.adminSecret!,
      },
    );
    expect(res.status).toBe(200);
  });

  it('registers no client for a caller without the secret: /register answers 403 to GET and POST', async () => {
    const sb = station.sandbox;
    const form = new URLSearchParams({
      companyName: 'Intruder s.r.o.',
      logoUrl: '',
      webUrl: '',
      redirectUri: 'http://127.0.0.1:9000/cb',
      clientSecret: 'intruder-secret-1',
    });
    const formPost = (headers: Record<string, string> = {}) =>
      fetch(`${sb.url}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: form.toString(),
      });

    const page = await fetch(`${sb.url}/register`);
    expect(page.status).toBe(403);
    expect(await page.text()).not.toContain('<form');
    const posted = await formPost();
    expect(posted.status).toBe(403);
    expect(await posted.text()).not.toContain('client_id');
    const guessed = await formPost({ 'x-sandbox-admin-secret': 'a-guess-that-is-long-enough' });
    expect(guessed.status).toBe(403);
    // The station itself (the secret's holder) still can.
    const own = await formPost({ 'x-sandbox-admin-secret': sb.adminSecret! });
    expect(own.status).toBe(201);
    expect(await own.text()).toMatch(/id="client_id">[A-Za-z0-9_-]{16,}</);
  });

  it("its root page shows none of the demo secrets: neither this launch's nor the public ones", async () => {
    const sb = station.sandbox;
    const html = await (await fetch(`${sb.url}/`)).text();
    expect(html).toContain(sb.demo.clientId);
    expect(html).toContain(sb.demo.username);
    for (const secret of [sb.demo.clientSecret, sb.demo.password, 'demo-secret', 'demo-password', 'other-password'])
      expect(html).not.toContain(secret);
  });

  it('a sandbox started directly (npm run sandbox, tests) keeps open controls, open registration and shows the public demo credentials', async () => {
    const sb = await startSandbox();
    try {
      expect((await post(`${sb.url}/_sandbox/clock/advance`, { seconds: 1 })).status).toBe(200);
      expect((await fetch(`${sb.url}/register`)).status).toBe(200);
      const form = new URLSearchParams({
        companyName: 'Integrator a.s.',
        logoUrl: '',
        webUrl: '',
        redirectUri: 'http://127.0.0.1:9000/cb',
        clientSecret: 'integrator-1',
      });
      const res = await fetch(`${sb.url}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
      expect(res.status).toBe(201);
      const html = await (await fetch(`${sb.url}/`)).text();
      for (const value of ['demo-client', 'demo-secret', 'demo-password']) expect(html).toContain(value);
    } finally {
      await sb.close();
    }
  });
});

describe('every SQLite database opens through the binding it is given', () => {
  it('the sandbox database opens with a given binding path', async () => {
    const dataFile = path.join(mkdtempSync(path.join(tmpdir(), 'sandbox-binding-')), 'sandbox.db');
    const sb = await startSandbox({ dataFile, sqliteBinding: nodeBinding });
    try {
      expect((await fetch(`${sb.url}/`)).status).toBe(200);
    } finally {
      await sb.close();
    }
  });

  it('a wrong binding path fails with a clear error naming it', async () => {
    const wrong = '/nonexistent/electron/better_sqlite3.node';
    await expect(startSandbox({ sqliteBinding: wrong })).rejects.toThrow(
      /SQLite driver binding \/nonexistent\/electron\/better_sqlite3\.node does not exist/,
    );
    expect(() => openSqlite(':memory:', wrong)).toThrow(
      /SQLite driver binding \/nonexistent\/electron\/better_sqlite3\.node \(STATION_SQLITE_BINDING\) does not exist/,
    );
    // A file that is there but is not a loadable binding.
    expect(() => openSqlite(':memory:', __filename)).toThrow(/could not be loaded/);
  });

  it('a station started with a wrong STATION_SQLITE_BINDING fails at once with a clear error', async () => {
    const before = process.env.STATION_SQLITE_BINDING;
    process.env.STATION_SQLITE_BINDING = '/nonexistent/electron/better_sqlite3.node';
    try {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'station-binding-'));
      await expect(
        createStation({
          dataDir,
          host: 'web',
          version: '0.0.0-test',
          log: memoryLogger(),
          secrets: createMemorySecretStore(),
        }),
      ).rejects.toThrow(/SQLite driver binding .* does not exist/);
    } finally {
      if (before === undefined) delete process.env.STATION_SQLITE_BINDING;
      else process.env.STATION_SQLITE_BINDING = before;
    }
  });
});
