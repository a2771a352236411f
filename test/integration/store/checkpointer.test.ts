/**
 * The WAL checkpointer (electron/store/checkpointer.ts): the station's own
 * connection no longer checkpoints inside its commits, a worker thread with its own connection
 * does. Real parts: a real station.db (openDatabase, WAL, synchronous = NORMAL) and the real worker
 * file. What a user (or the lead) would check: the WAL file stays bounded while the station
 * writes, nothing written is lost, and closing leaves a small WAL.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startCheckpointer } from '../../../electron/store/checkpointer';
import { openDatabase } from '../../../electron/store/database';

const COMMITS = 20_000;
const BATCH = 250;
const walSize = (file: string) => {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
};

describe('the WAL checkpointer', () => {
  it('keeps the WAL bounded over 20,000 commits of the core, loses none of them, and empties the WAL on stop', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'checkpointer-')), 'station.db');
    const db = openDatabase(file);
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
    const warnings: string[] = [];
    // limitBytes far above the bound asserted below: the worker alone has to keep the WAL small.
    const checkpointer = startCheckpointer(db, {
      file,
      intervalMs: 20,
      limitBytes: 1 << 30,
      log: { warn: (m) => warnings.push(m) },
    });

    // No commit of the core's connection checkpoints any more.
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);

    const insert = db.prepare('INSERT INTO notes (text) VALUES (?)');
    let largestWal = 0;
    for (let i = 0; i < COMMITS; i++) {
      insert.run(`Zásilka č. ${i} – příliš žluťoučký kůň`); // each its own commit, as the station's steps are
      if ((i + 1) % BATCH === 0) {
        largestWal = Math.max(largestWal, walSize(file));
        // The core does other work between its commits (sockets, RPC); the worker runs meanwhile.
        await sleep(40);
      }
    }
    largestWal = Math.max(largestWal, walSize(file));
    // One page per commit: without checkpoints these commits make a WAL of ~80 MB.
    expect(largestWal).toBeLessThan(12 * 1024 * 1024);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);

    await checkpointer.stop();
    // The final checkpoint copied everything into the database file and emptied the WAL.
    expect(walSize(file)).toBe(0);
    db.close();
    expect(warnings).toEqual([]);

    const fresh = new Database(file, { readonly: true });
    try {
      expect(fresh.prepare('SELECT count(*) AS n FROM notes').get()).toEqual({ n: COMMITS });
      expect(fresh.prepare('SELECT text FROM notes WHERE id = ?').get(COMMITS)).toEqual({
        text: `Zásilka č. ${COMMITS - 1} – příliš žluťoučký kůň`,
      });
    } finally {
      fresh.close();
    }
  }, 120_000);

  it('leaves what the worker has not copied yet in the WAL, where a fresh connection reads it', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'checkpointer-')), 'station.db');
    const db = openDatabase(file);
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
    // A long interval: the worker does not checkpoint before the reader looks.
    const checkpointer = startCheckpointer(db, { file, intervalMs: 60_000 });
    db.prepare('INSERT INTO notes (text) VALUES (?)').run('Štítek čeká na tiskárnu');
    // The commit is in the WAL before any checkpoint: another connection (as after a crash of the
    // station, the next start) sees it.
    expect(walSize(file)).toBeGreaterThan(0);
    const other = new Database(file, { readonly: true });
    try {
      expect(other.prepare('SELECT text FROM notes').all()).toEqual([{ text: 'Štítek čeká na tiskárnu' }]);
    } finally {
      other.close();
    }
    await checkpointer.stop();
    db.close();
  });

  it('checkpoints on the core connection when the WAL passes its bound and the worker has not', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'checkpointer-')), 'station.db');
    const db = openDatabase(file);
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
    const warnings: string[] = [];
    // A worker that does not look within the test (as if stuck) and a 1 MB bound.
    const checkpointer = startCheckpointer(db, {
      file,
      intervalMs: 600_000,
      limitBytes: 1024 * 1024,
      log: { warn: (m) => warnings.push(m) },
    });
    const insert = db.prepare('INSERT INTO notes (text) VALUES (?)');
    // `log`: the frames in the WAL (what this checkpoint found, before copying them).
    const pending = () => (db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]!.log;
    for (let i = 0; i < 600; i++) insert.run(`Přeprava ${i}`); // ~600 pages, ~2.4 MB of WAL
    // The worker's 5 s of grace, then the core's own checkpoint copies the frames back.
    for (let waited = 0; waited < 15_000 && !warnings.some((w) => w.includes('outgrew its bound')); waited += 200)
      await sleep(200);
    expect(warnings.some((w) => w.includes('outgrew its bound'))).toBe(true);
    // After the copy the next commit starts the WAL from its beginning again.
    insert.run('Nový začátek');
    expect(pending()).toBeLessThan(10);
    await checkpointer.stop();
    db.close();
  });
});
