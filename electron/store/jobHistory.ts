/**
 * A print job's history folded into one row (migration 29): its events in order, each as
 * `[state, at, reasonCode?, reason?]` where `at` is the milliseconds after the job was made (the
 * event's own ISO time when it does not read back the same way), trailing nulls left out. Unfolded,
 * the events read as the rows of `print_job_events` did: same states, times, codes and reasons.
 */
import { foldTime, unfoldTime, type FoldedTime } from './foldedTime';

export interface JobEventRow {
  at: string;
  state: string;
  reason_code: string | null;
  reason: string | null;
}

type Folded = [string, FoldedTime, (string | null)?, (string | null)?];

export function foldJobEvents(events: JobEventRow[], createdAt: string): string {
  const made = Date.parse(createdAt);
  return JSON.stringify(
    events.map((e): Folded => {
      const at = foldTime(e.at, made);
      if (e.reason !== null) return [e.state, at, e.reason_code, e.reason];
      return e.reason_code !== null ? [e.state, at, e.reason_code] : [e.state, at];
    }),
  );
}

export function unfoldJobEvents(events: string, createdAt: string): JobEventRow[] {
  const made = Date.parse(createdAt);
  return (JSON.parse(events) as Folded[]).map(([state, at, reasonCode = null, reason = null]) => ({
    at: unfoldTime(at, made),
    state,
    reason_code: reasonCode,
    reason,
  }));
}
