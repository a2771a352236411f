/**
 * A list the core keeps and the page follows: the whole list once, on connect
 * and after a reconnect, then only what changed. Each change carries the version it makes; a
 * change older than the list in hand is dropped, and a missing one (a frame lost with the
 * connection) makes the page load the whole list again. Changes that come while the list loads
 * are held and applied after it, so none is lost between the two. A gathered change (`since`:
 * several versions made one, each entry with its latest value) applies to any version from
 * `since` on: it sets or deletes each entry it names to where the last step left it.
 */
/** The page is connected again after a loss: a followed list loads itself whole again. */
export function whenReconnected(
  subscribe: (cb: (s: { connected: boolean }, prev: { connected: boolean }) => void) => unknown,
) {
  return (cb: () => void) => {
    subscribe((s, prev) => {
      if (s.connected && !prev.connected) cb();
    });
  };
}

export interface ListChange<T, K> {
  version: number;
  /** The version this change starts from (several made one); absent: `version` - 1. */
  since?: number;
  put: T[];
  remove: K[];
}

export function followList<T, K>(o: {
  load(): Promise<{ version: number; list: T[] } | null>;
  key(entry: T): K;
  publish(list: T[]): void;
  /** Calls back when the page is connected again after a loss (it may have missed changes). */
  onReconnect?(cb: () => void): void;
}): {
  /** Loads the whole list (again); resolves once it is in hand. */
  reload(): Promise<void>;
  /** One change as the core sent it. */
  apply(change: ListChange<T, K>): void;
} {
  /** By key, in list order (a Map keeps the order entries came in). */
  let entries = new Map<K, T>();
  let version: number | null = null;
  let loading: Promise<void> | null = null;
  let held: ListChange<T, K>[] = [];

  const step = (c: ListChange<T, K>): boolean => {
    if (version !== null && c.version <= version) return true;
    if (version === null || (c.since ?? c.version - 1) > version) return false;
    for (const k of c.remove) entries.delete(k);
    for (const e of c.put) entries.set(o.key(e), e);
    version = c.version;
    return true;
  };

  function reload(): Promise<void> {
    loading ??= (async () => {
      held = [];
      try {
        const r = await o.load();
        if (!r) return;
        entries = new Map(r.list.map((e) => [o.key(e), e]));
        version = r.version;
        const gap = !held.every(step);
        o.publish([...entries.values()]);
        if (gap) queueMicrotask(() => void reload());
      } finally {
        held = [];
        loading = null;
      }
    })();
    return loading;
  }

  function apply(c: ListChange<T, K>): void {
    if (loading) {
      held.push(c);
      return;
    }
    if (!step(c)) {
      void reload();
      return;
    }
    o.publish([...entries.values()]);
  }

  o.onReconnect?.(() => void reload());
  return { reload, apply };
}
