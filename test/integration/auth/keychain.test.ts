/**
 * Secrets in the real OS keychain (@napi-rs/keyring -> Secret Service -> gnome-keyring on a private
 * session bus), and never anywhere else: after a login, a manual-mode login and API calls, the station's
 * data folder (SQLite with its WAL, the log file) and the captured log lines hold none of them.
 * Run: scripts/with-keyring.sh npx vitest run test/integration/auth/keychain.test.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needs } from '../../support/services';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { createServiceClient } from '../../../electron/api/index';
import { createAccounts } from '../../../electron/auth/accounts';
import { createSystemSecretStore, KEYCHAIN_SERVICE, secretNames } from '../../../electron/auth/keychain';
import { systemClock } from '../../../electron/base/clock';
import { createLogger } from '../../../electron/base/log';
import { createAccountsRepo } from '../../../electron/store/accountsRepo';
import { openDatabase, type Db } from '../../../electron/store/database';
import { adminPost, captureLog } from '../api/support';
import { followLogin } from './httpBrowser';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe.skipIf(!needs('keychain'))('keychain (@napi-rs/keyring on the Secret Service)', () => {
  let sb: Sandbox;
  let dir: string;
  let db: Db;
  beforeAll(async () => {
    sb = await startSandbox();
    dir = mkdtempSync(path.join(os.tmpdir(), 'station-keychain-'));
    db = openDatabase(path.join(dir, 'station.db'));
  });
  afterAll(async () => {
    db?.close();
    rmSync(dir, { recursive: true, force: true });
    await sb?.close();
  });

  it('stores, reads and deletes under service "label-station"', async () => {
    const store = createSystemSecretStore();
    const name = secretNames.refreshToken('probe');
    await store.set(name, 'value-1');
    expect(await store.get(name)).toBe('value-1');
    // Another program reading the keychain finds it under the documented service and account.
    const { AsyncEntry } = await import('@napi-rs/keyring');
    expect(await new AsyncEntry(KEYCHAIN_SERVICE, 'probe:refresh-token').getPassword()).toBe('value-1');
    expect(await store.delete(name)).toBe(true);
    expect(await store.get(name)).toBeNull();
  });

  it('without a Secret Service it says the keychain is unavailable, never keeping secrets in the kernel keyring (lost at reboot)', async () => {
    // A process of its own: the binding keeps its D-Bus connection for the life of a process.
    const src = path.join(dir, 'noBus.ts');
    writeFileSync(
      src,
      `import { createSystemSecretStore } from ${JSON.stringify(path.resolve(__dirname, '../../../electron/auth/keychain'))};
const store = createSystemSecretStore();
const outcome = (p: Promise<unknown>) => p.then((v) => 'value ' + JSON.stringify(v), (e) => 'error ' + e.code + ': ' + e.message);
(async () => console.log(JSON.stringify({ get: await outcome(store.get('bez-služby:refresh-token')), set: await outcome(store.set('bez-služby:refresh-token', 'tajné')) })))();`,
    );
    // Inside node_modules, so the bundle finds the project's packages.
    const out = path.resolve(__dirname, '../../../node_modules/.cache', `keychain-no-bus-${process.pid}.cjs`);
    await build({
      entryPoints: [src],
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      packages: 'external',
      logLevel: 'silent',
    });
    // No session bus at all (no address, a runtime folder without a bus socket): a desk PC
    // without a desktop session, a service account, a kiosk login.
    const { DBUS_SESSION_BUS_ADDRESS: _bus, ...rest } = process.env;
    const env = { ...rest, XDG_RUNTIME_DIR: dir };
    let result: { get: string; set: string };
    try {
      result = JSON.parse(execFileSync(process.execPath, [out], { env, encoding: 'utf8' }).trim().split('\n').at(-1)!);
    } finally {
      rmSync(out, { force: true });
    }
    // The station probes with a read at start (station.ts): it must fail, not answer "nothing stored".
    expect(result.get).toMatch(/^error keychain_unavailable: .*DBus/);
    expect(result.set).toMatch(/^error keychain_unavailable: .*DBus/);
  });

  it('logs in, calls the service, and no secret reaches SQLite files or logs', async () => {
    const s = net.createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const port = (s.address() as { port: number }).port;
    await new Promise((r) => s.close(r));
    const clientSecret = `kc-secret-${Date.now()}-abcdef`;
    const { clientId } = await adminPost<{ clientId: string }>(sb, 'clients', {
      companyName: 'Keychain Test',
      redirectUri: `http://127.0.0.1:${port}/callback`,
      clientSecret,
    });

    const fileLog = createLogger({ dataDir: dir });
    const captured = captureLog();
    const log = {
      info: (m: string, f?: Record<string, unknown>) => (fileLog.info(m, f), captured.info(m, f)),
      warn: (m: string, f?: Record<string, unknown>) => (fileLog.warn(m, f), captured.warn(m, f)),
      error: (m: string, f?: Record<string, unknown>) => (fileLog.error(m, f), captured.error(m, f)),
    };
    const secrets = createSystemSecretStore();
    let browser: Promise<unknown> = Promise.resolve();
    const accounts = createAccounts({
      repo: createAccountsRepo(db),
      secrets,
      clock: systemClock,
      log,
      environments: { sandbox: () => sb.url, test: null, production: null },
      openBrowser: (url) => {
        browser = followLogin(url, { username: sb.demo.username, password: sb.demo.password });
      },
    });

    const acc = await accounts.add({
      name: 'Demo Shop',
      environment: 'sandbox',
      clientId,
      clientSecret,
      redirectPort: port,
    });
    expect(accounts.active()?.id).toBe(acc.id);
    expect(await accounts.loginState(acc.id)).toEqual({ state: 'logged-out' });
    expect(await accounts.loginWithBrowser(acc.id)).toEqual({ state: 'logged-in' });
    await browser;

    const refreshToken = await secrets.get(secretNames.refreshToken(acc.id));
    expect(refreshToken).toMatch(/^[a-z0-9]{40}$/);
    expect(await secrets.get(secretNames.clientSecret(acc.id))).toBe(clientSecret);

    const tokens = await accounts.tokens(acc.id);
    const client = createServiceClient({ baseUrl: accounts.baseUrlOf(acc), tokens, language: () => 'en', log });
    expect((await client.getCollectionPlaces()).length).toBeGreaterThan(0);
    const accessToken = await tokens.accessToken();

    // Manual mode: a refresh token obtained by hand, checked with one refresh.
    const second = await accounts.add({
      name: 'Other account',
      environment: 'sandbox',
      clientId: sb.demo.clientId,
      clientSecret: sb.demo.clientSecret,
    });
    const manual = await adminPost<{ refresh_token: string; access_token: string }>(sb, 'tokens', {
      clientId: sb.demo.clientId,
      username: sb.demo.username,
      scope: sb.demo.scope,
    });
    await expect(accounts.loginWithRefreshToken(second.id, 'y'.repeat(40))).rejects.toMatchObject({
      code: 'login_invalid_token',
    });
    expect(await accounts.loginWithRefreshToken(second.id, manual.refresh_token)).toEqual({ state: 'logged-in' });
    const secondAccess = await (await accounts.tokens(second.id)).accessToken();
    expect(accounts.active()?.id).toBe(acc.id);
    accounts.setActive(second.id);
    expect(accounts.active()?.id).toBe(second.id);

    const needles = [
      clientSecret,
      refreshToken!,
      accessToken,
      manual.refresh_token,
      secondAccess,
      sb.demo.clientSecret,
    ];
    db.pragma('wal_checkpoint(PASSIVE)');
    const files = filesUnder(dir);
    expect(files.some((f) => f.endsWith('station.db'))).toBe(true);
    expect(files.some((f) => f.endsWith('station.log'))).toBe(true);
    for (const f of files) {
      const bytes = readFileSync(f);
      for (const n of needles) expect(bytes.includes(n), `${n.slice(0, 6)}… found in ${path.basename(f)}`).toBe(false);
    }
    const logText = captured.lines.join('\n');
    expect(captured.lines.length).toBeGreaterThan(3);
    for (const n of needles) expect(logText.includes(n)).toBe(false);

    // Removing an account removes its secrets from the keychain.
    await accounts.remove(acc.id);
    expect(await secrets.get(secretNames.refreshToken(acc.id))).toBeNull();
    expect(await secrets.get(secretNames.clientSecret(acc.id))).toBeNull();
  });
});
