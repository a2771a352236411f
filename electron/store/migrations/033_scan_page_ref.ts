import type { Migration } from './index';

/**
 * 33: a scan's page reference, the page's own name for one scan it sent (`scan.submit`'s `ref`).
 * A page whose socket closed before the core's answer came does not know whether the scan arrived:
 * connected again it asks by this name (`scan.submitted`), and the answer holds over a restart of
 * the core (the scan was committed with it before any answer). NULL for scans no page sent
 * (a batch, a shelf's close, the desk's own). No index: only the last few thousand scans are asked
 * for (scanLogRepo.byPageRef walks them by id).
 */
export const m033ScanPageRef: Migration = (db) => {
  db.exec(`ALTER TABLE scan_log ADD COLUMN page_ref TEXT`);
};
