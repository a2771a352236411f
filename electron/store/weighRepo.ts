/**
 * The weighing and label-check parts of the journal (migration 13). Weights are written per
 * package as they are taken, each in its own commit: a crash or an outage after the second of
 * three packages keeps two weights, and the scan resumes at the third.
 */
import type { Db } from './database';

export type WeightSource = 'scale' | 'skipped' | 'timeout';

export interface PackageWeight {
  packageIndex: number;
  /** Kilograms, exact; null when the worker skipped (the shipment's own weight stands). */
  kg: string | null;
  /** The scale's own words, e.g. "2.5 lb" (kept for the record). */
  reading: string | null;
  source: WeightSource;
  at: string;
}

export interface LabelCheck {
  entryId: number;
  accountId: string;
  deliveryId: number;
  barcodes: string[];
  /** The package labels scanned so far. */
  seen: string[];
  printedAt: string;
  verifiedAt: string | null;
  mismatches: number;
}

interface CheckRow {
  entry_id: number;
  account_id: string;
  delivery_id: number;
  barcodes: string;
  seen: string;
  printed_at: string;
  verified_at: string | null;
  mismatches: number;
}

const toCheck = (r: CheckRow): LabelCheck => ({
  entryId: r.entry_id,
  accountId: r.account_id,
  deliveryId: r.delivery_id,
  barcodes: JSON.parse(r.barcodes) as string[],
  seen: JSON.parse(r.seen) as string[],
  printedAt: r.printed_at,
  verifiedAt: r.verified_at,
  mismatches: r.mismatches,
});

export function createWeighRepo(db: Db) {
  const putWeight = db.prepare(
    'INSERT OR REPLACE INTO journal_weights (entry_id, package_index, kg, reading, source, at) VALUES (@entryId, @packageIndex, @kg, @reading, @source, @at)',
  );
  const weightsOf = db.prepare<
    [number],
    { package_index: number; kg: string | null; reading: string | null; source: WeightSource; at: string }
  >('SELECT package_index, kg, reading, source, at FROM journal_weights WHERE entry_id = ? ORDER BY package_index');
  const putUpdate = db.prepare(
    'INSERT OR REPLACE INTO journal_weight_updates (entry_id, outcome, at) VALUES (?, ?, ?)',
  );
  const updateOf = db.prepare<[number], { outcome: 'updated' | 'within_tolerance'; at: string }>(
    'SELECT outcome, at FROM journal_weight_updates WHERE entry_id = ?',
  );
  const latestWeighed = db.prepare<[string, number], { entry_id: number }>(
    `SELECT w.entry_id FROM journal_weights w JOIN journal_entries e ON e.id = w.entry_id
     WHERE e.account_id = ? AND e.delivery_id = ? ORDER BY w.entry_id DESC LIMIT 1`,
  );
  const putCheck = db.prepare(
    `INSERT OR IGNORE INTO label_checks (entry_id, account_id, delivery_id, barcodes, printed_at) VALUES (@entryId, @accountId, @deliveryId, @barcodes, @printedAt)`,
  );
  const openChecks = db.prepare<[string], CheckRow>(
    `SELECT * FROM label_checks WHERE account_id = ? AND verified_at IS NULL ORDER BY entry_id DESC`,
  );
  const setSeen = db.prepare('UPDATE label_checks SET seen = ? WHERE entry_id = ?');
  const setVerified = db.prepare('UPDATE label_checks SET verified_at = ? WHERE entry_id = ?');
  const addMismatch = db.prepare('UPDATE label_checks SET mismatches = mismatches + 1 WHERE entry_id = ?');

  const toWeights = (entryId: number): PackageWeight[] =>
    weightsOf
      .all(entryId)
      .map((r) => ({ packageIndex: r.package_index, kg: r.kg, reading: r.reading, source: r.source, at: r.at }));

  return {
    /** Runs fn in one transaction (batch mode begins its journal entries and records their weights together). */
    atomically<T>(fn: () => T): T {
      return db.transaction(fn)();
    },
    recordWeight(entryId: number, w: PackageWeight): void {
      putWeight.run({ entryId, ...w });
    },
    weightsOf: toWeights,
    /** The weights of the last weighed scan of a shipment (the outcome screen shows them). */
    weightsOfShipment(accountId: string, deliveryId: number): PackageWeight[] {
      const r = latestWeighed.get(accountId, deliveryId);
      return r ? toWeights(r.entry_id) : [];
    },
    recordUpdate(entryId: number, outcome: 'updated' | 'within_tolerance', at: Date): void {
      putUpdate.run(entryId, outcome, at.toISOString());
    },
    updateOf: (entryId: number) => updateOf.get(entryId) ?? null,

    /** A label to check: the parcel's package barcodes, known once it is closed. */
    expectCheck(c: {
      entryId: number;
      accountId: string;
      deliveryId: number;
      barcodes: string[];
      printedAt: Date;
    }): void {
      putCheck.run({ ...c, barcodes: JSON.stringify(c.barcodes), printedAt: c.printedAt.toISOString() });
    },
    /** Checks still open, newest first. */
    openChecks: (accountId: string): LabelCheck[] => openChecks.all(accountId).map(toCheck),
    /** A package label of the check was scanned; the check is done when every one was. Returns those still to scan. */
    seenLabel(check: LabelCheck, barcode: string, at: Date): string[] {
      const seen = [...new Set([...check.seen, barcode])];
      const left = check.barcodes.filter((b) => !seen.includes(b));
      db.transaction(() => {
        setSeen.run(JSON.stringify(seen), check.entryId);
        if (!left.length) setVerified.run(at.toISOString(), check.entryId);
      })();
      return left;
    },
    mismatch(entryId: number): void {
      addMismatch.run(entryId);
    },
  };
}

export type WeighRepo = ReturnType<typeof createWeighRepo>;
