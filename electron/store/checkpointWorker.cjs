/**
 * The WAL checkpointer's worker thread (checkpointer.ts starts it): its own better-sqlite3
 * connection to station.db that copies the write-ahead log back into the database file with
 * `PRAGMA wal_checkpoint(PASSIVE)`. SQLite's automatic checkpoint ran inside whichever commit
 * crossed 1,000 WAL pages and held the core's event loop for tens of milliseconds; here it
 * runs on this thread instead, and PASSIVE never waits for (nor blocks) the core's writer.
 *
 * Plain CommonJS, shipped as its own file beside every bundle like renderWorker.cjs (scripts/
 * build.mjs copies it; electron-builder.yml unpacks it and better-sqlite3 from the asar archive).
 * It loads better-sqlite3 by name from node_modules and the native binding the core uses
 * (workerData.nativeBinding: the Electron build in the packaged app).
 */
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const Database = require('better-sqlite3');

const { file, nativeBinding, thresholdBytes, intervalMs } = workerData;
const walFile = `${file}-wal`;
const db = nativeBinding ? new Database(file, { nativeBinding }) : new Database(file);
// The same settings as the core's connection (database.ts). The journal mode (WAL) is stored in
// the file; this connection never writes rows and never checkpoints on its own commits.
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = FULL');
db.pragma('wal_autocheckpoint = 0');

const stats = { checkpoints: 0, busy: 0 };

function checkpoint(mode) {
  const [r] = db.pragma(`wal_checkpoint(${mode})`);
  stats.checkpoints++;
  if (r.busy) stats.busy++;
  return r;
}

// The -wal file's size alone only says "was this big once": SQLite writes it from its beginning
// again after a full checkpoint and never shrinks it. So: once it has reached the threshold
// (SQLite's automatic checkpoint's 1,000 pages), checkpoint every interval in which something was
// written (its mtime moved). Small, frequent checkpoints: their writes and fsyncs share the disk
// with the core's -wal syncs (walSync.ts), and a big one delays the sync beside it.
// (The wal-index in -shm would say the frame count exactly, but opening and closing that file in
// this process would drop SQLite's POSIX locks on it; stat opens nothing.)
let lastMtimeMs = -1;
const timer = setInterval(() => {
  let st = null;
  try {
    st = fs.statSync(walFile);
  } catch {
    // no WAL file (yet): nothing to copy
  }
  if (st && st.size >= thresholdBytes && st.mtimeMs !== lastMtimeMs) {
    lastMtimeMs = st.mtimeMs;
    try {
      checkpoint('PASSIVE');
    } catch (err) {
      parentPort.postMessage({ kind: 'error', message: err && err.message ? err.message : String(err) });
    }
  }
  // Alive: the core checkpoints on its own thread only when these stop (checkpointer.ts).
  parentPort.postMessage({ kind: 'tick' });
}, intervalMs);

parentPort.on('message', (msg) => {
  if (msg && msg.kind === 'drain') {
    // Asked by the core (a writer that has written much, the retention): copy what can be copied
    // now and say whether the whole log was (then the next commit restarts it).
    let result = { log: -1, checkpointed: -1 };
    try {
      result = checkpoint('PASSIVE');
    } catch (err) {
      parentPort.postMessage({ kind: 'error', message: err && err.message ? err.message : String(err) });
    }
    parentPort.postMessage({ kind: 'drained', id: msg.id, log: result.log, checkpointed: result.checkpointed });
    return;
  }
  if (!msg || msg.kind !== 'stop') return;
  clearInterval(timer);
  let error;
  try {
    // The station is closing: copy everything and empty the WAL file (TRUNCATE waits, within
    // busy_timeout, for a write still in progress).
    checkpoint('TRUNCATE');
  } catch (err) {
    error = err && err.message ? err.message : String(err);
  }
  try {
    db.close();
  } catch {
    // closing a connection that only read cannot lose anything
  }
  parentPort.postMessage({ kind: 'stopped', stats, error });
});

parentPort.postMessage({ kind: 'ready' });
