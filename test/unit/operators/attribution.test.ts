/**
 * Who packed it: a journal entry keeps the operator and desk signed in when it began, whoever is
 * signed in when the background finishes it; a desk action keeps the one who did it.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDeskOperator } from '../../../electron/operators/deskOperator';
import { openDatabase } from '../../../electron/store/database';
import { createDeskActionsRepo } from '../../../electron/store/deskActionsRepo';
import { createJournalRepo } from '../../../electron/store/journalRepo';
import { createScanLogRepo } from '../../../electron/store/scanLogRepo';

const t0 = new Date('2026-11-26T08:00:00Z');

function fresh() {
  const db = openDatabase(path.join(mkdtempSync(path.join(os.tmpdir(), 'attribution-')), 'station.db'));
  const add = db.prepare('INSERT INTO operators (name, badge, created_at) VALUES (?, ?, ?)');
  const jana = {
    id: Number(add.run('Jana Nováková', 'OP-1', t0.toISOString()).lastInsertRowid),
    name: 'Jana Nováková',
  };
  const petr = { id: Number(add.run('Petr Dvořák', 'OP-2', t0.toISOString()).lastInsertRowid), name: 'Petr Dvořák' };
  const desk = createDeskOperator(() => 'Balicí stůl 3');
  return {
    desk,
    jana,
    petr,
    journal: createJournalRepo(db, createScanLogRepo(db), desk.who),
    actions: createDeskActionsRepo(db, desk.who),
  };
}

describe('who packed it', () => {
  it('a scan is the operator’s who scanned it, even when the close comes after another signed in', () => {
    const { desk, jana, petr, journal } = fresh();
    desk.signIn(jana);
    const { entry } = journal.receiveScan({ accountId: 'a', code: 'ORD-1001', rawCode: null, at: t0 });
    desk.signOut();
    desk.signIn(petr);
    journal.step([entry.id], 'closed', new Date(t0.getTime() + 2000), { deliveryId: 1001 });
    expect(journal.get(entry.id)).toMatchObject({ operatorId: jana.id, desk: 'Balicí stůl 3', step: 'closed' });
    const [next] = journal.begin([{ accountId: 'a', source: 'reprint', deliveryId: 1001, want: 'print' }], t0);
    expect(next).toMatchObject({ operatorId: petr.id, desk: 'Balicí stůl 3' });
  });

  it('nobody signed in: the entry names the desk and no operator', () => {
    const { journal } = fresh();
    const { entry } = journal.receiveScan({ accountId: 'a', code: 'ORD-1002', rawCode: null, at: t0 });
    expect(entry).toMatchObject({ operatorId: null, desk: 'Balicí stůl 3' });
  });

  it('a desk action keeps who did it and why', () => {
    const { desk, jana, actions } = fresh();
    desk.signIn(jana);
    actions.record({
      action: 'reprint',
      at: t0,
      accountId: 'a',
      deliveryId: 1001,
      reasonCode: 'other',
      note: 'Štítek se roztrhl',
    });
    desk.signOut();
    expect(actions.ofDelivery('a', 1001)).toEqual([
      expect.objectContaining({
        action: 'reprint',
        operatorId: jana.id,
        desk: 'Balicí stůl 3',
        reasonCode: 'other',
        note: 'Štítek se roztrhl',
        at: t0.toISOString(),
      }),
    ]);
  });
});
