import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../electron/store/database';
import { migrations } from '../../../electron/store/migrations';
import { m016Operators } from '../../../electron/store/migrations/016_operators';

const tables = (db: Database.Database) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map(
    (r) => r.name,
  );

describe('schema migrations', () => {
  it('bring an empty database to the latest version and record it', () => {
    const db = new Database(':memory:');
    expect(migrate(db)).toBe(migrations.length);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(tables(db)).toContain('settings');
  });

  it('are idempotent: opening a migrated file again runs no migration and changes neither schema nor rows', () => {
    const db = new Database(':memory:');
    let runs = 0;
    const counted = migrations.map((m) => (d: Database.Database) => {
      runs++;
      m(d);
    });
    migrate(db, counted);
    expect(runs).toBe(migrations.length);
    db.prepare("INSERT INTO settings VALUES ('language', '\"cs\"', '2026-11-22T00:00:00Z')").run();
    db.prepare(
      `INSERT INTO print_jobs (kind, printer_id, format, title, state, created_at, updated_at) VALUES ('print', 'z', 'zpl', 'Zásilka č. 1', 'queued', 'x', 'x')`,
    ).run();
    const schema = () => db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY type, name').all();
    const rows = () => [db.prepare('SELECT * FROM settings').all(), db.prepare('SELECT * FROM print_jobs').all()];
    const before = { schema: schema(), rows: rows() };
    migrate(db, counted);
    expect(runs).toBe(migrations.length);
    expect({ schema: schema(), rows: rows() }).toEqual(before);
  });

  it('1 creates settings holding JSON values by key', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, 1));
    db.prepare("INSERT INTO settings VALUES ('language', '\"cs\"', '2026-11-22T00:00:00Z')").run();
    expect(db.prepare('SELECT value FROM settings WHERE key = ?').get('language')).toEqual({ value: '"cs"' });
  });

  it('print jobs: `unconfirmed` is a state (a label sent whole the printer never confirmed); others are still refused', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, 10));
    db.prepare(
      `INSERT INTO print_jobs (kind, printer_id, format, title, state, created_at, updated_at) VALUES ('print', 'z', 'zpl', 't', 'sending', 'x', 'x')`,
    ).run();
    expect(() => db.prepare(`UPDATE print_jobs SET state = 'unconfirmed'`).run()).toThrow(/CHECK/);
    migrate(db);
    db.prepare(`UPDATE print_jobs SET state = 'unconfirmed'`).run();
    expect(db.prepare('SELECT state FROM print_jobs').get()).toEqual({ state: 'unconfirmed' });
    expect(() => db.prepare(`UPDATE print_jobs SET state = 'bogus'`).run()).toThrow(/CHECK/);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });

  it('print jobs: `spooled` is a state (handed to the print system, not confirmed printed); others are still refused', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, 13));
    db.prepare(
      `INSERT INTO print_jobs (kind, printer_id, format, title, state, created_at, updated_at) VALUES ('print', 'z', 'zpl', 't', 'sent', 'x', 'x')`,
    ).run();
    expect(() => db.prepare(`UPDATE print_jobs SET state = 'spooled'`).run()).toThrow(/CHECK/);
    migrate(db);
    db.prepare(`UPDATE print_jobs SET state = 'spooled'`).run();
    expect(db.prepare('SELECT state FROM print_jobs').get()).toEqual({ state: 'spooled' });
    db.prepare(`UPDATE print_jobs SET state = 'unconfirmed'`).run();
    expect(() => db.prepare(`UPDATE print_jobs SET state = 'bogus'`).run()).toThrow(/CHECK/);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('23: a worker keeps their row of wrong PINs and their wait; workers from before start with none', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, 22));
    db.prepare(
      "INSERT INTO operators (name, badge, pin_hash, created_at) VALUES ('Žaneta Dvořáková', 'EMP-9', '$2b$x', 'x')",
    ).run();
    migrate(db);
    expect(db.prepare('SELECT name, badge, pin_wrong_in_row, pin_locked_until FROM operators').get()).toEqual({
      name: 'Žaneta Dvořáková',
      badge: 'EMP-9',
      pin_wrong_in_row: 0,
      pin_locked_until: null,
    });
    expect(() => db.prepare('UPDATE operators SET pin_wrong_in_row = -1').run()).toThrow(/CHECK/);
  });

  it('24: workers from before are no supervisors; a hold names its parcel and the desk action that began it', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, 23));
    db.prepare(
      "INSERT INTO operators (name, badge, pin_hash, created_at) VALUES ('Žaneta Dvořáková', 'EMP-9', '$2b$x', 'x')",
    ).run();
    migrate(db);
    expect(db.prepare('SELECT name, supervisor FROM operators').get()).toEqual({
      name: 'Žaneta Dvořáková',
      supervisor: 0,
    });
    expect(() => db.prepare('UPDATE operators SET supervisor = 2').run()).toThrow(/CHECK/);
    db.pragma('foreign_keys = ON');
    const action = db
      .prepare(
        "INSERT INTO desk_actions (at, desk, action, account_id, delivery_id, reason_code, note) VALUES ('x', 'Stůl 1', 'parcel_held', 'a', 7, 'other', 'Chybí dárkové balení')",
      )
      .run().lastInsertRowid;
    db.prepare(
      "INSERT INTO shelf_holds (account_id, code, delivery_id, held_action_id) VALUES ('a', 'ORD-7', 7, ?)",
    ).run(action);
    expect(db.prepare('SELECT code, delivery_id, ended_action_id FROM shelf_holds').get()).toEqual({
      code: 'ORD-7',
      delivery_id: 7,
      ended_action_id: null,
    });
    expect(() =>
      db.prepare("INSERT INTO shelf_holds (account_id, code, held_action_id) VALUES ('a', 'X', 999)").run(),
    ).toThrow(/FOREIGN KEY/);
  });

  it('25: a reprint names the package it printed alone (null: every label of the parcel)', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, 24));
    db.prepare(
      "INSERT INTO desk_actions (at, desk, action, account_id, delivery_id, reason_code, note) VALUES ('x', 'Stůl 1', 'reprint', 'a', 7, 'other', 'Štítek se odlepil')",
    ).run();
    migrate(db);
    db.prepare(
      "INSERT INTO desk_actions (at, desk, action, account_id, delivery_id, reason_code, package_number) VALUES ('y', 'Stůl 1', 'reprint', 'a', 7, 'lost', 2)",
    ).run();
    expect(db.prepare('SELECT note, package_number FROM desk_actions ORDER BY id').all()).toEqual([
      { note: 'Štítek se odlepil', package_number: null },
      { note: null, package_number: 2 },
    ]);
    expect(() =>
      db
        .prepare("INSERT INTO desk_actions (at, desk, action, package_number) VALUES ('z', 'Stůl 1', 'reprint', 0)")
        .run(),
    ).toThrow(/CHECK/);
  });

  it('15: a print job keeps the label counter mark (null for jobs written before)', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, 14));
    db.prepare(
      `INSERT INTO print_jobs (kind, printer_id, format, title, state, created_at, updated_at) VALUES ('print', 'z', 'zpl', 'Štítek 1', 'sent', 'x', 'x')`,
    ).run();
    migrate(db);
    expect(db.prepare('SELECT title, counter_at, counter_labels FROM print_jobs').get()).toEqual({
      title: 'Štítek 1',
      counter_at: null,
      counter_labels: null,
    });
    db.prepare('UPDATE print_jobs SET counter_at = 31084, counter_labels = 3').run();
    expect(db.prepare('SELECT counter_at, counter_labels FROM print_jobs').get()).toEqual({
      counter_at: 31084,
      counter_labels: 3,
    });
  });

  it('17: the shipment cache becomes a rowid table and keeps its rows and their packages (test/integration/store/shipmentsRowidMigration.test.ts: a big file)', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, migrations.slice(0, 16));
    db.prepare(
      `INSERT INTO shipments (account_id, delivery_id, state, search_text, data, synced_at) VALUES ('a', 7, 1, 'x', '{}', 't')`,
    ).run();
    db.prepare(
      `INSERT INTO shipment_packages (account_id, delivery_id, position, barcode) VALUES ('a', 7, 0, 'PKG7')`,
    ).run();
    migrate(db);
    expect(db.prepare('SELECT rowid > 0 AS r, delivery_id FROM shipments').get()).toEqual({ r: 1, delivery_id: 7 });
    expect(db.prepare('SELECT barcode FROM shipment_packages').all()).toEqual([{ barcode: 'PKG7' }]);
    db.prepare('DELETE FROM shipments').run();
    expect(db.prepare('SELECT count(*) AS n FROM shipment_packages').get()).toEqual({ n: 0 });
  });

  it('upgrade a database written by an older station step by step', () => {
    const db = new Database(':memory:');
    migrate(db, migrations.slice(0, 1));
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    migrate(db);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
  });

  it('refuse a database from a newer station instead of damaging it', () => {
    const db = new Database(':memory:');
    db.pragma(`user_version = ${migrations.length + 1}`);
    expect(() => migrate(db)).toThrow(/newer station/);
  });
});

// --- Shipment cache migrations (003-006): schema after each, and an old file upgrading. ---
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { openDatabase } from '../../../electron/store/database';
import { m003Shipments } from '../../../electron/store/migrations/003_shipments';
import { m004CollectionPlaces } from '../../../electron/store/migrations/004_collection_places';
import { m005Labels } from '../../../electron/store/migrations/005_labels';
import { m006ScanLog } from '../../../electron/store/migrations/006_scan_log';
import { m007Accounts } from '../../../electron/store/migrations/007_accounts';
import { m008EndOfDay } from '../../../electron/store/migrations/008_end_of_day';
import { m009ProtocolsElsewhere } from '../../../electron/store/migrations/009_protocols_elsewhere';
import { m024ProblemShelf } from '../../../electron/store/migrations/024_problem_shelf';
import { m026PickupOrderShipments } from '../../../electron/store/migrations/026_pickup_order_shipments';
import { m027PackedLabelBytes } from '../../../electron/store/migrations/027_packed_label_bytes';
import { m028JobLabelLinks } from '../../../electron/store/migrations/028_job_label_links';
import { m029FoldedJobEvents } from '../../../electron/store/migrations/029_folded_job_events';
import { m030FoldedJournalSteps } from '../../../electron/store/migrations/030_folded_journal_steps';
import { m031SlimShipmentRows } from '../../../electron/store/migrations/031_slim_shipment_rows';
import { m032HistoryIndexesByShipment } from '../../../electron/store/migrations/032_history_indexes_by_shipment';
import { createShipmentsRepo } from '../../../electron/store/shipmentsRepo';
import { createAddressBookRepo } from '../../../electron/store/addressBookRepo';
import { shipmentRecord } from '../../support/shipmentRecords';
import { createJournalRepo } from '../../../electron/store/journalRepo';
import { createScanLogRepo } from '../../../electron/store/scanLogRepo';
import { createAuditTrailRepo } from '../../../electron/store/auditTrailRepo';
import { createStatisticsRepo } from '../../../electron/store/statisticsRepo';
import { createPrintJobsRepo } from '../../../electron/store/printJobsRepo';
import { createLabelsRepo } from '../../../electron/store/labelsRepo';
import { createSettingsRepo } from '../../../electron/store/settingsRepo';
import { createRetention } from '../../../electron/retention/retention';
import { steppableClock } from '../../support/steppableClock';

describe('shipment cache migrations', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  function tempFile(): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'station-migrations-'));
    dirs.push(dir);
    return path.join(dir, 'station.db');
  }
  /** Opens a temp file migrated up to and including `m`. */
  function upTo(m: (typeof migrations)[number]): Database.Database {
    const n = migrations.indexOf(m) + 1;
    expect(n).toBeGreaterThan(0);
    const db = new Database(tempFile());
    migrate(db, migrations.slice(0, n));
    return db;
  }
  const indexesOf = (db: Database.Database, table: string) =>
    (db.prepare(`SELECT name FROM pragma_index_list(?)`).all(table) as { name: string }[]).map((r) => r.name);
  const columnsOf = (db: Database.Database, table: string) =>
    (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map((r) => r.name);

  it('shipments: a table keyed by account and deliveryId, indexed by every scannable key', () => {
    const db = upTo(m003Shipments);
    expect(tables(db)).toEqual(
      expect.arrayContaining(['shipments', 'shipment_packages', 'sync_pages', 'sync_state', 'shipment_search']),
    );
    expect(indexesOf(db, 'shipments')).toEqual(
      expect.arrayContaining([
        'shipments_external_id',
        'shipments_delivery_number',
        'shipments_state',
        'shipments_created',
      ]),
    );
    expect(indexesOf(db, 'shipment_packages')).toContain('shipment_packages_barcode');
    expect(columnsOf(db, 'shipments')).toEqual(
      expect.arrayContaining(['account_id', 'etag', 'version', 'value', 'cod']),
    );
    // The same deliveryId may exist under two accounts (two companies never mix).
    const ins = db.prepare(
      "INSERT INTO shipments (account_id, delivery_id, state, search_text, data, synced_at) VALUES (?, 7, 0, '', '{}', 'now')",
    );
    ins.run('a');
    ins.run('b');
    expect(() => ins.run('a')).toThrow(/UNIQUE/);
    // Money is exact text: a decimal string comes back digit for digit, trailing zero included.
    db.prepare("UPDATE shipments SET value = '1234.10' WHERE account_id = 'a'").run();
    expect(db.prepare("SELECT value, typeof(value) AS t FROM shipments WHERE account_id = 'a'").get()).toEqual({
      value: '1234.10',
      t: 'text',
    });
    db.close();
  });

  it('collection places: per account, with an active flag', () => {
    const db = upTo(m004CollectionPlaces);
    expect(columnsOf(db, 'collection_places')).toEqual(
      expect.arrayContaining(['account_id', 'identificator', 'name', 'street', 'postal_code', 'active', 'synced_at']),
    );
    db.close();
  });

  it('labels: documents with byte parts, linked to the shipments they cover, cascading on delete', () => {
    const db = upTo(m005Labels);
    db.pragma('foreign_keys = ON');
    expect(tables(db)).toEqual(expect.arrayContaining(['label_documents', 'label_parts', 'label_shipments']));
    db.prepare(
      "INSERT INTO label_documents (id, account_id, format, variant, fetched_at) VALUES (1, 'a', 'zpl', 'zpl:10x15', 'now')",
    ).run();
    db.prepare("INSERT INTO label_parts VALUES (1, 0, x'5e5841')").run();
    db.prepare("INSERT INTO label_shipments VALUES (1, 'a', 42)").run();
    expect(() =>
      db
        .prepare(
          "INSERT INTO label_documents (account_id, format, variant, fetched_at) VALUES ('a', 'png', 'x', 'now')",
        )
        .run(),
    ).toThrow(/CHECK/);
    db.prepare('DELETE FROM label_documents WHERE id = 1').run();
    expect(db.prepare('SELECT COUNT(*) AS n FROM label_parts').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM label_shipments').get()).toEqual({ n: 0 });
    db.close();
  });

  it('scan log: every scan with time, outcome and shipment', () => {
    const db = upTo(m006ScanLog);
    expect(columnsOf(db, 'scan_log')).toEqual(
      expect.arrayContaining([
        'id',
        'account_id',
        'code',
        'raw_code',
        'scanned_at',
        'outcome',
        'delivery_id',
        'matched_by',
      ]),
    );
    expect(indexesOf(db, 'scan_log')).toContain('scan_log_account');
    db.close();
  });

  it('accounts: no secret columns, at most one active account', () => {
    const db = upTo(m007Accounts);
    const cols = columnsOf(db, 'accounts');
    expect(cols).toEqual(expect.arrayContaining(['id', 'environment', 'base_url', 'client_id', 'active']));
    expect(cols.filter((c) => /secret|token/.test(c))).toEqual([]);
    const ins = db.prepare(
      "INSERT INTO accounts VALUES (?, 'Firm', 'test', NULL, 'cid', 53682, '/callback', 'delivery', 'now', ?)",
    );
    ins.run('a', 1);
    ins.run('b', 0);
    expect(() => ins.run('c', 1)).toThrow(/UNIQUE/);
    db.close();
  });

  it('end of day: protocols keep their PDF and shipments; one pick-up order per carrier, place and day', () => {
    const db = upTo(m008EndOfDay);
    db.pragma('foreign_keys = ON');
    expect(tables(db)).toEqual(
      expect.arrayContaining(['collection_protocols', 'collection_protocol_shipments', 'pickup_orders']),
    );
    db.prepare("INSERT INTO collection_protocols VALUES ('a', 5, 'NP', 'WH', 'c', x'25504446', NULL, 'now')").run();
    db.prepare("INSERT INTO collection_protocol_shipments VALUES ('a', 5, 1001)").run();
    const order = db.prepare(
      "INSERT INTO pickup_orders (account_id, agent, collection_place, scheduled, received_at, delivery_ids) VALUES ('a', 'NP', 'WH', '2026-11-23', 'now', '[]')",
    );
    order.run();
    expect(() => order.run()).toThrow(/UNIQUE/);
    db.prepare('DELETE FROM collection_protocols WHERE protocol_id = 5').run();
    expect(db.prepare('SELECT COUNT(*) AS n FROM collection_protocol_shipments').get()).toEqual({ n: 0 });
    db.close();
  });

  it("pick-up orders: a day's shipments move from the order's list to rows of their own, one per shipment", () => {
    const db = upTo(m024ProblemShelf);
    db.prepare(
      "INSERT INTO pickup_orders (account_id, agent, collection_place, scheduled, received_at, delivery_ids) VALUES ('a', 'NP', 'Sklad Říčany', '2026-11-23', 'now', '[1003,1001,1002]')",
    ).run();
    migrate(db, migrations.slice(0, migrations.indexOf(m026PickupOrderShipments) + 1));
    expect(columnsOf(db, 'pickup_orders')).not.toContain('delivery_ids');
    expect(db.prepare('SELECT delivery_id FROM pickup_order_shipments ORDER BY delivery_id').pluck().all()).toEqual([
      1001, 1002, 1003,
    ]);
    const add = db.prepare('INSERT INTO pickup_order_shipments (order_id, delivery_id) VALUES (1, ?)');
    expect(() => add.run(1001)).toThrow(/UNIQUE|PRIMARY/);
    db.pragma('foreign_keys = ON');
    db.prepare('DELETE FROM pickup_orders').run();
    expect(db.prepare('SELECT count(*) FROM pickup_order_shipments').pluck().get()).toBe(0);
    db.close();
  });

  it('label bytes: kept parts and print jobs may be stored deflated with their length; those from before read as they were', () => {
    const db = upTo(m026PickupOrderShipments);
    db.prepare(
      "INSERT INTO label_documents (id, account_id, format, variant, fetched_at) VALUES (1, 'a', 'zpl', 'zpl:10x15', 'now')",
    ).run();
    db.prepare("INSERT INTO label_parts VALUES (1, 0, x'5e5841')").run();
    migrate(db, migrations.slice(0, migrations.indexOf(m027PackedLabelBytes) + 1));
    expect(columnsOf(db, 'label_parts')).toContain('size');
    expect(columnsOf(db, 'print_job_bytes')).toContain('size');
    expect(db.prepare('SELECT bytes, size FROM label_parts').get()).toEqual({ bytes: Buffer.from('^XA'), size: null });
    db.close();
  });

  it("28: a printed label written before is kept once after the upgrade and the retention's next run, and its job's reprint reads the same bytes", async () => {
    const file = tempFile();
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    migrate(old, migrations.slice(0, migrations.indexOf(m027PackedLabelBytes) + 1));
    // As the station before wrote a closed shipment's two labels and its printed job (bytes as they came).
    const parts = ['^XA^CI28^FDBalík 1/2 Žluťoučký kůň^FS^XZ', '^XA^CI28^FDBalík 2/2 Žluťoučký kůň^FS^XZ'];
    const at = new Date().toISOString();
    old
      .prepare(
        "INSERT INTO label_documents (id, account_id, format, variant, fetched_at) VALUES (7, 'acc', 'zpl', 'zpl:default', ?)",
      )
      .run(at);
    parts.forEach((p, i) =>
      old.prepare('INSERT INTO label_parts (document_id, position, bytes) VALUES (7, ?, ?)').run(i, Buffer.from(p)),
    );
    old.prepare("INSERT INTO label_shipments VALUES (7, 'acc', 4242)").run();
    old
      .prepare(
        `INSERT INTO print_jobs (id, kind, printer_id, format, label_ref, title, delivery_ids, state, created_at, updated_at, finished_at)
         VALUES (3, 'print', 'zebra', 'zpl', 'zpl:4242', 'Shipment 4242 (2 labels)', '[4242]', 'done', ?, ?, ?)`,
      )
      .run(at, at, at);
    const sent = Buffer.from(parts.join('\n'));
    old.prepare('INSERT INTO print_job_bytes (job_id, bytes) VALUES (3, ?)').run(sent);
    old.close();

    const db = openDatabase(file);
    expect(tables(db)).toContain('print_job_labels');
    const jobs = createPrintJobsRepo(db);
    expect(jobs.payload(3)?.equals(sent)).toBe(true);
    await createRetention({
      db,
      settings: createSettingsRepo(db),
      clock: steppableClock(),
      dataDir: path.dirname(file),
      log: { info: () => undefined, error: () => undefined },
    }).run();
    // One copy left: the kept label's; the job prints it byte for byte and keeps its size on the queue screen.
    expect(db.prepare('SELECT count(*) FROM print_job_bytes').pluck().get()).toBe(0);
    expect(jobs.payload(3)?.equals(sent)).toBe(true);
    expect(jobs.get(3)?.bytes).toBe(sent.length);
    expect(createLabelsRepo(db).get(7)?.parts.map(String)).toEqual(parts);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.close();
  });

  it("29: a printed job's history written before reads the same once the retention folds it past the labels window", async () => {
    const file = tempFile();
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    migrate(old, migrations.slice(0, migrations.indexOf(m028JobLabelLinks) + 1));
    // Printed 100 days ago: past the labels window (90 days), inside the history's (400).
    const printed = Date.now() - 100 * 86_400_000;
    const t = (s: number) => new Date(printed + s * 1000 + 250).toISOString();
    old
      .prepare(
        `INSERT INTO print_jobs (id, kind, printer_id, format, title, state, created_at, updated_at, finished_at)
         VALUES (9, 'print', 'zebra', 'zpl', 'Zásilka 9', 'done', ?, ?, ?)`,
      )
      .run(t(0), t(40), t(40));
    const events = [
      [t(0), 'queued', null, null],
      [t(1), 'sending', null, null],
      [t(2), 'failed', 'paper_out', 'Došel papír'],
      [t(30), 'sending', null, null],
      [t(31), 'sent', null, null],
      [t(40), 'done', null, null],
    ];
    for (const [at, state, code, reason] of events)
      old
        .prepare('INSERT INTO print_job_events (job_id, at, state, reason_code, reason) VALUES (9, ?, ?, ?, ?)')
        .run(at, state, code, reason);
    old.close();

    const db = openDatabase(file);
    const jobs = createPrintJobsRepo(db);
    const before = jobs.history(9);
    expect(before.map((e) => [e.at, e.state, e.reasonCode, e.reason])).toEqual(events);
    const clock = steppableClock();
    await createRetention({
      db,
      settings: createSettingsRepo(db),
      clock,
      dataDir: path.dirname(file),
      log: { info: () => undefined, error: () => undefined },
    }).run();
    expect(db.prepare('SELECT count(*) FROM print_job_events').pluck().get()).toBe(0);
    expect(jobs.history(9)).toEqual(before);
    db.close();
  });

  it("30: a settled journal entry's steps written before read the same once the retention folds them past the labels window; an open one keeps its rows", async () => {
    const file = tempFile();
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    migrate(old, migrations.slice(0, migrations.indexOf(m029FoldedJobEvents) + 1));
    // Scanned 100 days ago: past the labels window (90 days), inside the history's (400).
    const scanned = Date.now() - 100 * 86_400_000;
    const t = (s: number) => new Date(scanned + s * 1000 + 250).toISOString();
    const entry = old.prepare(
      `INSERT INTO journal_entries (id, account_id, source, code, delivery_id, want, step, outcome, created_at, updated_at)
       VALUES (?, 'acc', 'scan', ?, ?, 'close_and_print', ?, ?, ?, ?)`,
    );
    entry.run(1, 'ŠTÍTEK-1', 7001, 'queued', null, t(0), t(9));
    entry.run(2, 'ŠTÍTEK-2', 7002, 'resolved', null, t(20), t(21));
    const steps = [
      [1, t(0), 'received', null],
      [1, t(1), 'resolved', null],
      [1, t(2), 'weighed', 'weight_from_scale'],
      [1, t(3), 'close_requested', null],
      [1, '2026-01-01T00:00:00Z', 'closed', null],
      [1, t(9), 'queued', null],
      [2, t(20), 'received', null],
      [2, t(21), 'resolved', null],
    ];
    for (const row of steps)
      old.prepare('INSERT INTO journal_steps (entry_id, at, step, reason_code) VALUES (?, ?, ?, ?)').run(...row);
    old.close();

    const db = openDatabase(file);
    const journal = createJournalRepo(db, createScanLogRepo(db));
    const trail = createAuditTrailRepo(db);
    const stats = createStatisticsRepo(db);
    const seen = () => ({
      steps: [1, 2].map((id) => journal.steps(id)),
      trail: trail.ofDelivery('acc', 7001),
      day: stats.entries(new Date(scanned - 86_400_000), new Date(scanned + 86_400_000)),
      closedHere: journal.closedHere('acc', 7001),
    });
    const before = seen();
    expect(before.steps[0]!.map((x) => [1, x.at, x.step, x.reason_code])).toEqual(steps.slice(0, 6));
    expect(before.day.map((e) => e.closedAt)).toEqual(['2026-01-01T00:00:00Z', null]);
    expect(before.closedHere).toBe(true);
    await createRetention({
      db,
      settings: createSettingsRepo(db),
      clock: steppableClock(),
      dataDir: path.dirname(file),
      log: { info: () => undefined, error: () => undefined },
    }).run();
    expect(db.prepare('SELECT entry_id, count(*) AS n FROM journal_steps GROUP BY 1').all()).toEqual([
      { entry_id: 2, n: 2 },
    ]);
    expect(db.prepare('SELECT entry_id FROM journal_history').pluck().all()).toEqual([1]);
    expect(seen()).toEqual(before);
    db.close();
  });

  it('31: a cached shipment written before reads the same on every screen, counts as unchanged when synced again, and its list needs no second key index', () => {
    const file = tempFile();
    const old = new Database(file);
    migrate(old, migrations.slice(0, migrations.indexOf(m030FoldedJournalSteps) + 1));
    // As the station before stored a synced shipment: its columns and the whole record in `data`.
    const rec = shipmentRecord(4242, {
      deliveryNumber: 'DR0042',
      state: 1,
      stateName: 'Neodeslaná',
      cod: '99.90',
      codCurrency: 'CZK',
      closed: '2026-11-20T11:00:00+01:00',
      recipient: { ...shipmentRecord(1).recipient, firstname: 'Jiří', surname: 'Šťastný' },
      packages: [{ barcode: 'BAL-Ž1', weight: '1.5', length: null, width: null, height: null }],
    });
    const r = rec;
    old
      .prepare(
        `INSERT INTO shipments (account_id, delivery_id, external_id, delivery_number, state, agent, delivery_type,
           collection_place, value, value_currency, cod, created, created_day, closed, search_text, data, etag, version, synced_at)
         VALUES ('acc', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'ord-4242', ?, '"e7"', 3, '2026-11-20T10:30:00.000Z')`,
      )
      .run(
        r.deliveryId,
        r.externalId,
        r.deliveryNumber,
        r.state,
        r.agent,
        r.deliveryType,
        r.collectionPlace,
        r.value,
        r.valueCurrency,
        r.cod,
        r.created,
        r.created!.slice(0, 10),
        r.closed,
        JSON.stringify(rec),
      );
    old.prepare(`INSERT INTO shipment_packages VALUES ('acc', 4242, 0, 'BAL-Ž1', '1.5')`).run();
    old.close();

    const db = openDatabase(file);
    expect(indexesOf(db, 'shipments')).not.toContain('shipments_list');
    const repo = createShipmentsRepo(db);
    const whole = { ...rec, accountId: 'acc', etag: '"e7"', version: 3, syncedAt: '2026-11-20T10:30:00.000Z' };
    // The detail, the scanner's lookups, the list's row and the address book read what was stored.
    expect(repo.get('acc', 4242)).toEqual(whole);
    expect(repo.findByExternalId('acc', 'ORD-4242')).toEqual([whole]);
    expect(repo.findByPackageBarcode('acc', 'BAL-Ž1')).toEqual([whole]);
    expect(repo.query('acc', { offset: 0, limit: 200 })).toMatchObject({
      total: 1,
      items: [
        { deliveryId: 4242, deliveryNumber: 'DR0042', cod: '99.90', recipientName: 'Jiří Šťastný', packageCount: 1 },
      ],
    });
    expect(
      createAddressBookRepo(db)
        .usedParties('acc', 2000)
        .map((p) => [p.role, p.party]),
    ).toEqual([
      ['recipient', rec.recipient],
      ['sender', rec.sender],
    ]);
    // The same record from the service again is no change: the version stays, the row too.
    expect(repo.upsertMany('acc', [rec], new Date('2026-11-21T08:00:00Z'))).toEqual([]);
    expect(repo.get('acc', 4242)).toMatchObject({ version: 3, etag: '"e7"' });
    // The list's pages walk the primary key's own index, without reading a record.
    const plan = db
      .prepare(
        "EXPLAIN QUERY PLAN SELECT delivery_id FROM shipments WHERE account_id = 'acc' ORDER BY delivery_id DESC LIMIT 200",
      )
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join()).toMatch(/COVERING INDEX sqlite_autoindex_shipments_1/);
    db.close();
  });

  it("32: two companies' scans, journal and kept labels of the same deliveryId read apart and the same after the upgrade, found through the index by shipment", () => {
    const file = tempFile();
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    migrate(old, migrations.slice(0, migrations.indexOf(m031SlimShipmentRows) + 1));
    // The same deliveryId at two companies (two environments of the service), each scanned and printed.
    const at = new Date('2026-11-20T09:00:00Z');
    const write = (d: Database.Database, accountId: string, code: string) => {
      const scanLog = createScanLogRepo(d);
      const journal = createJournalRepo(d, scanLog);
      const { scanId, entry } = journal.receiveScans([{ accountId, code, rawCode: null, at }], () => 5005)[0]!;
      journal.step([entry.id], 'closed', new Date(at.getTime() + 60), { noSideEffect: true });
      scanLog.update(scanId, { outcome: 'printed', deliveryId: 5005, matchedBy: 'externalId' });
      createLabelsRepo(d).saveAll(
        [
          {
            accountId,
            variant: { format: 'zpl', size: 'default' },
            deliveryIds: [5005],
            parts: [Buffer.from(`^XA^FD${code}^FS^XZ`)],
          },
        ],
        at,
      );
    };
    // Today's scan log writes migration 33's column: there while today's repos write and read the old file.
    old.exec('ALTER TABLE scan_log ADD COLUMN page_ref TEXT');
    write(old, 'acc-a', 'OBJ-Č1');
    write(old, 'acc-b', 'OBJ-Ř2');
    const seen = (d: Database.Database) =>
      ['acc-a', 'acc-b'].map((acc) => ({
        scans: createScanLogRepo(d).forShipment(acc, 5005),
        trail: createAuditTrailRepo(d).ofDelivery(acc, 5005),
        labels: createLabelsRepo(d)
          .allFor(acc, 5005)
          .map((l) => l.parts.map(String)),
        closedHere: createJournalRepo(d, createScanLogRepo(d)).closedHere(acc, 5005),
      }));
    const before = seen(old);
    expect(before.map((b) => [b.scans.map((x) => x.code), b.labels])).toEqual([
      [['OBJ-Č1'], [['^XA^FDOBJ-Č1^FS^XZ']]],
      [['OBJ-Ř2'], [['^XA^FDOBJ-Ř2^FS^XZ']]],
    ]);
    old.exec('ALTER TABLE scan_log DROP COLUMN page_ref');
    old.close();

    const db = openDatabase(file);
    expect(seen(db)).toEqual(before);
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((p) => p.detail).join();
    expect(plan("SELECT * FROM scan_log WHERE account_id = 'acc-a' AND delivery_id = 5005")).toMatch(
      /INDEX scan_log_delivery \(delivery_id=\?\)/,
    );
    expect(plan("SELECT * FROM journal_entries WHERE account_id = 'acc-a' AND delivery_id = 5005")).toMatch(
      /INDEX journal_delivery \(delivery_id=\?\)/,
    );
    expect(plan("SELECT * FROM label_shipments WHERE account_id = 'acc-a' AND delivery_id = 5005")).toMatch(
      /INDEX label_shipments_delivery \(delivery_id=\?\)/,
    );
    db.close();
  });

  it("33: the scan log's rows of before stay, with no page's name; a page's scan is found by its name among the last 5,000 scans", () => {
    const file = tempFile();
    const old = new Database(file);
    migrate(old, migrations.slice(0, migrations.indexOf(m032HistoryIndexesByShipment) + 1));
    old
      .prepare(
        "INSERT INTO scan_log (account_id, code, scanned_at, outcome) VALUES ('acc-a', 'OBJ-Ž1', '2026-11-20T09:00:00.000Z', 'printed')",
      )
      .run();
    old.close();

    const db = openDatabase(file);
    const scanLog = createScanLogRepo(db);
    expect(scanLog.recent('acc-a').map((x) => [x.code, x.outcome])).toEqual([['OBJ-Ž1', 'printed']]);
    const at = new Date('2026-11-30T08:00:00Z');
    const sent = scanLog.record({
      accountId: 'acc-a',
      code: 'OBJ-Ř2',
      scannedAt: at,
      pageRef: 'page-ref-of-scan-0001',
    });
    expect(scanLog.byPageRef('page-ref-of-scan-0001')).toBe(sent);
    expect(scanLog.byPageRef('page-ref-of-scan-0002')).toBeNull();
    // 5,000 scans later a page no longer asks (it asks within minutes of its socket's return).
    db.transaction(() => {
      for (let i = 0; i < 4_999; i++) scanLog.record({ accountId: 'acc-a', code: `OBJ-${i}`, scannedAt: at });
    })();
    expect(scanLog.byPageRef('page-ref-of-scan-0001')).toBe(sent);
    scanLog.record({ accountId: 'acc-a', code: 'OBJ-last', scannedAt: at });
    expect(scanLog.byPageRef('page-ref-of-scan-0001')).toBeNull();
    db.close();
  });

  it("shipments on another desk's protocol: one row per account and shipment", () => {
    const db = upTo(m009ProtocolsElsewhere);
    const ins = db.prepare("INSERT INTO protocol_elsewhere_shipments VALUES (?, 1001, 'now')");
    ins.run('a');
    ins.run('b');
    expect(() => ins.run('a')).toThrow(/UNIQUE/);
    db.close();
  });

  it('operators: a badge belongs to one current worker; entries from before keep no operator; desk actions name theirs', () => {
    const file = tempFile();
    const old = new Database(file);
    migrate(old, migrations.slice(0, migrations.indexOf(m016Operators)));
    old
      .prepare(
        `INSERT INTO journal_entries (account_id, source, want, step, created_at, updated_at)
         VALUES ('a', 'scan', 'close_and_print', 'ended', '2026-11-01T08:00:00Z', '2026-11-01T08:00:00Z')`,
      )
      .run();
    migrate(old);
    expect(old.prepare('SELECT operator_id, desk FROM journal_entries').get()).toEqual({
      operator_id: null,
      desk: null,
    });
    const add = old.prepare("INSERT INTO operators (name, badge, created_at) VALUES (?, ?, '2026-11-26T08:00:00Z')");
    add.run('Jana Nováková', 'OP-1');
    expect(() => add.run('Petr Dvořák', 'OP-1')).toThrow(/UNIQUE/);
    // A removed worker's badge may be given to someone else; the history keeps the old name.
    old.prepare("UPDATE operators SET removed_at = '2026-11-26T09:00:00Z' WHERE badge = 'OP-1'").run();
    add.run('Petr Dvořák', 'OP-1');
    expect(columnsOf(old, 'desk_actions')).toEqual(
      expect.arrayContaining(['at', 'desk', 'operator_id', 'action', 'delivery_id', 'job_id', 'reason_code', 'note']),
    );
    old.close();
  });

  it('a station file from before the shipment cache upgrades on open and keeps its settings', () => {
    const file = tempFile();
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    migrate(old, migrations.slice(0, migrations.indexOf(m003Shipments)));
    old.prepare("INSERT INTO settings VALUES ('language', '\"cs\"', '2026-11-22T00:00:00Z')").run();
    old.close();

    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(tables(db)).toEqual(
      expect.arrayContaining(['shipments', 'collection_places', 'label_documents', 'scan_log']),
    );
    expect(db.prepare("SELECT value FROM settings WHERE key = 'language'").get()).toEqual({ value: '"cs"' });
    db.close();
  });
});
