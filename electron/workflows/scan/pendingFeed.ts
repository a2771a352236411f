/**
 * The line of scans as pages know it (`scan.pending`): each change sends the scans it touched, not
 * the whole line, so 1,000 queued scans cost the page 1,000 small changes, not 1,000 lists. The
 * scans touched in one turn of the event loop go out as one change (a scan that leaves the line
 * and the next that starts working are one frame); a scan is sent only when what the page shows
 * of it changed. Each touched scan is one row read (journal.get), never the whole line.
 */
import type { JournalEntry, JournalRepo } from '../../store/journalRepo';
import type { PendingScan, PendingScans, PendingScansChange } from '../schemas';

export function createPendingFeed(
  journal: JournalRepo,
  working: () => number | null,
  onPending?: (change: PendingScansChange) => void,
) {
  const toPending = (e: JournalEntry): PendingScan => ({
    scanId: e.scanId ?? 0,
    code: e.code ?? '',
    receivedAt: e.createdAt,
    state: e.id === working() ? 'working' : 'waiting',
    reason: e.outcome === 'waiting' && e.reasonCode ? { code: e.reasonCode, message: e.reason ?? '' } : null,
  });
  const pending = (): PendingScan[] => journal.unfinishedScans().map(toPending);

  let version = 0;
  /** What pages were told of each scan in line (JSON, by scanId). */
  const told = new Map<number, string>();
  /** Journal entries whose line state may have changed since the last change was sent. */
  const touched = new Set<number>();
  let flushing: NodeJS.Immediate | null = null;
  /** Set once the lane has stopped: the database closes next, so nothing may read it later. */
  let closed = false;
  for (const p of pending()) told.set(p.scanId, JSON.stringify(p));

  function flush(): void {
    if (flushing) clearImmediate(flushing);
    flushing = null;
    const put: PendingScan[] = [];
    const remove: number[] = [];
    for (const id of touched) {
      const e = journal.get(id);
      if (!e || e.source !== 'scan') continue;
      const scanId = e.scanId ?? 0;
      if (e.step === 'queued' || e.step === 'ended') {
        if (told.delete(scanId)) remove.push(scanId);
        continue;
      }
      const p = toPending(e);
      const json = JSON.stringify(p);
      if (told.get(scanId) === json) continue;
      told.set(scanId, json);
      put.push(p);
    }
    touched.clear();
    if (!put.length && !remove.length) return;
    version++;
    onPending?.({ version, put: put.sort((a, b) => a.scanId - b.scanId), remove });
  }

  return {
    pending,

    /** A scan's line state may have changed: it goes out with the others of this turn. */
    changed(entryId: number | null): void {
      if (entryId === null || closed) return;
      touched.add(entryId);
      flushing ??= setImmediate(flush);
    },

    /** The whole line with the version of the last change sent: what a page loads on (re)connect. */
    list(): PendingScans {
      flush();
      const scans = pending();
      // Scans in line since before this run, untouched since: a page knows them from this list.
      for (const p of scans) if (!told.has(p.scanId)) told.set(p.scanId, JSON.stringify(p));
      return { version, scans };
    },

    open(): void {
      closed = false;
    },

    /** The last changes go out now, while the database is open; later ones are not read any more. */
    close(): void {
      if (flushing) flush();
      closed = true;
    },
  };
}
