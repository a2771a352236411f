/**
 * Labels fetched at close time, kept so a reprint works offline. A document is what one request
 * returned: a PDF (one part; it may cover several shipments, spec "GET tickets") or the ZPL of a
 * shipment (one part per package, spec "ZPL item"). Saving a document replaces older ones of the
 * same format and variant that covered only shipments of the new one.
 */
import type { Db } from './database';
import { createLazyCommit } from './lazyCommit';
import { packBytes, unpackBytes, type PackedBytes } from './packedBytes';

/** How a label was requested: ZPL by size (spec "GET zpl"), PDF by print format and start position (spec "GET tickets"). */
export type LabelVariant =
  | { format: 'zpl'; size: string }
  | { format: 'pdf'; printFormat: 'single' }
  | { format: 'pdf'; printFormat: 'default'; position: 1 | 2 | 3 | 4 };

export function variantKey(v: LabelVariant): string {
  if (v.format === 'zpl') return `zpl:${v.size}`;
  return v.printFormat === 'single' ? 'pdf:single' : `pdf:default@${v.position}`;
}

export function parseVariantKey(format: 'pdf' | 'zpl', key: string): LabelVariant {
  if (format === 'zpl') return { format, size: key.slice('zpl:'.length) };
  if (key === 'pdf:single') return { format, printFormat: 'single' };
  return { format, printFormat: 'default', position: Number(key.slice('pdf:default@'.length)) as 1 | 2 | 3 | 4 };
}

export interface LabelDocument {
  id: number;
  accountId: string;
  variant: LabelVariant;
  /** The shipments the document holds labels of, ascending. */
  deliveryIds: number[];
  /** PDF: one part. ZPL: one part per package, in the service's order. */
  parts: Buffer[];
  /** The service's creation timestamp, when it sent one. */
  created: string | null;
  fetchedAt: string;
}

export interface NewLabelDocument {
  accountId: string;
  variant: LabelVariant;
  deliveryIds: number[];
  parts: Buffer[];
  created?: string | null;
}

interface DocRow {
  id: number;
  account_id: string;
  format: 'pdf' | 'zpl';
  variant: string;
  created: string | null;
  fetched_at: string;
}

export function createLabelsRepo(db: Db) {
  const lazyCommit = createLazyCommit(db);
  const insertDoc = db.prepare(
    'INSERT INTO label_documents (account_id, format, variant, created, fetched_at) VALUES (?, ?, ?, ?, ?)',
  );
  const insertPart = db.prepare('INSERT INTO label_parts (document_id, position, bytes, size) VALUES (?, ?, ?, ?)');
  const insertShipment = db.prepare(
    'INSERT INTO label_shipments (document_id, account_id, delivery_id) VALUES (?, ?, ?)',
  );
  // Documents of this account/format/variant touching the new set and covering nothing outside it;
  // one a printed job's bytes are (migration 28) stays for its reprints, behind the new one.
  const deleteCovered = db.prepare(
    `DELETE FROM label_documents WHERE account_id = @accountId AND format = @format AND variant = @variant
       AND id IN (SELECT document_id FROM label_shipments WHERE account_id = @accountId
                  AND delivery_id IN (SELECT value FROM json_each(@ids)))
       AND NOT EXISTS (SELECT 1 FROM label_shipments ls WHERE ls.document_id = label_documents.id
                       AND ls.delivery_id NOT IN (SELECT value FROM json_each(@ids)))
       AND NOT EXISTS (SELECT 1 FROM print_job_labels l WHERE l.document_id = label_documents.id)`,
  );
  const selectDocsFor = db.prepare<[string, number], DocRow>(
    `SELECT d.* FROM label_documents d JOIN label_shipments s ON s.document_id = d.id
     WHERE s.account_id = ? AND s.delivery_id = ? ORDER BY d.id DESC`,
  );
  const selectDoc = db.prepare<[number], DocRow>('SELECT * FROM label_documents WHERE id = ?');
  const selectParts = db.prepare<[number], PackedBytes>(
    'SELECT bytes, size FROM label_parts WHERE document_id = ? ORDER BY position',
  );
  const selectShipments = db.prepare<[number], { delivery_id: number }>(
    'SELECT delivery_id FROM label_shipments WHERE document_id = ? ORDER BY delivery_id',
  );

  function load(row: DocRow): LabelDocument {
    return {
      id: row.id,
      accountId: row.account_id,
      variant: parseVariantKey(row.format, row.variant),
      deliveryIds: selectShipments.all(row.id).map((r) => r.delivery_id),
      parts: selectParts.all(row.id).map(unpackBytes),
      created: row.created,
      fetchedAt: row.fetched_at,
    };
  }

  const repo = {
    save: db.transaction((doc: NewLabelDocument, now: Date): number => {
      if (doc.deliveryIds.length === 0) throw new Error('A label document needs at least one shipment.');
      if (doc.parts.length === 0) throw new Error('A label document needs at least one part.');
      const key = variantKey(doc.variant);
      const ids = [...new Set(doc.deliveryIds)];
      deleteCovered.run({
        accountId: doc.accountId,
        format: doc.variant.format,
        variant: key,
        ids: JSON.stringify(ids),
      });
      const id = Number(
        insertDoc.run(doc.accountId, doc.variant.format, key, doc.created ?? null, now.toISOString()).lastInsertRowid,
      );
      doc.parts.forEach((bytes, i) => {
        // ZPL is text and deflates to about half; a PDF is deflated inside already.
        const p = doc.variant.format === 'zpl' ? packBytes(bytes) : { bytes, size: null };
        insertPart.run(id, i, p.bytes, p.size);
      });
      for (const d of ids) insertShipment.run(id, doc.accountId, d);
      return id;
    }),
    /**
     * Several documents (one label request's answer) in one lazy commit (./lazyCommit.ts): kept
     * labels allow no side effect (the print jobs carry their own bytes; lost ones are fetched again).
     */
    saveAll(docs: NewLabelDocument[], now: Date): number[] {
      return lazyCommit(() => docs.map((d) => repo.save(d, now)));
    },
    get(id: number): LabelDocument | null {
      const row = selectDoc.get(id);
      return row ? load(row) : null;
    },
    /** The newest stored labels of a shipment, optionally of one variant; null when none (fetch them). */
    latestFor(accountId: string, deliveryId: number, variant?: LabelVariant): LabelDocument | null {
      const key = variant ? variantKey(variant) : null;
      const row = selectDocsFor.all(accountId, deliveryId).find((r) => key === null || r.variant === key);
      return row ? load(row) : null;
    },
    /** Every stored label document of a shipment, newest first (without their bytes' cost mattering: labels are small). */
    allFor: (accountId: string, deliveryId: number): LabelDocument[] =>
      selectDocsFor.all(accountId, deliveryId).map(load),
  };
  return repo;
}

export type LabelsRepo = ReturnType<typeof createLabelsRepo>;
