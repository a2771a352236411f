/** Settings: JSON values by key. Secrets never come here (they live in the keychain). */
import type { Db } from './database';

export function createSettingsRepo(db: Db) {
  const get = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
  const put = db.prepare(
    'INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
  );
  return {
    get<T>(key: string): T | undefined {
      const row = get.get(key);
      return row ? (JSON.parse(row.value) as T) : undefined;
    },
    set(key: string, value: unknown, now = new Date()): void {
      put.run(key, JSON.stringify(value), now.toISOString());
    },
  };
}

export type SettingsRepo = ReturnType<typeof createSettingsRepo>;
