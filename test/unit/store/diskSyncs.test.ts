/**
 * The metrics' disk syncs: a transaction committed at synchronous FULL waits for the disk once,
 * however many savepoints it nests; a lazy commit (lazyCommit.ts, NORMAL) and a rolled-back
 * transaction do not.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/store/database';
import { countDiskSyncs } from '../../../electron/store/diskSyncs';

describe('disk syncs counted for the metrics', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('counts FULL commits once each, not lazy ones or rollbacks', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'disk-syncs-'));
    dirs.push(dir);
    const db = openDatabase(path.join(dir, 'station.db'));
    const syncs = countDiskSyncs(db);
    db.exec('CREATE TABLE t (x INTEGER)');
    const insert = db.prepare('INSERT INTO t (x) VALUES (?)');

    db.transaction(() => insert.run(1))();
    db.transaction(() => {
      insert.run(2);
      db.transaction(() => insert.run(3))();
    })();
    // A commit at NORMAL, as lazyCommit.ts makes them: no wait for the disk.
    db.pragma('synchronous = NORMAL');
    db.transaction(() => insert.run(4))();
    db.pragma('synchronous = FULL');
    expect(() =>
      db.transaction(() => {
        insert.run(5);
        throw new Error('no');
      })(),
    ).toThrow('no');
    db.transaction(() => insert.run(6)).immediate();

    expect(syncs()).toBe(3);
    expect(db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(5);
    db.close();
  });
});
