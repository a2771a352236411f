import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/store/database';
import { needs } from '../../support/services';

const require = createRequire(import.meta.url);

describe('native modules load under Node from the one npm install', () => {
  it('better-sqlite3 opens the station database in WAL mode', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'native-'));
    const db = openDatabase(path.join(dir, 'station.db'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('better-sqlite3 takes an explicit binding, as the Electron build is chosen', () => {
    // main.ts sets STATION_SQLITE_BINDING to native/electron/better_sqlite3.node; here the Node
    // build is named explicitly to prove the option reaches the driver.
    const binding = path.join(path.dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
    const db = openDatabase(':memory:', binding);
    expect(db.prepare('select 1 + 1 as two').get()).toEqual({ two: 2 });
    db.close();
    expect(() => openDatabase(':memory:', '/nonexistent/better_sqlite3.node')).toThrow();
  });

  it.skipIf(!needs('keychain'))('@napi-rs/keyring stores, reads and deletes a secret in the Secret Service', async () => {
    const { AsyncEntry } = await import('@napi-rs/keyring');
    const entry = new AsyncEntry('label-station-test', `native-test-${process.pid}`);
    await entry.setPassword('s3cr3t-hodnota-ěščř');
    expect(await entry.getPassword()).toBe('s3cr3t-hodnota-ěščř');
    expect(await entry.deletePassword()).toBe(true);
    expect(await entry.getPassword()).toBeNull();
  });
});
