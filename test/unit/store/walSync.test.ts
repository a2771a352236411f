/**
 * The write-ahead log's syncs (electron/store/walSync.ts): a commit is owed a sync, a lazy commit
 * (lazyCommit.ts) and a rolled-back transaction are not; a write outside a transaction is; waiters
 * share a sync, and one who committed after a sync began waits for the next. Whether a sync makes
 * the commit survive a power cut is shown on a lossy file system (test/integration/station/
 * syncBeforeActing.test.ts, powerCut.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/store/database';
import { createLazyCommit } from '../../../electron/store/lazyCommit';
import { trackWal } from '../../../electron/store/walSync';

describe('syncs of the write-ahead log', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  function open() {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wal-sync-'));
    dirs.push(dir);
    const file = path.join(dir, 'station.db');
    const db = openDatabase(file);
    const wal = trackWal(db, `${file}-wal`);
    db.exec('CREATE TABLE t (x INTEGER)');
    const insert = db.prepare('INSERT INTO t (x) VALUES (?)');
    return { db, wal, insert, lazy: createLazyCommit(db) };
  }

  it('opens the database at synchronous NORMAL: a commit appends to the -wal file without syncing it', () => {
    const { db, wal } = open();
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    void wal.close();
    db.close();
  });

  it('syncs once for commits and writes outside transactions, not for lazy commits or rollbacks', async () => {
    const { db, wal, insert, lazy } = open();
    await wal.durable(); // the table's creation (a statement outside a transaction)
    const base = wal.syncs();

    lazy(() => insert.run(1));
    expect(() =>
      db.transaction(() => {
        insert.run(2);
        throw new Error('no');
      })(),
    ).toThrow('no');
    await wal.durable();
    expect(wal.syncs(), 'a lazy commit and a rollback are owed no sync').toBe(base);

    db.transaction(() => {
      insert.run(3);
      lazy(() => insert.run(4)); // inside an outer commit: the outer commit decides
    })();
    await Promise.all([wal.durable(), wal.durable(), wal.durable()]);
    expect(wal.syncs(), 'three waiters of one commit, one sync').toBe(base + 1);

    insert.run(5); // no transaction: seen by total_changes()
    await wal.durable();
    expect(wal.syncs()).toBe(base + 2);
    await wal.durable();
    expect(wal.syncs(), 'nothing new: no sync').toBe(base + 2);
    await wal.close();
    db.close();
  });

  it('a waiter who committed after the sync in flight began waits for the next, shared by all after it', async () => {
    const { db, wal, insert } = open();
    await wal.durable();
    const base = wal.syncs();
    const order: string[] = [];

    db.transaction(() => insert.run(1))();
    const first = wal.durable().then(() => order.push(`first after ${wal.syncs() - base}`));
    db.transaction(() => insert.run(2))();
    const second = wal.durable().then(() => order.push(`second after ${wal.syncs() - base}`));
    db.transaction(() => insert.run(3))();
    const third = wal.durable().then(() => order.push(`third after ${wal.syncs() - base}`));
    await Promise.all([first, second, third]);

    expect(order).toEqual(['first after 1', 'second after 2', 'third after 2']);
    await wal.close();
    db.close();
  });

  it('an answer waits for the sync only when its call committed', async () => {
    const { db, wal, insert } = open();
    await wal.durable();
    const base = wal.syncs();
    expect(await wal.afterCommits(async () => 'read')).toBe('read');
    expect(wal.syncs()).toBe(base);
    let syncedAtAnswer = -1;
    await wal
      .afterCommits(async () => {
        db.transaction(() => insert.run(1))();
        return 'saved';
      })
      .then(() => (syncedAtAnswer = wal.syncs()));
    expect(syncedAtAnswer).toBe(base + 1);
    await wal.close();
    db.close();
  });
});
