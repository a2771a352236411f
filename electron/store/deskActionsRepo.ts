/**
 * What a person did at the desk (shared/contract/operators.ts `deskActions`), one row each with the
 * operator and desk signed in at that moment: the audit trail and the statistics read them beside
 * the journal's entries.
 */
import type { DeskAction, DeskWho } from '../../shared/contract/operators';
import type { Db } from './database';

export interface DeskActionInput {
  action: DeskAction;
  at: Date;
  accountId?: string | null;
  deliveryId?: number | null;
  entryId?: number | null;
  jobId?: number | null;
  /** A reprint's reason (reprintReasons), a refusal's code. */
  reasonCode?: string | null;
  /** The worker's own words (a reprint for "other"), or what a refused badge typed. */
  note?: string | null;
  /** A reprint of one package's label: its number (1-based); absent, every label of the parcel. */
  packageNumber?: number | null;
}

export interface DeskActionRow {
  id: number;
  at: string;
  desk: string;
  operatorId: number | null;
  action: DeskAction;
  accountId: string | null;
  deliveryId: number | null;
  entryId: number | null;
  jobId: number | null;
  reasonCode: string | null;
  note: string | null;
  packageNumber: number | null;
}

interface Row {
  id: number;
  at: string;
  desk: string;
  operator_id: number | null;
  action: DeskAction;
  account_id: string | null;
  delivery_id: number | null;
  entry_id: number | null;
  job_id: number | null;
  reason_code: string | null;
  note: string | null;
  package_number: number | null;
}

const toRow = (r: Row): DeskActionRow => ({
  id: r.id,
  at: r.at,
  desk: r.desk,
  operatorId: r.operator_id,
  action: r.action,
  accountId: r.account_id,
  deliveryId: r.delivery_id,
  entryId: r.entry_id,
  jobId: r.job_id,
  reasonCode: r.reason_code,
  note: r.note,
  packageNumber: r.package_number,
});

export function createDeskActionsRepo(db: Db, who: () => DeskWho) {
  const insert = db.prepare(`INSERT INTO desk_actions
    (at, desk, operator_id, action, account_id, delivery_id, entry_id, job_id, reason_code, note, package_number)
    VALUES (@at, @desk, @operatorId, @action, @accountId, @deliveryId, @entryId, @jobId, @reasonCode, @note, @packageNumber)`);
  const ofDelivery = db.prepare<[string, number], Row>(
    'SELECT * FROM desk_actions WHERE account_id = ? AND delivery_id = ? ORDER BY id',
  );
  const between = db.prepare<[string, string], Row>('SELECT * FROM desk_actions WHERE at >= ? AND at < ? ORDER BY id');
  return {
    /** Records `a` with the desk and the operator signed in now; returns its id. */
    record(a: DeskActionInput): number {
      const w = who();
      return Number(
        insert.run({
          at: a.at.toISOString(),
          desk: w.desk,
          operatorId: w.operator?.id ?? null,
          action: a.action,
          accountId: a.accountId ?? null,
          deliveryId: a.deliveryId ?? null,
          entryId: a.entryId ?? null,
          jobId: a.jobId ?? null,
          reasonCode: a.reasonCode ?? null,
          note: a.note ?? null,
          packageNumber: a.packageNumber ?? null,
        }).lastInsertRowid,
      );
    },
    ofDelivery: (accountId: string, deliveryId: number) => ofDelivery.all(accountId, deliveryId).map(toRow),
    /** Actions from `from` (inclusive) to `to` (exclusive), ISO times. */
    between: (from: Date, to: Date) => between.all(from.toISOString(), to.toISOString()).map(toRow),
  };
}

export type DeskActionsRepo = ReturnType<typeof createDeskActionsRepo>;
