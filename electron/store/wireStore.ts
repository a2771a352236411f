/**
 * The station's database, wired once by the composition root (electron/station.ts): the data
 * folder, `station.db`, the syncs of its write-ahead log that side effects wait for (walSync.ts),
 * and the WAL checkpoints on a worker thread. Closed last, after every part that writes.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../rpc/rpcServer';
import { startCheckpointer } from './checkpointer';
import { openDatabase, sqliteBinding, WAL_SIZE_LIMIT_BYTES } from './database';
import { createSettingsRepo } from './settingsRepo';
import { trackWal } from './walSync';

export function wireStore(o: { dataDir: string; log: Logger }) {
  mkdirSync(o.dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(o.dataDir, 'station.db');
  const db = openDatabase(file);
  // Commits owed a sync, counted before any repository takes the connection; their -wal syncs.
  const wal = trackWal(db, `${file}-wal`);
  // WAL checkpoints on a worker thread, not inside the core's commits (store/checkpointer.ts).
  // STATION_WAL_CHECKPOINTER=0 leaves them to SQLite's automatic checkpoint on this thread.
  const checkpointer =
    process.env.STATION_WAL_CHECKPOINTER === '0'
      ? null
      : startCheckpointer(db, { file, nativeBinding: sqliteBinding(), log: o.log });
  return {
    db,
    /** Resolves once every commit so far is on the disk: awaited before a side effect (walSync.ts). */
    durable: wal.durable,
    /** An RPC answer after a call that committed waits for the sync (the set-ups Settings saves). */
    afterCommits: wal.afterCommits,
    /** Syncs of the -wal file so far (metrics). */
    walSyncs: wal.syncs,
    settings: createSettingsRepo(db),
    /** The write-ahead log's bound a long run waits on (retention), when the worker checkpoints. */
    wal: checkpointer
      ? { walBytes: checkpointer.walBytes, drain: checkpointer.drain, limitBytes: WAL_SIZE_LIMIT_BYTES }
      : undefined,
    async close(): Promise<void> {
      // The worker's final checkpoint before the core's connection, the last one, closes (a write
      // after it stays in the WAL until db.close() checkpoints it).
      await checkpointer?.stop();
      // A commit the journal acted on was synced already; what is left is synced by the close's checkpoint.
      await wal.close();
      db.close();
    },
  };
}

export type StationStore = ReturnType<typeof wireStore>;
