import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../electron/store/database';
import { createAccountsRepo } from '../../../electron/store/accountsRepo';

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

const row = (id: string, over = {}) => ({
  id,
  name: `Company ${id}`,
  environment: 'test' as const,
  baseUrl: 'https://test.example',
  clientId: `client-${id}`,
  redirectPort: 53682,
  redirectPath: '/callback',
  scopes: ['deliveries', 'transports'],
  createdAt: `2024-01-0${id}T00:00:00Z`,
  ...over,
});

describe('migration 007 accounts and the accounts repository', () => {
  it('stores several accounts and reads them back', () => {
    const repo = createAccountsRepo(db);
    repo.insert(row('1'));
    repo.insert(row('2', { environment: 'sandbox', baseUrl: null }));
    expect(repo.list().map((a) => [a.id, a.environment, a.baseUrl, a.scopes])).toEqual([
      ['1', 'test', 'https://test.example', ['deliveries', 'transports']],
      ['2', 'sandbox', null, ['deliveries', 'transports']],
    ]);
  });

  it('keeps exactly one account active', () => {
    const repo = createAccountsRepo(db);
    repo.insert(row('1'));
    repo.insert(row('2'));
    expect(repo.active()).toBeNull();
    expect(repo.setActive('1')).toBe(true);
    expect(repo.setActive('2')).toBe(true);
    expect(
      repo
        .list()
        .filter((a) => a.active)
        .map((a) => a.id),
    ).toEqual(['2']);
    expect(repo.setActive('nope')).toBe(false);
    expect(repo.active()?.id).toBe('2');
    expect(() => db.prepare("UPDATE accounts SET active = 1 WHERE id = '1'").run()).toThrow(/UNIQUE/);
  });

  it('refuses an unknown environment or a bad redirect', () => {
    const repo = createAccountsRepo(db);
    expect(() => repo.insert(row('1', { environment: 'staging' as never }))).toThrow(/CHECK/);
    expect(() => repo.insert(row('2', { redirectPath: 'callback' }))).toThrow(/CHECK/);
    expect(() => repo.insert(row('3', { redirectPort: 70000 }))).toThrow(/CHECK/);
  });

  it('has no column for a secret', () => {
    const cols = db
      .prepare<[], { name: string }>('PRAGMA table_info(accounts)')
      .all()
      .map((c) => c.name);
    expect(cols.filter((c) => /secret|token|password/i.test(c))).toEqual([]);
  });
});
