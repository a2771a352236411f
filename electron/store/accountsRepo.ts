/**
 * Accounts (companies) of the station: who the station logs in as, against which environment.
 * Never secrets: those are in the keychain under the account's id.
 */
import type { Db } from './database';

export type Environment = 'sandbox' | 'test' | 'production';

export interface AccountRow {
  id: string;
  name: string;
  environment: Environment;
  /** null for the built-in sandbox (its address is known only at run time). */
  baseUrl: string | null;
  clientId: string;
  redirectPort: number;
  redirectPath: string;
  scopes: string[];
  createdAt: string;
  active: boolean;
}

type Raw = {
  id: string;
  name: string;
  environment: Environment;
  base_url: string | null;
  client_id: string;
  redirect_port: number;
  redirect_path: string;
  scopes: string;
  created_at: string;
  active: number;
};

const fromRaw = (r: Raw): AccountRow => ({
  id: r.id,
  name: r.name,
  environment: r.environment,
  baseUrl: r.base_url,
  clientId: r.client_id,
  redirectPort: r.redirect_port,
  redirectPath: r.redirect_path,
  scopes: r.scopes.split(' ').filter(Boolean),
  createdAt: r.created_at,
  active: r.active === 1,
});

export function createAccountsRepo(db: Db) {
  const all = db.prepare<[], Raw>('SELECT * FROM accounts ORDER BY created_at, id');
  const one = db.prepare<[string], Raw>('SELECT * FROM accounts WHERE id = ?');
  const activeRow = db.prepare<[], Raw>('SELECT * FROM accounts WHERE active = 1');
  const insert = db.prepare(
    `INSERT INTO accounts (id, name, environment, base_url, client_id, redirect_port, redirect_path, scopes, created_at, active)
     VALUES (@id, @name, @environment, @baseUrl, @clientId, @redirectPort, @redirectPath, @scopes, @createdAt, 0)`,
  );
  const update = db.prepare(
    `UPDATE accounts SET name = @name, environment = @environment, base_url = @baseUrl, client_id = @clientId,
     redirect_port = @redirectPort, redirect_path = @redirectPath, scopes = @scopes WHERE id = @id`,
  );
  const del = db.prepare<[string]>('DELETE FROM accounts WHERE id = ?');
  const clearActive = db.prepare('UPDATE accounts SET active = 0 WHERE active = 1');
  const setActive = db.prepare<[string]>('UPDATE accounts SET active = 1 WHERE id = ?');
  const switchActive = db.transaction((id: string | null) => {
    clearActive.run();
    if (id !== null) setActive.run(id);
  });

  return {
    list: (): AccountRow[] => all.all().map(fromRaw),
    get: (id: string): AccountRow | null => {
      const r = one.get(id);
      return r ? fromRaw(r) : null;
    },
    active: (): AccountRow | null => {
      const r = activeRow.get();
      return r ? fromRaw(r) : null;
    },
    insert(a: Omit<AccountRow, 'active'>): void {
      insert.run({ ...a, scopes: a.scopes.join(' ') });
    },
    update(a: Omit<AccountRow, 'active' | 'createdAt'>): boolean {
      return update.run({ ...a, scopes: a.scopes.join(' ') }).changes === 1;
    },
    remove(id: string): boolean {
      return del.run(id).changes === 1;
    },
    /** Makes `id` the one active account (null: none). */
    setActive(id: string | null): boolean {
      if (id !== null && !one.get(id)) return false;
      switchActive(id);
      return true;
    },
  };
}

export type AccountsRepo = ReturnType<typeof createAccountsRepo>;
