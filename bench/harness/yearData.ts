/**
 * A station database as a year at a desk leaves it, written through the station's own store
 * functions (electron/store/*Repo.ts, migrations by openDatabase): for each label, the row a sync
 * stores in the shipment cache, the scan as the line receives it (scan log + journal, committed
 * `close_requested` as a lone scan is), its `closed` step, the labels kept for a reprint, the print
 * job with its bytes and its history (queued, sending, sent, done) linked to the entry, and the
 * scan's logged outcome. Historical times go through the functions' time parameters. One
 * transaction a day keeps a year to minutes (the station commits each step on its own: the rows
 * are the same, only fewer disk syncs).
 *
 * Left out (small next to the above, or not made by a plain scan): weights and label checks,
 * desk actions, end-of-day protocols, the cache row's earlier versions (prepared, closed) before
 * its last (delivered).
 */
import { performance } from 'node:perf_hooks';
import type { Delivery } from '../../electron/api/index';
import { zplPrintJobs } from '../../electron/workflows/labelJobs';
import { openDatabase } from '../../electron/store/database';
import { createJournalRepo } from '../../electron/store/journalRepo';
import { createLabelsRepo } from '../../electron/store/labelsRepo';
import { createPrintJobsRepo } from '../../electron/store/printJobsRepo';
import { createScanLogRepo } from '../../electron/store/scanLogRepo';
import { createShipmentsRepo, type ShipmentRecord } from '../../electron/store/shipmentsRepo';
import { shipmentFromDelivery } from '../../electron/sync/shipmentFromDelivery';

const DAY_MS = 86_400_000;
/** A shift's scans spread over 8 hours from 06:00 UTC. */
const SHIFT_START_MS = 6 * 3_600_000;
const SHIFT_MS = 8 * 3_600_000;

export interface YearSpec {
  /** The station's database file (`<data folder>/station.db`), made beforehand by a core's start. */
  dbFile: string;
  accountId: string;
  printerId: string;
  days: number;
  labelsPerDay: number;
  /** The first deliveryId of the year (ids rise by one a label, below the service's newest). */
  firstDeliveryId: number;
  /** The day after the year's last (its labels end the day before). */
  endDay: Date;
  /** A closed shipment as the service answered it, and its ZPL labels: every label of the year is made from them. */
  sample: { delivery: Delivery; zplCodes: string[] };
  onDay?: (day: number, labels: number, ms: number) => void;
}

export interface YearMade {
  labels: number;
  ms: number;
}

export function fillYear(spec: YearSpec): YearMade {
  const db = openDatabase(spec.dbFile);
  const scanLog = createScanLogRepo(db);
  const journal = createJournalRepo(db, scanLog);
  const labels = createLabelsRepo(db);
  const jobs = createPrintJobsRepo(db);
  const shipments = createShipmentsRepo(db);
  const base = shipmentFromDelivery(spec.sample.delivery);
  const route = { format: 'zpl' as const, printerId: spec.printerId };
  const t0 = performance.now();
  let n = 0;
  try {
    const firstDay = Date.UTC(
      spec.endDay.getUTCFullYear(),
      spec.endDay.getUTCMonth(),
      spec.endDay.getUTCDate() - spec.days,
    );
    for (let day = 0; day < spec.days; day++) {
      const d0 = performance.now();
      const dayMs = firstDay + day * DAY_MS;
      db.transaction(() => {
        const records: ShipmentRecord[] = [];
        const ids: number[] = [];
        for (let k = 0; k < spec.labelsPerDay; k++) {
          const deliveryId = spec.firstDeliveryId + n + k;
          ids.push(deliveryId);
          records.push({
            ...base,
            deliveryId,
            externalId: `H-${deliveryId}`,
            deliveryNumber: `DN${deliveryId}`,
            state: 3,
            created: new Date(dayMs - 3_600_000 + k).toISOString(),
            closed: new Date(dayMs + SHIFT_START_MS + k * (SHIFT_MS / spec.labelsPerDay)).toISOString(),
            recipient: { ...base.recipient, surname: `Nováková ${deliveryId % 9973}` },
            packages: base.packages.map((p, i) => ({ ...p, barcode: `HB${deliveryId}${i}` })),
          });
        }
        // The sync stores the day's shipments (in the morning; later syncs update them in place).
        shipments.upsertMany(spec.accountId, records, new Date(dayMs + SHIFT_START_MS - 60_000));
        for (let k = 0; k < spec.labelsPerDay; k++) {
          const deliveryId = ids[k]!;
          const at = new Date(dayMs + SHIFT_START_MS + k * (SHIFT_MS / spec.labelsPerDay));
          const later = (ms: number) => new Date(at.getTime() + ms);
          const code = `H-${deliveryId}`;
          const { scanId, entry } = journal.receiveScans(
            [{ accountId: spec.accountId, code, rawCode: null, at }],
            () => deliveryId,
          )[0]!;
          journal.step([entry.id], 'closed', later(60), { noSideEffect: true });
          labels.saveAll(
            [
              {
                accountId: spec.accountId,
                variant: { format: 'zpl', size: 'default' },
                deliveryIds: [deliveryId],
                parts: spec.sample.zplCodes.map((z) => Buffer.from(z, 'utf8')),
              },
            ],
            later(90),
          );
          const [job] = zplPrintJobs(
            route,
            [{ deliveryId, zplCodes: spec.sample.zplCodes, barcodes: [`HB${deliveryId}0`] }],
            null,
          );
          const stored = jobs.insert(job!, later(95));
          journal.queued(entry.id, [stored.id], later(95));
          jobs.setState(stored.id, 'sending', later(100), { attempt: true });
          jobs.setState(stored.id, 'sent', later(120), { delivered: true, noSideEffect: true });
          jobs.setState(stored.id, 'done', later(900), { noSideEffect: true });
          scanLog.update(scanId, { outcome: 'printed', deliveryId, matchedBy: 'externalId' });
        }
      })();
      n += spec.labelsPerDay;
      spec.onDay?.(day, n, performance.now() - d0);
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return { labels: n, ms: performance.now() - t0 };
}
