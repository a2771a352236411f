/**
 * Migration 21 on a copy of a schema-20 database: print jobs with their label bytes in their rows
 * (as every station before it wrote them), each with its history, a scan's journal entry, a desk
 * action and reprints naming it. After the upgrade every job reads as before, its label bytes
 * come back whole for a reprint, everything that names a job still finds it, a new job never
 * takes an old job's number, and, the point of it, the retention's deletion of printed labels'
 * bytes after the labels window makes the file smaller (emptied inside the job's rows, they freed
 * no page).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../../../electron/store/database';
import { migrations } from '../../../electron/store/migrations';
import { openSqlite } from '../../../electron/store/sqlite';
import { createPrintJobsRepo } from '../../../electron/store/printJobsRepo';
import { createJournalRepo } from '../../../electron/store/journalRepo';
import { createScanLogRepo } from '../../../electron/store/scanLogRepo';
import { createSettingsRepo } from '../../../electron/store/settingsRepo';
import { createRetention } from '../../../electron/retention/retention';
import { steppableClock } from '../../support/steppableClock';

const JOBS = 3000;
/** A ZPL shipping label is 1–2 KB: within a page, beside other rows. */
const LABEL = 1200;
const DAY = 86_400_000;
/** The jobs printed 91 days ago: one day past the labels window. */
const START = new Date(Date.now() - 91 * DAY);
let dir: string;
let copy: string;
let lastId: number;

const labelOf = (i: number) =>
  Buffer.from(`^XA^FO50,50^A0N,40^FDŽluťoučký kůň ${i}^FS` + 'X'.repeat(LABEL - 60) + '^XZ', 'utf8');
const jobColumns = (db: Db) =>
  db
    .prepare(
      `SELECT id, kind, printer_id, format, label_ref, label_size, title, scan_code, delivery_ids, barcodes, copies, state,
        attempts, reason_code, reason, next_retry_at, delivered, reprint_of, created_at, updated_at, finished_at,
        counter_at, counter_labels FROM print_jobs ORDER BY id`,
    )
    .all();
const linked = (db: Db) => ({
  events: db.prepare('SELECT job_id, at, state FROM print_job_events ORDER BY rowid').all(),
  journal: db.prepare('SELECT entry_id, job_id FROM journal_jobs ORDER BY entry_id').all(),
  actions: db.prepare('SELECT id, job_id FROM desk_actions ORDER BY id').all(),
});

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'station-m021-'));
  const oldFile = path.join(dir, 'old.db');
  copy = path.join(dir, 'copy.db');
  // A station as schema 20 left it: WAL, incremental auto-vacuum, foreign keys, migrations up to 20.
  const db = openSqlite(oldFile);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('auto_vacuum = INCREMENTAL');
  migrate(db, migrations.slice(0, 20));
  // Today's scan log writes migration 33's column: there while today's repos write the old file.
  db.exec('ALTER TABLE scan_log ADD COLUMN page_ref TEXT');
  const journal = createJournalRepo(db, createScanLogRepo(db));
  const insertJob =
    db.prepare(`INSERT INTO print_jobs (kind, printer_id, format, payload, label_ref, title, delivery_ids,
    barcodes, state, delivered, reprint_of, created_at, updated_at, finished_at, counter_at, counter_labels)
    VALUES ('print', 'zebra', 'zpl', @payload, @ref, @title, @ids, @barcodes, 'done', 1, @reprintOf, @at, @at, @at, @counter, 1)`);
  const event = db.prepare('INSERT INTO print_job_events (job_id, at, state) VALUES (?, ?, ?)');
  const action = db.prepare(`INSERT INTO desk_actions (at, desk, action, job_id) VALUES (?, 'Stůl 1', 'reprint', ?)`);
  db.transaction(() => {
    for (let i = 0; i < JOBS; i++) {
      const at = START.toISOString();
      const reprintOf = i % 100 === 99 ? i - 98 : null; // a reprint of an earlier job
      const id = Number(
        insertJob.run({
          payload: labelOf(i),
          ref: `zpl:${i}`,
          title: `Štítek ${i}`,
          ids: `[${5000 + i}]`,
          barcodes: `["HB${5000 + i}0"]`,
          reprintOf,
          at,
          counter: i,
        }).lastInsertRowid,
      );
      for (const s of ['queued', 'sending', 'sent', 'done']) event.run(id, at, s);
      if (reprintOf !== null) action.run(at, id);
      if (i % 10 === 0) {
        const { entry } = journal.receiveScan({ accountId: 'acc', code: `CODE-${i}`, rawCode: null, at: START });
        journal.step([entry.id], 'resolved', START, { deliveryId: 5000 + i });
        journal.step([entry.id], 'close_requested', START);
        journal.step([entry.id], 'closed', START);
        journal.queued(entry.id, [id], START);
      }
    }
    // The newest job went (a job's number is never given again, even so).
    const gone = Number(
      insertJob.run({
        payload: labelOf(-1),
        ref: null,
        title: 'x',
        ids: '[]',
        barcodes: '[]',
        reprintOf: null,
        at: START.toISOString(),
        counter: null,
      }).lastInsertRowid,
    );
    db.prepare('DELETE FROM print_jobs WHERE id = ?').run(gone);
    lastId = gone;
  })();
  db.exec('ALTER TABLE scan_log DROP COLUMN page_ref');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  copyFileSync(oldFile, copy);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('migration 21 on a copy of a schema-20 database', () => {
  it('keeps every job, its label bytes and whatever names it; the retention then makes the file smaller', async () => {
    const old = openSqlite(path.join(dir, 'old.db'), undefined, { readonly: true });
    const jobsBefore = jobColumns(old);
    const linksBefore = linked(old);
    const payloads = old.prepare('SELECT id, payload FROM print_jobs ORDER BY id').all() as {
      id: number;
      payload: Buffer;
    }[];
    old.close();
    expect(jobsBefore).toHaveLength(JOBS);

    const started = performance.now();
    const db = openDatabase(copy);
    console.log(`migration 21: ${JOBS} print jobs in ${(performance.now() - started).toFixed(0)} ms`);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('foreign_key_check')).toEqual([]);
      const cols = (db.pragma('table_info(print_jobs)') as { name: string }[]).map((c) => c.name);
      expect(cols).not.toContain('payload');
      expect(jobColumns(db)).toEqual(jobsBefore);
      expect(linked(db)).toEqual(linksBefore);
      const indexes = db
        .prepare(
          `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'print_jobs' AND sql IS NOT NULL ORDER BY name`,
        )
        .pluck()
        .all();
      expect(indexes).toEqual(['print_jobs_lane', 'print_jobs_reprint_of', 'print_jobs_state']);

      const jobs = createPrintJobsRepo(db);
      for (const p of payloads) expect(jobs.payload(p.id)?.equals(p.payload)).toBe(true);
      expect(jobs.get(payloads[7]!.id)?.bytes).toBe(payloads[7]!.payload.length);
      // A job still refuses a missing reprint source, and a history row a missing job.
      expect(() =>
        db.prepare(`INSERT INTO print_job_events (job_id, at, state) VALUES (999999, 'x', 'queued')`).run(),
      ).toThrow(/FOREIGN KEY/);
      const next = jobs.insert(
        { kind: 'print', printerId: 'zebra', format: 'zpl', payload: labelOf(0), title: 'nový' },
        new Date(),
      );
      expect(next.id).toBe(lastId + 1);

      db.pragma('wal_checkpoint(TRUNCATE)');
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      const pages = db.pragma('page_count', { simple: true }) as number;
      const clock = steppableClock();
      const log = { info: () => undefined, error: () => undefined };
      await createRetention({ db, settings: createSettingsRepo(db), clock, dataDir: dir, log }).run();
      for (const p of payloads) expect(jobs.payload(p.id)).toBeNull();
      expect(jobColumns(db)).toHaveLength(JOBS + 1);
      const freed = pages - (db.pragma('page_count', { simple: true }) as number);
      expect(freed).toBeGreaterThan((0.8 * JOBS * LABEL) / pageSize);
    } finally {
      db.close();
    }
  }, 120_000);
});
