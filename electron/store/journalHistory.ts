/**
 * A settled journal entry's steps folded into one row (migration 30, `journal_history`): its steps
 * in order, each as `[step, at, reasonCode?]` where `at` is the milliseconds after the entry was
 * made (the step's own ISO time when it does not read back the same way), a null reason left out.
 * Unfolded, the steps read as the rows of `journal_steps` did: same steps, times and codes.
 */
import { foldTime, unfoldTime, type FoldedTime } from './foldedTime';

export interface JournalStepRow {
  at: string;
  step: string;
  reason_code: string | null;
}

type Folded = [string, FoldedTime, string?];

export function foldJournalSteps(steps: JournalStepRow[], createdAt: string): string {
  const made = Date.parse(createdAt);
  return JSON.stringify(
    steps.map((s): Folded => {
      const at = foldTime(s.at, made);
      return s.reason_code !== null ? [s.step, at, s.reason_code] : [s.step, at];
    }),
  );
}

export function unfoldJournalSteps(steps: string, createdAt: string): JournalStepRow[] {
  const made = Date.parse(createdAt);
  return (JSON.parse(steps) as Folded[]).map(([step, at, reasonCode = null]) => ({
    at: unfoldTime(at, made),
    step,
    reason_code: reasonCode,
  }));
}
