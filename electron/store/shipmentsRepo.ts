/**
 * The shipment cache: narrow reads (by key, by filter page) and one write (upsert from the
 * service). Every statement names the account, so companies never mix. Lookups by scanned code
 * use the partial indexes of migration 003 and never scan the table.
 */
import { performance } from 'node:perf_hooks';
import type { Db } from './database';
import { createLazyCommit } from './lazyCommit';
import type { Shipment, ShipmentPage, ShipmentQuery, ShipmentSummary } from '../../shared/contract/shipments';

/** A shipment as it comes from the service; the cache adds account, version and syncedAt. */
export type ShipmentRecord = Omit<Shipment, 'accountId' | 'version' | 'syncedAt' | 'etag'> & {
  /** Pass a string to store it, null to clear it; absent keeps it when the record did not change. */
  etag?: string | null;
};

/** A shipment's searched text to store, over its index row `rowid` when it has one. */
interface SearchWrite {
  deliveryId: number;
  text: string;
  rowid: number | null;
}

interface ShipmentRow {
  account_id: string;
  delivery_id: number;
  external_id: string | null;
  delivery_number: string | null;
  state: number;
  agent: string | null;
  delivery_type: string | null;
  collection_place: string | null;
  value: string | null;
  value_currency: string | null;
  cod: string | null;
  created: string | null;
  closed: string | null;
  data: string;
  etag: string | null;
  version: number;
  synced_at: string;
}

const columns = `account_id, delivery_id, external_id, delivery_number, state, agent, delivery_type, collection_place,
  value, value_currency, cod, created, closed, data, etag, version, synced_at`;

/**
 * The record's fields its row's columns hold (written by upsertRecords, filtered and looked up by):
 * `data` leaves them out (migration 31), as a year's cache repeated some 270 bytes a row.
 */
const IN_COLUMNS = new Set<string>([
  'deliveryId',
  'externalId',
  'deliveryNumber',
  'state',
  'agent',
  'deliveryType',
  'collectionPlace',
  'value',
  'valueCurrency',
  'cod',
  'created',
  'closed',
  'etag',
]);

/** What `data` holds: the rest of the record (a row written before migration 31 holds the whole). */
type RowData = Omit<Shipment, 'accountId' | 'version' | 'syncedAt' | 'etag'>;

function fromRow(row: ShipmentRow): Shipment {
  const d = JSON.parse(row.data) as RowData;
  // The columns first, as the record had them; a field added to Shipment must be named here (the type says so).
  return {
    deliveryId: row.delivery_id,
    externalId: row.external_id,
    deliveryNumber: row.delivery_number,
    state: row.state,
    stateName: d.stateName,
    agent: row.agent,
    deliveryType: row.delivery_type,
    collectionPlace: row.collection_place,
    recipient: d.recipient,
    sender: d.sender,
    value: row.value,
    valueCurrency: row.value_currency,
    cod: row.cod,
    codCurrency: d.codCurrency,
    variableSymbol: d.variableSymbol,
    ticketNote: d.ticketNote,
    packages: d.packages,
    extraServices: d.extraServices,
    source: d.source,
    sourceName: d.sourceName,
    created: row.created,
    closed: row.closed,
    accountId: row.account_id,
    etag: row.etag,
    version: row.version,
    syncedAt: row.synced_at,
  };
}

/** Lower case without diacritics, so "dvorak" finds "Dvořák". */
export function foldText(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

function recipientName(s: Pick<Shipment, 'recipient'>): string {
  const r = s.recipient;
  // A back shipment goes to one of our collection places: its code is the name a worker knows.
  return (
    [r.firstname, r.surname].filter(Boolean).join(' ') ||
    r.name ||
    r.contactPerson ||
    r.pickUpPlace ||
    r.collectionPlace ||
    ''
  );
}

function searchText(s: ShipmentRecord): string {
  const r = s.recipient;
  return foldText(
    [
      s.deliveryId,
      s.externalId,
      s.deliveryNumber,
      r.firstname,
      r.surname,
      r.name,
      r.contactPerson,
      r.email,
      r.phone,
      r.address?.city,
      r.address?.street,
      r.pickUpPlace,
      s.ticketNote,
      ...s.packages.map((p) => p.barcode),
    ]
      .filter((v) => v !== null && v !== undefined && v !== '')
      .join('\u0001'),
  );
}

/** The record without the fields its columns hold (and its etag, a column too): the row's `data`. */
function dataJson(s: ShipmentRecord): string {
  // Only the record's own keys: a party's collectionPlace or an address's state stay.
  return JSON.stringify(s, function (this: unknown, key: string, value: unknown) {
    return this === s && IN_COLUMNS.has(key) ? undefined : value;
  });
}

/** True when a row's columns hold the record's fields `data` leaves out (a state change touches only them). */
function sameColumns(row: ShipmentRow, s: ShipmentRecord): boolean {
  return (
    row.state === s.state &&
    row.delivery_number === s.deliveryNumber &&
    row.closed === s.closed &&
    row.external_id === s.externalId &&
    row.agent === s.agent &&
    row.delivery_type === s.deliveryType &&
    row.collection_place === s.collectionPlace &&
    row.value === s.value &&
    row.value_currency === s.valueCurrency &&
    row.cod === s.cod &&
    row.created === s.created
  );
}

/** `data` as rows written before migration 31 hold it: the whole record but its etag. */
function wholeDataJson(s: ShipmentRecord): string {
  // Mostly no etag comes along (JSON leaves an undefined key out): then no copy is needed.
  if (s.etag === undefined) return JSON.stringify(s);
  const { etag: _etag, ...rest } = s;
  return JSON.stringify(rest);
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function createShipmentsRepo(db: Db) {
  const selectOne = db.prepare<[string, number], ShipmentRow>(
    `SELECT ${columns} FROM shipments WHERE account_id = ? AND delivery_id = ?`,
  );
  const selectByExternalId = db.prepare<[string, string], ShipmentRow>(
    // INDEXED BY: without it the planner may walk the primary key to serve ORDER BY (a cost that
    // grows with the cache).
    `SELECT ${columns} FROM shipments INDEXED BY shipments_external_id WHERE account_id = ? AND external_id = ? ORDER BY delivery_id DESC LIMIT 20`,
  );
  const selectByDeliveryNumber = db.prepare<[string, string], ShipmentRow>(
    `SELECT ${columns} FROM shipments INDEXED BY shipments_delivery_number WHERE account_id = ? AND delivery_number = ? ORDER BY delivery_id DESC LIMIT 20`,
  );
  const selectByBarcode = db.prepare<[{ accountId: string; code: string }], ShipmentRow>(
    `SELECT ${columns} FROM shipments WHERE account_id = @accountId AND delivery_id IN
       (SELECT delivery_id FROM shipment_packages WHERE account_id = @accountId AND barcode = @code)
     ORDER BY delivery_id DESC LIMIT 20`,
  );
  // Keys a scan could read differently from how they are stored: those that begin with a character
  // a scan drops or changes (white space and control characters below '!', '!' itself, an AIM
  // identifier's ']'). Ranges of the key indexes, so the few candidates are read, not the cache.
  const selectOddKeys = db.prepare<{ accountId: string }, { deliveryId: number; key: string; kind: string }>(
    `SELECT delivery_id AS deliveryId, external_id AS key, 'externalId' AS kind FROM shipments
       WHERE account_id = @accountId AND (external_id < '"' OR (external_id >= ']' AND external_id < '^'))
     UNION ALL
     SELECT delivery_id, delivery_number, 'deliveryNumber' FROM shipments
       WHERE account_id = @accountId AND (delivery_number < '"' OR (delivery_number >= ']' AND delivery_number < '^'))
     UNION ALL
     SELECT delivery_id, barcode, 'barcode' FROM shipment_packages
       WHERE account_id = @accountId AND (barcode < '"' OR (barcode >= ']' AND barcode < '^'))
     LIMIT 1000`,
  );
  const selectCurrent = db.prepare<
    [string, number],
    ShipmentRow & { search_rowid: number | null; search_text: string | null }
  >(`SELECT ${columns}, search_rowid, search_text FROM shipments WHERE account_id = ? AND delivery_id = ?`);
  const updateSearch = db.prepare('UPDATE shipment_search SET body = ? WHERE rowid = ?');
  const insertSearch = db.prepare('INSERT INTO shipment_search (account_id, delivery_id, body) VALUES (?, ?, ?)');
  // Positional parameters: binding by name looks every one up in an object, per record.
  const insertRow = db.prepare(
    `INSERT INTO shipments (account_id, delivery_id, external_id, delivery_number, state, agent, delivery_type,
       collection_place, value, value_currency, cod, created, created_day, closed, search_text, data, etag, version, synced_at, search_rowid)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (account_id, delivery_id) DO UPDATE SET
       external_id = excluded.external_id, delivery_number = excluded.delivery_number, state = excluded.state,
       agent = excluded.agent, delivery_type = excluded.delivery_type, collection_place = excluded.collection_place,
       value = excluded.value, value_currency = excluded.value_currency, cod = excluded.cod, created = excluded.created,
       created_day = excluded.created_day, closed = excluded.closed, search_text = excluded.search_text,
       data = excluded.data, etag = excluded.etag, version = excluded.version, synced_at = excluded.synced_at,
       search_rowid = excluded.search_rowid`,
  );
  const touch = db.prepare('UPDATE shipments SET synced_at = ?, etag = ? WHERE account_id = ? AND delivery_id = ?');
  const deletePackages = db.prepare('DELETE FROM shipment_packages WHERE account_id = ? AND delivery_id = ?');
  const insertPackage = db.prepare(
    'INSERT INTO shipment_packages (account_id, delivery_id, position, barcode, weight) VALUES (?, ?, ?, ?, ?)',
  );
  const selectPackages = db
    .prepare<[string, number], [string | null, string | null]>(
      'SELECT barcode, weight FROM shipment_packages WHERE account_id = ? AND delivery_id = ? ORDER BY position',
    )
    .raw();
  const selectMaxId = db.prepare<[string], { id: number | null }>(
    'SELECT MAX(delivery_id) AS id FROM shipments WHERE account_id = ?',
  );
  // Kept by triggers (migration 22): a COUNT(*) of the account read its whole index.
  const selectCount = db.prepare<[string], { n: number }>(
    'SELECT coalesce((SELECT n FROM shipment_counts WHERE account_id = ?), 0) AS n',
  );
  const selectRecentFrom = db.prepare<[string, string], { id: number | null }>(
    'SELECT MIN(delivery_id) AS id FROM shipments WHERE account_id = ? AND created_day >= ?',
  );
  const selectPrunedByBarcode = db
    .prepare<[string, string], number>(
      'SELECT delivery_id FROM pruned_package_barcodes WHERE account_id = ? AND barcode = ? ORDER BY delivery_id DESC LIMIT 20',
    )
    .pluck();
  // Through the open shipments (their state's index): left to itself the planner walks every
  // shipment created before the day (shipments_created): a year's history read in every sync.
  const selectStaleOpen = db.prepare<[string, string, string, number], { id: number }>(
    `SELECT delivery_id AS id FROM shipments INDEXED BY shipments_state
     WHERE account_id = ? AND state IN (0, 1) AND created_day < ? AND synced_at < ?
     ORDER BY synced_at LIMIT ?`,
  );

  const lazyCommit = createLazyCommit(db);
  /**
   * Stores records; returns the deliveryIds whose cached data changed (new or different). A lazy
   * commit (./lazyCommit.ts): the cache allows no side effect, and what a power cut takes from it
   * is read at the service again.
   */
  const upsertMany = (accountId: string, records: readonly ShipmentRecord[], now: Date): number[] =>
    lazyCommit(() => upsertRecords(accountId, records, 0, Infinity, now, Infinity).changed);
  /**
   * Like upsertMany for records[from..], but stops once `deadline` (performance.now()) has
   * passed or `most` records are stored, after at least one record: a long write cut into slices
   * with the event loop running between them. `next` is where the next slice starts
   * (records.length when all are stored).
   */
  const upsertUntil = (
    accountId: string,
    records: readonly ShipmentRecord[],
    from: number,
    deadline: number,
    now: Date,
    most = Infinity,
  ) => lazyCommit(() => upsertRecords(accountId, records, from, deadline, now, most));

  /** True when the package rows stored for a shipment are the ones `packages` would write. */
  const samePackages = (accountId: string, deliveryId: number, packages: ShipmentRecord['packages']): boolean => {
    const rows = selectPackages.all(accountId, deliveryId);
    return (
      rows.length === packages.length &&
      rows.every(([barcode, weight], i) => barcode === packages[i]!.barcode && weight === packages[i]!.weight)
    );
  };

  const setSearchRowid = db.prepare('UPDATE shipments SET search_rowid = ? WHERE account_id = ? AND delivery_id = ?');

  const upsertRecords = (
    accountId: string,
    records: readonly ShipmentRecord[],
    from: number,
    deadline: number,
    now: Date,
    most: number,
  ) => {
    const changed: number[] = [];
    const searchWrites: SearchWrite[] = [];
    const syncedAt = now.toISOString();
    let i = from;
    while (i < records.length) {
      const s = records[i++]!;
      const data = dataJson(s);
      const current = selectCurrent.get(accountId, s.deliveryId);
      // A row written before migration 31 holds the whole record: unchanged too when that matches.
      if (current && ((current.data === data && sameColumns(current, s)) || current.data === wholeDataJson(s))) {
        touch.run(syncedAt, s.etag === undefined ? current.etag : s.etag, accountId, s.deliveryId);
      } else {
        const text = searchText(s);
        const searchRowid = current?.search_rowid ?? null;
        // A state change leaves the searched fields alone: the text index row stays as it is.
        if (searchRowid === null || current!.search_text !== text)
          searchWrites.push({ deliveryId: s.deliveryId, text, rowid: searchRowid });
        insertRow.run(
          accountId,
          s.deliveryId,
          s.externalId,
          s.deliveryNumber,
          s.state,
          s.agent,
          s.deliveryType,
          s.collectionPlace,
          s.value,
          s.valueCurrency,
          s.cod,
          s.created,
          s.created ? s.created.slice(0, 10) : null,
          s.closed,
          text,
          data,
          // A changed record makes an older ETag stale: keep only one that came with this data.
          s.etag ?? null,
          current ? current.version + 1 : 1,
          syncedAt,
          searchRowid,
        );
        // A new shipment has no package rows (they go with their shipment: ON DELETE CASCADE).
        if (!current || !samePackages(accountId, s.deliveryId, s.packages)) {
          if (current) deletePackages.run(accountId, s.deliveryId);
          s.packages.forEach((p, n) => insertPackage.run(accountId, s.deliveryId, n, p.barcode, p.weight));
        }
        changed.push(s.deliveryId);
      }
      if (i - from >= most || performance.now() >= deadline) break;
    }
    writeSearchText(accountId, searchWrites);
    return { changed, next: i };
  };

  /**
   * The slice's text index rows, after all its shipment rows. A statement that may need undoing
   * on its own (the shipments insert: its count trigger, migration 22) opens a statement
   * savepoint, and FTS5 writes out its pending terms at every savepoint of a transaction it is
   * in: one index write per record, and every 4^n records a merge of all the index's segments
   * (12 ms at 4,096 in a first sync, docs/benchmarks/syncShipments.md). Written last, the index
   * gathers the slice's terms and writes them once, at the commit. A changed text is written
   * over its row in place: a delete and an insert under a new rowid (lower rowid after higher)
   * also makes FTS5 write per record.
   */
  const writeSearchText = (accountId: string, writes: readonly SearchWrite[]) => {
    for (const w of writes) {
      if (w.rowid !== null && updateSearch.run(w.text, w.rowid).changes > 0) continue;
      const rowid = insertSearch.run(accountId, w.deliveryId, w.text).lastInsertRowid;
      setSearchRowid.run(rowid, accountId, w.deliveryId);
    }
  };

  function query(accountId: string, q: ShipmentQuery): ShipmentPage {
    const where: string[] = ['account_id = @accountId'];
    const params: Record<string, unknown> = { accountId };
    const inList = (col: string, name: string, values: readonly unknown[] | undefined) => {
      if (!values || values.length === 0) return;
      const names = values.map((v, i) => {
        params[`${name}${i}`] = v;
        return `@${name}${i}`;
      });
      where.push(`${col} IN (${names.join(', ')})`);
    };
    inList('state', 'state', q.states);
    inList('agent', 'agent', q.agents);
    inList('collection_place', 'place', q.collectionPlaces);
    if (q.createdFrom) {
      where.push('created_day >= @createdFrom');
      params.createdFrom = q.createdFrom;
    }
    if (q.createdTo) {
      where.push('created_day <= @createdTo');
      params.createdTo = q.createdTo;
    }
    const text = q.text ? foldText(q.text.trim()) : '';
    if (text.length >= 3) {
      // Trigram index: a quoted phrase matches as a substring (quotes inside doubled).
      where.push(
        'delivery_id IN (SELECT delivery_id FROM shipment_search WHERE body MATCH @fts AND account_id = @accountId)',
      );
      params.fts = `"${text.replace(/"/g, '""')}"`;
    } else if (text) {
      // Too short for trigrams: scan the folded text (one or two characters narrow little anyway).
      where.push("search_text LIKE @text ESCAPE '\\'");
      params.text = `%${escapeLike(text)}%`;
    }
    const whereSql = where.join(' AND ');
    // No filter but the account: the count its triggers keep.
    const total =
      where.length === 1
        ? selectCount.get(accountId)!.n
        : (db.prepare(`SELECT COUNT(*) AS n FROM shipments WHERE ${whereSql}`).get(params) as { n: number }).n;
    const offset = q.offset ?? 0;
    const limit = q.limit ?? 100;
    // Two steps: the page's ids from the indexes (cheap to skip over), then only those records.
    const ids = db
      .prepare(
        `SELECT delivery_id AS id FROM shipments WHERE ${whereSql} ORDER BY delivery_id DESC LIMIT @limit OFFSET @offset`,
      )
      .all({ ...params, limit, offset }) as { id: number }[];
    const rows = ids.map((r) => selectOne.get(accountId, r.id)!);
    return { total, offset, items: rows.map((r) => toSummary(fromRow(r))) };
  }

  return {
    upsertMany,
    upsertUntil,
    query,
    get(accountId: string, deliveryId: number): Shipment | null {
      const row = selectOne.get(accountId, deliveryId);
      return row ? fromRow(row) : null;
    },
    findByExternalId: (accountId: string, code: string) => selectByExternalId.all(accountId, code).map(fromRow),
    findByDeliveryNumber: (accountId: string, code: string) => selectByDeliveryNumber.all(accountId, code).map(fromRow),
    findByPackageBarcode: (accountId: string, code: string) => selectByBarcode.all({ accountId, code }).map(fromRow),
    /**
     * The account's shipment keys (order number, shipment number, package barcode) that begin with
     * white space, a control character, '!' or ']': the only ones a scan may read as something else
     * than they are stored (shared/scan/normaliseScan.ts). At most 1000.
     */
    oddKeys: (
      accountId: string,
    ): { deliveryId: number; key: string; kind: 'externalId' | 'deliveryNumber' | 'barcode' }[] =>
      selectOddKeys.all({ accountId }) as {
        deliveryId: number;
        key: string;
        kind: 'externalId' | 'deliveryNumber' | 'barcode';
      }[],
    /** deliveryIds of shipments the retention removed whose package had this barcode (migration 019). */
    prunedByPackageBarcode: (accountId: string, code: string): number[] => selectPrunedByBarcode.all(accountId, code),
    maxDeliveryId: (accountId: string): number => selectMaxId.get(accountId)?.id ?? 0,
    count: (accountId: string): number => selectCount.get(accountId)!.n,
    /** The lowest deliveryId created on or after `sinceDay` (YYYY-MM-DD); 0 when none. */
    recentFrom(accountId: string, sinceDay: string): number {
      return selectRecentFrom.get(accountId, sinceDay)?.id ?? 0;
    },
    /** Older shipments still open (prepared or closed-unsent) not stored since `syncedBefore`, least recently synced first. */
    staleOpenIds(accountId: string, createdBeforeDay: string, syncedBefore: Date, limit: number): number[] {
      return selectStaleOpen.all(accountId, createdBeforeDay, syncedBefore.toISOString(), limit).map((r) => r.id);
    },
  };
}

export function toSummary(s: Shipment): ShipmentSummary {
  return {
    deliveryId: s.deliveryId,
    externalId: s.externalId,
    deliveryNumber: s.deliveryNumber,
    state: s.state,
    stateName: s.stateName,
    agent: s.agent,
    deliveryType: s.deliveryType,
    collectionPlace: s.collectionPlace,
    value: s.value,
    valueCurrency: s.valueCurrency,
    cod: s.cod,
    codCurrency: s.codCurrency,
    created: s.created,
    closed: s.closed,
    version: s.version,
    recipientName: recipientName(s),
    recipientCity: s.recipient.address?.city ?? null,
    packageCount: s.packages.length,
  };
}

export type ShipmentsRepo = ReturnType<typeof createShipmentsRepo>;
