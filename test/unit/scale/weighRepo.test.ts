/**
 * Migration 13 and the weighing / label-check parts of the journal: weights kept per package with
 * their source, the update recorded once, label checks open until verified, on a real SQLite file.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/store/database';
import { createJournalRepo } from '../../../electron/store/journalRepo';
import { createScanLogRepo } from '../../../electron/store/scanLogRepo';
import { createWeighRepo } from '../../../electron/store/weighRepo';

function fresh() {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'weigh-repo-')), 'station.db');
  const db = openDatabase(file);
  const journal = createJournalRepo(db, createScanLogRepo(db));
  return { file, db, journal, repo: createWeighRepo(db) };
}

describe('migration 13: weights and label checks in the journal', () => {
  it('keeps each package’s weight and source across a reopen, and the update once', () => {
    const { file, db, journal, repo } = fresh();
    const { entry } = journal.receiveScan({
      accountId: 'a',
      code: 'ORD-1002',
      rawCode: null,
      at: new Date('2026-11-24T08:00:00Z'),
    });
    repo.recordWeight(entry.id, {
      packageIndex: 0,
      kg: '1.5',
      reading: '1.5 kg',
      source: 'scale',
      at: '2026-11-24T08:00:01Z',
    });
    repo.recordWeight(entry.id, {
      packageIndex: 1,
      kg: null,
      reading: null,
      source: 'skipped',
      at: '2026-11-24T08:00:09Z',
    });
    journal.note(entry.id, 'weighed', new Date('2026-11-24T08:00:10Z'), 'weight_updated');
    repo.recordUpdate(entry.id, 'updated', new Date('2026-11-24T08:00:10Z'));
    db.close();

    const again = openDatabase(file);
    const r = createWeighRepo(again);
    expect(r.weightsOf(entry.id)).toEqual([
      { packageIndex: 0, kg: '1.5', reading: '1.5 kg', source: 'scale', at: '2026-11-24T08:00:01Z' },
      { packageIndex: 1, kg: null, reading: null, source: 'skipped', at: '2026-11-24T08:00:09Z' },
    ]);
    expect(r.updateOf(entry.id)).toEqual({ outcome: 'updated', at: '2026-11-24T08:00:10.000Z' });
    // The desk's step sits in the entry's history with the others, in order.
    expect(
      createJournalRepo(again, createScanLogRepo(again))
        .steps(entry.id)
        .map((s) => s.step),
    ).toEqual(['received', 'weighed']);
    // A source the station does not know is refused by the schema.
    expect(() =>
      r.recordWeight(entry.id, { packageIndex: 2, kg: '1', reading: null, source: 'guess' as never, at: 'x' }),
    ).toThrow();
    again.close();
  });

  it('label checks stay open, newest first, until the right label is scanned', () => {
    const { journal, repo } = fresh();
    const [a, b] = journal.begin(
      [
        { accountId: 'a', source: 'scan', deliveryId: 11, want: 'close_and_print' },
        { accountId: 'a', source: 'scan', deliveryId: 12, want: 'close_and_print' },
      ],
      new Date('2026-11-24T09:00:00Z'),
    );
    repo.expectCheck({
      entryId: a!.id,
      accountId: 'a',
      deliveryId: 11,
      barcodes: ['SP1'],
      printedAt: new Date('2026-11-24T09:00:05Z'),
    });
    repo.expectCheck({
      entryId: b!.id,
      accountId: 'a',
      deliveryId: 12,
      barcodes: ['SP2', 'SP3'],
      printedAt: new Date('2026-11-24T09:01:05Z'),
    });
    expect(repo.openChecks('a').map((c) => c.deliveryId)).toEqual([12, 11]);
    repo.mismatch(b!.id);
    // Two packages, two labels: one scanned leaves the check open.
    expect(repo.seenLabel(repo.openChecks('a')[0]!, 'SP3', new Date('2026-11-24T09:01:20Z'))).toEqual(['SP2']);
    expect(repo.openChecks('a').map((c) => c.deliveryId)).toEqual([12, 11]);
    expect(repo.seenLabel(repo.openChecks('a')[0]!, 'SP2', new Date('2026-11-24T09:01:30Z'))).toEqual([]);
    expect(repo.openChecks('a')).toEqual([
      {
        entryId: a!.id,
        accountId: 'a',
        deliveryId: 11,
        barcodes: ['SP1'],
        seen: [],
        printedAt: '2026-11-24T09:00:05.000Z',
        verifiedAt: null,
        mismatches: 0,
      },
    ]);
    expect(repo.openChecks('b')).toEqual([]);
  });
});
