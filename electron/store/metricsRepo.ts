/**
 * The counts the metrics endpoint reads at each scrape (electron/metrics/): label jobs not finished
 * per printer and state, and journal entries not finished per source. Both read only rows an index
 * names (print_jobs_state over the unfinished states, the partial journal_unfinished index), so a
 * scrape of a year-old database costs what a scrape of a new one does.
 */
import type { Db } from './database';

/** Job states that still wait for something (the printer, a retry, the worker's word). */
export const WAITING_STATES = ['queued', 'sending', 'sent', 'failed', 'uncertain', 'unconfirmed'] as const;

export function createMetricsRepo(db: Db) {
  const queue = db.prepare<[], { printer_id: string | null; state: string; n: number }>(
    `SELECT printer_id, state, count(*) AS n FROM print_jobs
     WHERE state IN (${WAITING_STATES.map((s) => `'${s}'`).join(', ')}) GROUP BY printer_id, state`,
  );
  const journal = db.prepare<[], { source: string; n: number }>(
    `SELECT source, count(*) AS n FROM journal_entries WHERE step NOT IN ('queued', 'ended') GROUP BY source`,
  );
  return {
    /** Unfinished label jobs per printer (null: not routed yet) and state. */
    queueDepth: () => queue.all().map((r) => ({ printerId: r.printer_id, state: r.state, count: r.n })),
    /** Journal entries not finished (scans, batch closes... waiting or running), per source. */
    unfinishedEntries: () => journal.all().map((r) => ({ source: r.source, count: r.n })),
  };
}

export type MetricsRepo = ReturnType<typeof createMetricsRepo>;
