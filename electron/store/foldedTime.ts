/**
 * A time in a folded history row (jobHistory.ts, journalHistory.ts): the milliseconds after the
 * row's owner was made, or the time's own ISO text when the milliseconds would not read back as
 * the same text (a time not written by toISOString, a clock set back).
 */
export type FoldedTime = number | string;

export function foldTime(at: string, made: number): FoldedTime {
  const ms = Date.parse(at) - made;
  return Number.isFinite(ms) && new Date(made + ms).toISOString() === at ? ms : at;
}

export function unfoldTime(at: FoldedTime, made: number): string {
  return typeof at === 'number' ? new Date(made + at).toISOString() : at;
}
