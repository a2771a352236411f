import type { Migration } from './index';

/**
 * 14: print jobs may end `spooled`: handed to the operating system's print spooler, which
 * finished with them (CUPS `completed`), not confirmed printed. Only
 * print_jobs' CHECK on `state` widens, edited in place as migration 11 does (the reasons are there).
 */
export const m014JobSpooled: Migration = (db) => {
  const row = db
    .prepare<[], { sql: string }>(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'print_jobs'`)
    .get()!;
  const before = `'sent', 'done', 'failed'`;
  if (!row.sql.includes(before))
    throw new Error('print_jobs has an unexpected state CHECK; migration 14 cannot widen it.');
  const version = db.pragma('schema_version', { simple: true }) as number;
  db.unsafeMode(true);
  try {
    db.pragma('writable_schema = ON');
    db.prepare(`UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'print_jobs'`).run(
      row.sql.replace(before, `'sent', 'done', 'spooled', 'failed'`),
    );
    db.pragma(`schema_version = ${version + 1}`);
    db.pragma('writable_schema = OFF');
  } finally {
    db.unsafeMode(false);
  }
  const check = db.pragma('integrity_check', { simple: true });
  if (check !== 'ok') throw new Error(`print_jobs after migration 14: ${String(check)}`);
};
