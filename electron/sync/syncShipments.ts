/**
 * Sync of the shipment cache with the service: one cursor walk with `deliveryId>` (spec "GET
 * /api/v3/deliveries": at most 100 per response, comparison filters), starting low enough to
 * revisit the shipments that can still change, and running to the newest. Every page is sent with
 * If-None-Match carrying the ETag stored for that page, so an unchanged page costs a 304.
 *
 * Resumable and safe to interrupt: a page is checked whole before any of it is stored, then its
 * shipments are stored in short slices (the event loop runs between them) and its ETag and the
 * cursor commit with the last slice. A dropped connection or a malformed page leaves the cache as
 * it was after the last good page; a crash inside a page can leave some of its shipments stored
 * (newer data, harmless) but not its cursor, so the next run fetches that page again.
 *
 * Where the walk starts (when no interrupted walk is pending): the lowest cached deliveryId created
 * in the last `recentDays` days, moved down to the boundary of an earlier walk's page holding it
 * (so page ETags match again); with none, the newest cached deliveryId (only new shipments are
 * fetched). An empty cache walks from 0.
 *
 * Older shipments that can still change at the desk (prepared or closed-unsent) are not walked
 * again: after the walk, up to `maxStaleRefresh` of them not stored for `staleMinutes` are
 * re-read by id, 100 per request (spec "Limits").
 */
import { performance } from 'node:perf_hooks';
import type { SyncProgress } from '../../shared/contract/shipments';
import { nextTurn, SLICE_MS, sliceSizer, type SliceSizer } from '../base/slices';
import type { ShipmentsRepo, ShipmentRecord } from '../store/shipmentsRepo';
import type { SyncStateRepo } from '../store/syncStateRepo';
import { shipmentFromDelivery } from './shipmentFromDelivery';
import { toSourceError, type ShipmentSource } from './shipmentSource';

/** The service's maximum per search (spec "Limits"). */
const PAGE_SIZE = 100;

export interface SyncDeps {
  accountId: string;
  source: ShipmentSource;
  shipments: ShipmentsRepo;
  syncState: SyncStateRepo;
  now: () => Date;
  onProgress?: (p: SyncProgress) => void;
  /** Told after each committed page which cached shipments changed. */
  onChanged?: (accountId: string, deliveryIds: number[]) => void;
  /** Shipments get revisited by the walk for this many days after creation (default 14). */
  recentDays?: number;
  /** Older open shipments not stored for this long are re-read by id (default 15). */
  staleMinutes?: number;
  /** At most this many older open shipments are re-read per run (default 1000). */
  maxStaleRefresh?: number;
  /** Storing work per turn of the event loop, ms (default SLICE_MS; 0: one shipment per turn). */
  sliceMs?: number;
  /** The station is closing: the walk stops before its next request or slice (nothing is written after). */
  signal?: AbortSignal;
}

const DAY = 86_400_000;

function recentDay(deps: SyncDeps): string {
  return new Date(deps.now().getTime() - (deps.recentDays ?? 14) * DAY).toISOString().slice(0, 10);
}

function startCursor(deps: SyncDeps): number {
  const pending = deps.syncState.cursor(deps.accountId).cursor;
  if (pending > 0) return pending;
  const from = deps.shipments.recentFrom(deps.accountId, recentDay(deps));
  if (from === 0) return deps.shipments.maxDeliveryId(deps.accountId);
  // Start on an earlier walk's page boundary when one covers `from`: that page's ETag can then match.
  return deps.syncState.pageCursorCovering(deps.accountId, from) ?? from - 1;
}

/** Between two steps of a walk: a station that is closing writes nothing more (its database closes next). */
function stopIfClosing(deps: SyncDeps): void {
  if (deps.signal?.aborted)
    throw new PageError('sync_stopped', 'The station closed during the sync; it goes on at the next start.');
}

class PageError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Stores records in slices of about SLICE_MS, with the event loop running between them (the
 * core never blocks for long), each slice one (lazy) commit; `withLast` commits with the last
 * one. A slice stops at its deadline, and at the count `sizer` gives from the last slices' whole
 * time: the text index is written at a slice's end and at its commit (shipmentsRepo.ts), after
 * the deadline is checked. Returns the deliveryIds whose cached record changed.
 */
async function storeInSlices(
  deps: SyncDeps,
  records: readonly ShipmentRecord[],
  sizer: SliceSizer,
  withLast?: () => void,
): Promise<number[]> {
  const changed: number[] = [];
  let from = 0;
  do {
    // Also before the first slice: reading the page took this turn's share already.
    await nextTurn();
    stopIfClosing(deps);
    const deadline = performance.now() + (deps.sliceMs ?? SLICE_MS);
    from = sizer.timed((most) =>
      deps.syncState.inTransaction(() => {
        const slice = deps.shipments.upsertUntil(deps.accountId, records, from, deadline, deps.now(), most);
        changed.push(...slice.changed);
        if (slice.next === records.length) withLast?.();
        return slice.next;
      }),
    );
  } while (from < records.length);
  return changed;
}

/** Re-reads older open shipments by id, one committed request of up to 100 at a time. */
async function refreshStaleOpen(deps: SyncDeps, progress: SyncProgress, sizer: SliceSizer): Promise<void> {
  const staleBefore = new Date(deps.now().getTime() - (deps.staleMinutes ?? 15) * 60_000);
  const ids = deps.shipments.staleOpenIds(deps.accountId, recentDay(deps), staleBefore, deps.maxStaleRefresh ?? 1000);
  for (let i = 0; i < ids.length; i += PAGE_SIZE) {
    progress.requests++;
    const records = (await deps.source.getMany(ids.slice(i, i + PAGE_SIZE))).map((d) => shipmentFromDelivery(d));
    stopIfClosing(deps);
    const changed = await storeInSlices(deps, records, sizer);
    if (changed.length) deps.onChanged?.(deps.accountId, changed);
    progress.stored += changed.length;
  }
}

/** Runs one walk; never throws: a failure is reported in the result (phase 'failed') and the cursor kept. */
export async function syncShipments(deps: SyncDeps): Promise<SyncProgress> {
  const { accountId, source, syncState } = deps;
  let cursor = startCursor(deps);
  const progress: SyncProgress = {
    accountId,
    phase: 'running',
    pages: 0,
    requests: 0,
    notModified: 0,
    stored: 0,
    cursor,
    error: null,
  };
  // One for the run: each page's slices start from the size the last page's slices came to.
  const sizer = sliceSizer(PAGE_SIZE);
  const report = () => deps.onProgress?.({ ...progress });
  report();
  try {
    for (;;) {
      const pageKey = `deliveryId>${cursor}`;
      const known = syncState.page(accountId, pageKey);
      progress.requests++;
      const result = await source.pageAfter(cursor, PAGE_SIZE, known?.etag ?? null);
      stopIfClosing(deps);
      let count: number;
      let next: number;
      if (result.kind === 'not_modified') {
        if (!known)
          throw new PageError(
            'malformed_response',
            'The service answered 304 Not Modified to a request without an ETag.',
          );
        progress.notModified++;
        count = known.itemCount;
        next = known.lastDeliveryId;
        syncState.inTransaction(() => syncState.saveCursor(accountId, count < PAGE_SIZE ? cursor : next));
      } else {
        const records = result.deliveries.map((d) => shipmentFromDelivery(d));
        count = records.length;
        if (count > PAGE_SIZE)
          throw new PageError(
            'malformed_response',
            `The service returned ${count} shipments where at most ${PAGE_SIZE} were asked for.`,
          );
        next = records.reduce((m, r) => Math.max(m, r.deliveryId), cursor);
        if (records.some((r) => r.deliveryId <= cursor)) {
          throw new PageError(
            'malformed_response',
            `The service returned shipments not after deliveryId ${cursor}; the sync stopped to avoid a loop.`,
          );
        }
        const commitPage = () => {
          if (result.etag)
            syncState.savePage(
              accountId,
              pageKey,
              { afterDeliveryId: cursor, etag: result.etag, lastDeliveryId: next, itemCount: count },
              deps.now(),
            );
          else syncState.forgetPage(accountId, pageKey);
          syncState.saveCursor(accountId, count < PAGE_SIZE ? cursor : next);
        };
        // The page's ETag and the cursor commit with its last slice.
        const changed = await storeInSlices(deps, records, sizer, commitPage);
        if (changed.length) deps.onChanged?.(accountId, changed);
        progress.stored += changed.length;
      }
      progress.pages++;
      if (count < PAGE_SIZE) {
        syncState.markComplete(accountId, deps.now());
        progress.cursor = next;
        break;
      }
      cursor = next;
      progress.cursor = cursor;
      report();
    }
    await refreshStaleOpen(deps, progress, sizer);
    progress.phase = 'done';
    report();
  } catch (err) {
    progress.phase = 'failed';
    progress.error = err instanceof PageError ? { code: err.code, message: err.message } : toSourceError(err);
    report();
  }
  return { ...progress };
}
