import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccounts, DEFAULT_SCOPES, type EnvironmentUrls } from '../../../electron/auth/accounts';
import { createMemorySecretStore, secretNames } from '../../../electron/auth/keychain';
import { systemClock } from '../../../electron/base/clock';
import { createAccountsRepo } from '../../../electron/store/accountsRepo';
import { openDatabase, type Db } from '../../../electron/store/database';
import { captureLog } from '../../integration/api/captureLog';

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'accounts-'));
  db = openDatabase(path.join(dir, 'station.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function make(
  environments: EnvironmentUrls = {
    sandbox: () => 'http://127.0.0.1:4444',
    test: 'https://test.example',
    production: null,
  },
) {
  const secrets = createMemorySecretStore();
  const accounts = createAccounts({
    repo: createAccountsRepo(db),
    secrets,
    clock: systemClock,
    log: captureLog(),
    environments,
    openBrowser: () => undefined,
  });
  return { accounts, secrets };
}

describe('accounts (several companies per station, one active)', () => {
  it('adds accounts with defaults, makes the first one active, keeps the secret in the keychain seam only', async () => {
    const { accounts, secrets } = make();
    const a = await accounts.add({ name: ' Shop A ', environment: 'test', clientId: 'c-a', clientSecret: 's-a' });
    const b = await accounts.add({
      name: 'Shop B',
      environment: 'sandbox',
      clientId: 'c-b',
      clientSecret: 's-b',
      redirectPort: 50000,
    });
    expect(a).toMatchObject({
      name: 'Shop A',
      redirectPort: 53682,
      redirectPath: '/callback',
      scopes: [...DEFAULT_SCOPES],
      active: true,
      baseUrl: null,
    });
    expect(b.active).toBe(false);
    expect(accounts.baseUrlOf(a)).toBe('https://test.example');
    expect(accounts.baseUrlOf(b)).toBe('http://127.0.0.1:4444');
    expect(await secrets.get(secretNames.clientSecret(a.id))).toBe('s-a');
    expect(JSON.stringify(accounts.list())).not.toContain('s-a');
    expect(accounts.setActive(b.id).active).toBe(true);
    expect(accounts.active()?.id).toBe(b.id);
  });

  it('a sandbox run on its own is a sandbox account at its own address; without one, the built-in sandbox', async () => {
    const { accounts } = make();
    const own = await accounts.add({
      name: 'Sklad Ústí',
      environment: 'sandbox',
      baseUrl: 'http://127.0.0.1:8080/',
      clientId: 'c',
      clientSecret: 's',
    });
    const builtIn = await accounts.add({ name: 'Demo', environment: 'sandbox', clientId: 'c', clientSecret: 's' });
    expect(accounts.baseUrlOf(own)).toBe('http://127.0.0.1:8080');
    expect(accounts.baseUrlOf(builtIn)).toBe('http://127.0.0.1:4444');
  });

  it('refuses bad input with clear errors', async () => {
    const { accounts } = make({ sandbox: () => null, test: null, production: null });
    await expect(
      accounts.add({ name: '', environment: 'test', clientId: 'c', clientSecret: 's' }),
    ).rejects.toMatchObject({ code: 'account_invalid' });
    await expect(
      accounts.add({ name: 'X', environment: 'test', clientId: 'c', clientSecret: '' }),
    ).rejects.toMatchObject({ code: 'account_invalid' });
    await expect(
      accounts.add({ name: 'X', environment: 'production', clientId: 'c', clientSecret: 's' }),
    ).rejects.toMatchObject({ code: 'account_invalid', message: expect.stringMatching(/address/) });
    await expect(
      accounts.add({ name: 'X', environment: 'production', baseUrl: 'not a url', clientId: 'c', clientSecret: 's' }),
    ).rejects.toMatchObject({ code: 'account_invalid' });
    await expect(
      accounts.add({
        name: 'X',
        environment: 'test',
        baseUrl: 'https://t.example',
        clientId: 'c',
        clientSecret: 's',
        redirectPort: 0,
      }),
    ).rejects.toMatchObject({ code: 'account_invalid' });
    expect(() => accounts.setActive('missing')).toThrow(/no such account/);
    const sb = await accounts.add({ name: 'Sandbox', environment: 'sandbox', clientId: 'c', clientSecret: 's' });
    expect(() => accounts.baseUrlOf(sb)).toThrow(/not set/);
  });

  it('removing an account deletes its secrets; a pasted token with spaces is refused before any request', async () => {
    const { accounts, secrets } = make();
    const a = await accounts.add({ name: 'A', environment: 'test', clientId: 'c', clientSecret: 's' });
    await expect(accounts.loginWithRefreshToken(a.id, 'two words')).rejects.toMatchObject({
      code: 'login_invalid_token',
    });
    await secrets.set(secretNames.refreshToken(a.id), 'r');
    await accounts.remove(a.id);
    expect(await secrets.get(secretNames.clientSecret(a.id))).toBeNull();
    expect(await secrets.get(secretNames.refreshToken(a.id))).toBeNull();
    expect(accounts.list()).toEqual([]);
  });
});
