/**
 * Opens the station's SQLite database (better-sqlite3), in WAL mode, and brings its schema up to
 * date with the numbered migrations. All SQL of the station lives in electron/store/.
 *
 * Native module: opened through ./sqlite.ts, which honours STATION_SQLITE_BINDING (the Electron
 * build under Electron, see README).
 */
import { migrations } from './migrations';
import { openSqlite, sqliteBinding, type Db } from './sqlite';

/** The handle the composition root passes to the repositories; only electron/store/ runs SQL on it. */
export type { Db } from './sqlite';
export { sqliteBinding } from './sqlite';

/** What the -wal file is cut back to once the log restarts (and the retention's pace: retention.ts). */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

export function openDatabase(file: string, nativeBinding = sqliteBinding()): Db {
  const db = openSqlite(file, nativeBinding);
  db.pragma('journal_mode = WAL');
  // NORMAL: a commit only appends to the -wal file, no fsync on the event loop. WAL stays consistent
  // over a power cut but may lose its newest commits, so what acts on a commit (a close, a label
  // sent, an answer) first awaits the -wal file's sync on the thread pool (walSync.ts, wired by
  // wireStore.ts): a journal step is still on the disk before the side effect it allows.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Freed pages are kept for the retention to hand back in small steps (`PRAGMA incremental_vacuum`,
  // electron/retention), never in one long pass while scans wait. A new file takes the mode here,
  // before its first table; an older file needs the one VACUUM below.
  db.pragma('auto_vacuum = INCREMENTAL');
  migrate(db);
  switchToIncrementalVacuum(db);
  // WAL checkpoints stay SQLite's automatic ones here (every 1,000 pages, inside a commit); the
  // station's runtime moves them to a worker thread (checkpointer.ts, started by wireStore.ts).
  // SQLite reuses the -wal file from its start after a complete checkpoint and never shrinks it
  // on its own: a file that once grew (a long retention run) kept its size until the station
  // stopped. With a limit, the first commit after the log restarts truncates the file to it
  // (sqlite.org/pragma.html#pragma_journal_size_limit).
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  return db;
}

/**
 * A file made before incremental auto-vacuum (schema 16 or older) is rewritten once, at the start
 * (nothing scans yet; a VACUUM cannot run in the migrations' transactions). The rewrite also
 * packs the shipments rebuilt by migration 17. It takes time in proportion to the file (62 MB with
 * 10,000 shipments: 1.8 s, migration 17 included) and as much free disk space as the file; once
 * done, the header says INCREMENTAL and it never runs again.
 */
function switchToIncrementalVacuum(db: Db): void {
  const INCREMENTAL = 2;
  if (db.pragma('auto_vacuum', { simple: true }) === INCREMENTAL) return;
  db.exec('VACUUM');
}

/** Applies every migration newer than the file's user_version, each in its own transaction. */
export function migrate(db: Db, list = migrations): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = list.length;
  if (current > latest) {
    throw new Error(`The database was written by a newer station (schema ${current}, this one knows ${latest}).`);
  }
  for (let v = current; v < latest; v++) {
    const migration = list[v]!;
    const keysOff = migration.rebuildsTables === true && db.pragma('foreign_keys', { simple: true }) === 1;
    if (keysOff) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        migration(db);
        if (migration.rebuildsTables) {
          const broken = db.pragma('foreign_key_check') as { table: string; parent: string }[];
          if (broken.length)
            throw new Error(
              `Migration ${v + 1} broke ${broken.length} references (${broken[0]!.table} → ${broken[0]!.parent}).`,
            );
        }
        db.pragma(`user_version = ${v + 1}`);
      })();
    } finally {
      if (keysOff) db.pragma('foreign_keys = ON');
    }
  }
  return latest;
}
