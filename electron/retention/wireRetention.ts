/**
 * Retention (keep), wired by the composition root (electron/station.ts): old label bytes, history
 * and photos leave in slices in the background, and a run waits for the checkpointer whenever the
 * write-ahead log passed its bound (store/database.ts).
 */
import type { Clock } from '../base/clock';
import type { Logger } from '../rpc/rpcServer';
import type { StationStore } from '../store/wireStore';
import { createRetention, type RetentionOptions } from './retention';

export function wireRetention(o: {
  store: StationStore;
  clock: Clock;
  dataDir: string;
  log: Logger;
  photos: RetentionOptions['photos'];
  /** Scans on their way to a label, which the run gives way to (wired after it: read when a run goes). */
  scans: RetentionOptions['scans'];
}) {
  return createRetention({
    db: o.store.db,
    settings: o.store.settings,
    clock: o.clock,
    dataDir: o.dataDir,
    log: o.log,
    wal: o.store.wal,
    photos: o.photos,
    scans: o.scans,
  });
}
