/**
 * The line of scans: a scan is accepted at once (it gets a number and a place in the list the UI
 * shows), and the work runs one scan at a time in scan order, so a fast scanner never loses a scan
 * or overtakes itself while one is in flight.
 */
import type { PendingScan } from './schemas';

export interface ScanLine {
  /** Adds work to the end of the line; `work` runs when every earlier one has finished. */
  add<T>(scan: Omit<PendingScan, 'state'>, work: () => Promise<T>): Promise<T>;
  pending(): PendingScan[];
}

export function createScanLine(onChange: (pending: PendingScan[]) => void): ScanLine {
  const list: PendingScan[] = [];
  let tail: Promise<unknown> = Promise.resolve();
  const changed = () => onChange(list.map((p) => ({ ...p })));

  return {
    add(scan, work) {
      const entry: PendingScan = { ...scan, state: 'waiting' };
      list.push(entry);
      changed();
      const run = tail.then(async () => {
        entry.state = 'working';
        changed();
        try {
          return await work();
        } finally {
          list.splice(list.indexOf(entry), 1);
          changed();
        }
      });
      // The line goes on whatever one scan's work did.
      tail = run.catch(() => undefined);
      return run;
    },
    pending: () => list.map((p) => ({ ...p })),
  };
}
