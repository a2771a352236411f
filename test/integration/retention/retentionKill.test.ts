/**
 * Retention killed part-way ("a crash in the middle of a retention slice loses
 * nothing"): a separate process runs the retention on a desk's database and is killed with
 * SIGKILL after a varying number of slices, three times; the database is checked after each kill
 * (integrity, foreign keys, every old scan wholly there or wholly gone, nothing unfinished or recent
 * touched), and a last run finishes the work.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleChild } from '../../support/childBundle';
import { openDatabase, type Db } from '../../../electron/store/database';
import { createJournalRepo } from '../../../electron/store/journalRepo';
import { createPrintJobsRepo } from '../../../electron/store/printJobsRepo';
import { createScanLogRepo } from '../../../electron/store/scanLogRepo';

const DAYS_AHEAD = 401;
let dir: string;
let child: { file: string; remove(): void };
let childFile: string;
let dbFile: string;
const old: { scanId: number; entryId: number; jobId: number }[] = [];
const kept: { scanId: number; entryId: number; jobId: number }[] = [];

/** A scan whose label printed (or whose job ended `final`), written through the store's own functions. */
function scan(db: Db, final: 'done' | 'uncertain', at: Date, n: number) {
  const journal = createJournalRepo(db, createScanLogRepo(db));
  const jobs = createPrintJobsRepo(db);
  const { scanId, entry } = journal.receiveScan({ accountId: 'acc', code: `CODE-${n}`, rawCode: null, at });
  journal.step([entry.id], 'resolved', at, { deliveryId: 1000 + n });
  journal.step([entry.id], 'closed', at);
  const jobId = jobs.lazyTransaction(() => {
    const j = jobs.insert(
      { kind: 'print', printerId: 'zebra', format: 'zpl', payload: Buffer.alloc(3000, 65), title: `Label ${n}` },
      at,
    );
    journal.queued(entry.id, [j.id], at);
    return j.id;
  });
  jobs.setState(jobId, 'sending', at);
  jobs.setState(jobId, final, at);
  journal.settleScanLog();
  return { scanId, entryId: entry.id, jobId };
}

function runChild(killAfterSlices: number | null): Promise<{ slices: number; done: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childFile, dbFile, String(DAYS_AHEAD), '7'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let slices = 0;
    let done = false;
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const l of lines) {
        if (l === 'slice') slices++;
        if (l.startsWith('done')) done = true;
        if (killAfterSlices !== null && slices === killAfterSlices) child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    child.on('exit', () => resolve({ slices, done }));
  });
}

const has = (db: Db, table: string, id: number) =>
  (db.prepare(`SELECT count(*) AS n FROM ${table} WHERE id = ?`).get(id) as { n: number }).n === 1;

function check(final: boolean) {
  const db = openDatabase(dbFile);
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    for (const o of old) {
      const there = has(db, 'journal_entries', o.entryId);
      if (final) expect(there).toBe(false);
      // Wholly there: its job and its links are there too (the scan and the job may go after the entry).
      if (there) {
        expect(has(db, 'scan_log', o.scanId)).toBe(true);
        expect(has(db, 'print_jobs', o.jobId)).toBe(true);
        expect(db.prepare('SELECT count(*) AS n FROM journal_jobs WHERE entry_id = ?').get(o.entryId)).toEqual({
          n: 1,
        });
      }
    }
    for (const k of kept) {
      expect(has(db, 'journal_entries', k.entryId)).toBe(true);
      expect(has(db, 'scan_log', k.scanId)).toBe(true);
      expect(has(db, 'print_jobs', k.jobId)).toBe(true);
    }
    return old.filter((o) => has(db, 'journal_entries', o.entryId)).length;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'station-retention-kill-'));
  child = await bundleChild(path.join(__dirname, 'fixtures', 'retentionChild.ts'), 'retention-child');
  childFile = child.file;
  dbFile = path.join(dir, 'station.db');
  const db = openDatabase(dbFile);
  const now = new Date();
  const recent = new Date(now.getTime() + DAYS_AHEAD * 86_400_000);
  for (let i = 0; i < 120; i++) old.push(scan(db, 'done', now, i));
  for (let i = 0; i < 5; i++) kept.push(scan(db, 'uncertain', now, 1000 + i));
  for (let i = 0; i < 5; i++) kept.push(scan(db, 'done', recent, 2000 + i));
  db.close();
}, 120_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  child?.remove();
});

describe('retention killed with SIGKILL part-way', () => {
  it('loses nothing and repeats nothing: each kill leaves whole rows, and a last run finishes', async () => {
    let left = old.length;
    // Three kills, each a number of slices into a new run (the runs resume where the last commit left them),
    // past the label kinds' walks (some 60 slices of 7 rows: bytes kept once, bytes, folded job histories).
    for (const after of [30, 35, 30]) {
      const r = await runChild(after);
      expect(r.done).toBe(false);
      const now = check(false);
      expect(now).toBeLessThanOrEqual(left);
      left = now;
    }
    expect(left).toBeLessThan(old.length);
    const last = await runChild(null);
    expect(last.done).toBe(true);
    check(true);
  }, 120_000);
});
