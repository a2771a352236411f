import type { Migration } from './index';

/**
 * 11: print jobs may end `unconfirmed`: every byte left, the printer never confirmed taking them
 * (a raw port that accepts and never reads or closes). Only print_jobs' CHECK on `state` changes.
 * SQLite cannot alter a CHECK; rebuilding the table would need foreign keys off, which cannot be
 * switched inside the migration's transaction. A wider CHECK changes nothing on disk (every row
 * already satisfies it), so the stored definition is edited in place, the procedure SQLite
 * documents for changing constraints (sqlite.org/lang_altertable.html, "other kinds of table
 * schema changes"); better-sqlite3's defensive mode is lifted only for that statement.
 */
export const m011JobUnconfirmed: Migration = (db) => {
  const row = db
    .prepare<[], { sql: string }>(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'print_jobs'`)
    .get()!;
  const before = `'uncertain', 'cancelled'`;
  if (!row.sql.includes(before))
    throw new Error('print_jobs has an unexpected state CHECK; migration 11 cannot widen it.');
  const version = db.pragma('schema_version', { simple: true }) as number;
  db.unsafeMode(true);
  try {
    db.pragma('writable_schema = ON');
    db.prepare(`UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'print_jobs'`).run(
      row.sql.replace(before, `'uncertain', 'unconfirmed', 'cancelled'`),
    );
    db.pragma(`schema_version = ${version + 1}`);
    db.pragma('writable_schema = OFF');
  } finally {
    db.unsafeMode(false);
  }
  const check = db.pragma('integrity_check', { simple: true });
  if (check !== 'ok') throw new Error(`print_jobs after migration 11: ${String(check)}`);
};
