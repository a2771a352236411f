/**
 * The print queue as a page shows it: the jobs of one view (the active ones, or
 * all of the newest), loaded once and then kept by the `printing.jobs` changes. A change names
 * each job whose state moved and says its new state; the row shows that at once and the rest of
 * it (attempts, next retry, when) is read for just the jobs named (`printing.queue.follow` with
 * `ids`), as is a job new to the view. Versions as in followList.ts: a missing change (a frame lost
 * with the connection) loads the view again, changes that come while it loads are applied after.
 */
import type { JobState, JobsChange, JobView } from '../../../shared/contract/printing';

export interface JobsView {
  /** Only jobs in these states (absent: every state). */
  states?: JobState[];
  /** The newest this many. */
  limit: number;
}

export type FollowRequest = (
  params: JobsView | { ids: number[] },
) => Promise<{ version: number; jobs: JobView[] } | null>;

/** Ids per read: the contract's limit. */
const IDS_PER_READ = 500;

export function followJobs(o: { view: JobsView; request: FollowRequest; publish(jobs: JobView[]): void }): {
  reload(): Promise<void>;
  apply(change: JobsChange): void;
  /** Resolves once every row a change named has been read (for tests). */
  settled(): Promise<void>;
} {
  const belongs = (state: JobState) => !o.view.states || o.view.states.includes(state);
  let rows = new Map<number, JobView>();
  /** The version each row was last set at: a read older than a change that came first does not undo it. */
  let rowVersion = new Map<number, number>();
  let version: number | null = null;
  let loading: Promise<void> | null = null;
  let held: JobsChange[] = [];
  const toRead = new Set<number>();
  let reading: Promise<void> | null = null;

  const publish = () => {
    const list = [...rows.values()].sort((a, b) => b.id - a.id);
    // Over the view's limit: the oldest leave, as the list call would leave them out.
    for (const j of list.slice(o.view.limit)) rows.delete(j.id);
    o.publish(list.slice(0, o.view.limit));
  };

  const step = (c: JobsChange): boolean => {
    if (version !== null && c.version <= version) return true;
    if (version === null || c.version !== version + 1) return false;
    version = c.version;
    for (const j of c.jobs) {
      const row = rows.get(j.id);
      if (row && !belongs(j.state)) {
        rows.delete(j.id);
        rowVersion.delete(j.id);
        continue;
      }
      if (row) {
        rows.set(j.id, { ...row, state: j.state, reasonCode: j.reasonCode ?? null, reason: j.reason ?? null });
        rowVersion.set(j.id, c.version);
      }
      if (row || belongs(j.state)) toRead.add(j.id);
    }
    return true;
  };

  function readNamed(): Promise<void> {
    if (reading) return reading;
    if (!toRead.size || loading) return Promise.resolve();
    reading = (async () => {
      try {
        do {
          const ids = [...toRead].slice(0, IDS_PER_READ);
          for (const id of ids) toRead.delete(id);
          const r = await o.request({ ids });
          if (!r || loading) continue;
          const got = new Map(r.jobs.map((j) => [j.id, j]));
          for (const id of ids) {
            if ((rowVersion.get(id) ?? -1) > r.version) continue;
            const j = got.get(id);
            if (j && belongs(j.state)) {
              rows.set(id, j);
              rowVersion.set(id, r.version);
            } else {
              rows.delete(id);
              rowVersion.delete(id);
            }
          }
          publish();
        } while (toRead.size && !loading);
      } finally {
        reading = null;
      }
    })();
    return reading;
  }

  function reload(): Promise<void> {
    loading ??= (async () => {
      held = [];
      try {
        const r = await o.request(o.view);
        if (!r) return;
        rows = new Map(r.jobs.map((j) => [j.id, j]));
        rowVersion = new Map(r.jobs.map((j) => [j.id, r.version]));
        version = r.version;
        toRead.clear();
        const gap = !held.every(step);
        publish();
        if (gap) queueMicrotask(() => void reload());
      } finally {
        held = [];
        loading = null;
      }
      void readNamed();
    })();
    return loading;
  }

  function apply(c: JobsChange): void {
    if (loading) {
      held.push(c);
      return;
    }
    if (!step(c)) {
      void reload();
      return;
    }
    publish();
    void readNamed();
  }

  return {
    reload,
    apply,
    async settled() {
      while (loading || reading || toRead.size) await (loading ?? reading ?? readNamed());
    },
  };
}
