/**
 * What goes to the pages, gathered, so 1,000 queued scans push at most a few
 * hundred KB to the page. In a burst the core changes the same lists many times a second; a
 * page needs each entry's latest value, not every step. A feed sends the first change at once (a
 * single scan is not delayed) and then at most one gathered change per window, carrying each
 * touched entry once. Only what goes to the pages is gathered: the core's own listeners (the
 * job waiter) keep getting every change as it happens.
 */
import type { PendingScansChange, ScanOutcome } from '../../shared/contract/workflows';

/**
 * How long changes to a followed list are gathered in a burst: at most two frames a second per
 * list (the first change after a quiet spell goes at once). The frames a burst costs grow with
 * how long it lasts, not with how many scans it has: 1,000 scans at 50 ms per service request
 * take about two minutes.
 */
const PAGE_WINDOW_MS = 500;

/** Sends at once when idle, then at most once per `ms` while changes keep coming. */
function throttled(ms: number, flush: () => void): { poke(): void; stop(): void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let dirty = false;
  const arm = () => {
    timer = setTimeout(() => {
      timer = null;
      if (!dirty) return;
      dirty = false;
      flush();
      arm();
    }, ms);
    // A feed never keeps the process alive on its own (a station closing, a test ending).
    timer.unref?.();
  };
  return {
    poke() {
      if (timer) {
        dirty = true;
        return;
      }
      flush();
      arm();
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      dirty = false;
    },
  };
}

interface VersionedChange<T, K> {
  version: number;
  since?: number;
  put: T[];
  remove: K[];
}

/**
 * A followed list's changes (shared/contract/workflows.ts listChange), several made one: from the
 * first one's `since` to the last one's `version`, each key's last value once. An entry removed
 * and put again is in both (removals go first), so it moves to the end as it did step by step.
 * A page holding any version in between ends where the last change leaves it, as every step
 * sets or deletes a key to its final value.
 */
export function createListChangeFeed<T, K>(o: {
  key(entry: T): K;
  send(change: Required<VersionedChange<T, K>>): void;
  windowMs?: number;
}) {
  let since: number | null = null;
  let version = 0;
  let put = new Map<K, T>();
  let remove = new Set<K>();
  const gate = throttled(o.windowMs ?? PAGE_WINDOW_MS, () => {
    if (since === null) return;
    const change = { since, version, put: [...put.values()], remove: [...remove] };
    since = null;
    put = new Map();
    remove = new Set();
    o.send(change);
  });
  return {
    change(c: VersionedChange<T, K>): void {
      since ??= c.since ?? c.version - 1;
      version = c.version;
      for (const k of c.remove) {
        put.delete(k);
        remove.add(k);
      }
      // A key already put keeps its place among the new ones (the order they came into the list).
      for (const e of c.put) put.set(o.key(e), e);
      gate.poke();
    },
    stop: gate.stop,
  };
}

/**
 * Per key, the latest value since the last send (the jobs whose state changed, the accounts whose
 * shipments changed); `send` gets them in the order they first changed.
 */
export function createLatestFeed<K, V>(o: {
  merge(prev: V | undefined, next: V): V;
  send(entries: [K, V][]): void;
  windowMs?: number;
}) {
  let latest = new Map<K, V>();
  const gate = throttled(o.windowMs ?? PAGE_WINDOW_MS, () => {
    if (!latest.size) return;
    const entries = [...latest];
    latest = new Map();
    o.send(entries);
  });
  return {
    change(key: K, value: V): void {
      latest.set(key, o.merge(latest.get(key), value));
      gate.poke();
    },
    stop: gate.stop,
  };
}

/** More shipments than this in one window go as "everything may have changed" (`all`). */
export const SHIPMENTS_NAMED_MAX = 500;

/**
 * `shipments.changed`, one per account per window with the union of the shipments it names: lists
 * of shipments reload at most once a second in a burst (each event makes a page ask again).
 */
export function createShipmentsChangedFeed(
  send: (e: { accountId: string; deliveryIds: number[]; all?: boolean }) => void,
  windowMs = 1000,
) {
  const feed = createLatestFeed<string, Set<number> | 'all'>({
    windowMs,
    merge: (prev, next) => {
      if (prev === 'all' || next === 'all') return 'all';
      const ids = prev ?? new Set<number>();
      for (const id of next) ids.add(id);
      return ids.size > SHIPMENTS_NAMED_MAX ? 'all' : ids;
    },
    send: (entries) => {
      for (const [accountId, ids] of entries)
        send(ids === 'all' ? { accountId, deliveryIds: [], all: true } : { accountId, deliveryIds: [...ids] });
    },
  });
  return {
    changed: (accountId: string, deliveryIds: number[]) => feed.change(accountId, new Set(deliveryIds)),
    stop: feed.stop,
  };
}

/**
 * A scan's outcome as pages get it: one frame per scan (1,000 in a burst), so the values the
 * contract lets go unsaid are left out (`reprint` false, a queued scan's `reason` null).
 */
export function outcomeForPages(o: ScanOutcome): ScanOutcome {
  if (o.kind !== 'printed' && o.kind !== 'queued') return o;
  const { reprint, ...rest } = o;
  const slim: ScanOutcome = reprint ? o : rest;
  if (slim.kind === 'queued' && slim.reason === null) {
    const { reason: _none, ...noReason } = slim;
    return noReason;
  }
  return slim;
}

/** A scan in line as pages get it: no `reason` while it has none. */
export function pendingForPages(c: Required<PendingScansChange>): PendingScansChange {
  return { ...c, put: c.put.map(({ reason, ...p }) => (reason ? { ...p, reason } : p)) };
}
