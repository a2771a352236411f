import type { Migration } from './index';

/**
 * 7: accounts (companies) of this station. No secrets here: the client secret and refresh token
 * live in the OS keychain (electron/auth/keychain.ts). At most one account is active (partial
 * unique index). base_url is NULL for the built-in sandbox, whose address changes every start.
 */
export const m007Accounts: Migration = (db) => {
  db.exec(`CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'test', 'production')),
    base_url TEXT,
    client_id TEXT NOT NULL,
    redirect_port INTEGER NOT NULL CHECK (redirect_port BETWEEN 1 AND 65535),
    redirect_path TEXT NOT NULL CHECK (substr(redirect_path, 1, 1) = '/'),
    scopes TEXT NOT NULL,
    created_at TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 0 CHECK (active IN (0, 1))
  ) STRICT;
  CREATE UNIQUE INDEX accounts_one_active ON accounts (active) WHERE active = 1;`);
};
