/**
 * The station's database, wired once by the composition root (electron/station.ts): the data
 * folder, `station.db`, the count of commits that wait for the disk, and the WAL checkpoints on a
 * worker thread. Closed last, after every part that writes.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../rpc/rpcServer';
import { startCheckpointer } from './checkpointer';
import { openDatabase, sqliteBinding, WAL_SIZE_LIMIT_BYTES } from './database';
import { countDiskSyncs } from './diskSyncs';
import { createSettingsRepo } from './settingsRepo';

export function wireStore(o: { dataDir: string; log: Logger }) {
  mkdirSync(o.dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(o.dataDir, 'station.db');
  const db = openDatabase(file);
  // Fleet metrics (metrics): commits that wait for the disk, counted before any repository takes the connection.
  const diskSyncs = countDiskSyncs(db);
  // WAL checkpoints on a worker thread, not inside the core's commits (store/checkpointer.ts).
  // STATION_WAL_CHECKPOINTER=0 leaves them to SQLite's automatic checkpoint on this thread.
  const checkpointer =
    process.env.STATION_WAL_CHECKPOINTER === '0'
      ? null
      : startCheckpointer(db, { file, nativeBinding: sqliteBinding(), log: o.log });
  return {
    db,
    diskSyncs,
    settings: createSettingsRepo(db),
    /** The write-ahead log's bound a long run waits on (retention), when the worker checkpoints. */
    wal: checkpointer
      ? { walBytes: checkpointer.walBytes, drain: checkpointer.drain, limitBytes: WAL_SIZE_LIMIT_BYTES }
      : undefined,
    async close(): Promise<void> {
      // The worker's final checkpoint before the core's connection, the last one, closes (a write
      // after it stays in the WAL until db.close() checkpoints it).
      await checkpointer?.stop();
      db.close();
    },
  };
}

export type StationStore = ReturnType<typeof wireStore>;
