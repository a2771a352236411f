/**
 * Telling a keyboard-wedge scanner from a person, by the keystrokes' timing alone. A scanner types
 * a key every few milliseconds and ends with
 * Enter; a person rarely types two keys less than 80 ms apart, and never a whole code that fast.
 *
 * The times are the keydown events' own time stamps (`event.timeStamp`: when the operating system
 * saw the key), not when a handler happened to run: a busy page may handle a scanner's keys in
 * clumps, but their stamps keep the scanner's pace.
 *
 * A burst is a run of characters with no pause longer than `splitGapOf(rules)` (a few times the
 * scanner's gap) between them. It is judged as a whole when Enter comes: a scan when the Enter too
 * follows without such a pause, it holds at least `minLength` characters, and its typical gap (the
 * median, so one late key does not spoil a scan and one fast pair of a person does not make one)
 * is at most `keyGapMs`. A key typed more than two scanner gaps before the rest of the burst is
 * not part of the scan (a person's last key just before the scanner's first).
 *
 * Pure functions over time stamps (ms, any monotonic clock): the DOM side is scanCapture.ts.
 */

export interface BurstRules {
  /** The longest typical pause between two keystrokes of one scan (settings → scanner). */
  keyGapMs: number;
  /** The fewest characters of a scan before its Enter. */
  minLength: number;
}

export const defaultBurstRules: BurstRules = { keyGapMs: 35, minLength: 3 };

export interface Key {
  char: string;
  at: number;
}

/** The longest pause that still keeps two keys in one burst. */
export function splitGapOf(rules: BurstRules): number {
  return rules.keyGapMs * 3;
}

/** Whether a key at `at` belongs to the burst whose last key came at `lastAt`. */
export function continues(lastAt: number | undefined, at: number, rules: BurstRules): boolean {
  return lastAt !== undefined && at >= lastAt && at - lastAt <= splitGapOf(rules);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Whether `keys`, ended by Enter at `enterAt`, hold a scan: the code and the index of its first key, or null. */
export function scanOf(
  keys: readonly Key[],
  enterAt: number,
  rules: BurstRules,
): { code: string; from: number } | null {
  if (!keys.length || !continues(keys[keys.length - 1]!.at, enterAt, rules)) return null;
  // The run of keys before the Enter without a long pause.
  let from = keys.length - 1;
  while (from > 0 && continues(keys[from - 1]!.at, keys[from]!.at, rules)) from--;
  // A first key well before the rest is a person's, not the scanner's.
  while (from < keys.length - 1 && keys[from + 1]!.at - keys[from]!.at > 2 * rules.keyGapMs) from++;
  const run = keys.slice(from);
  if (run.length < rules.minLength) return null;
  const gaps = [...run.slice(1).map((k, i) => k.at - run[i]!.at), enterAt - run[run.length - 1]!.at];
  if (median(gaps) > rules.keyGapMs) return null;
  return { code: run.map((k) => k.char).join(''), from };
}

/** Whether the keys so far look like a scan under way (for how long held keys wait for more). */
export function looksFast(keys: readonly Key[], rules: BurstRules): boolean {
  if (keys.length < 2) return false;
  return median(keys.slice(1).map((k, i) => k.at - keys[i]!.at)) <= rules.keyGapMs;
}

/** A whole key sequence (characters and '\n' for Enter) with its times: the scans found in it. For tests and reasoning. */
export function scansIn(keys: readonly { key: string; at: number }[], rules: BurstRules = defaultBurstRules): string[] {
  const scans: string[] = [];
  let burst: Key[] = [];
  for (const { key, at } of keys) {
    if (key === '\n') {
      const s = scanOf(burst, at, rules);
      if (s) scans.push(s.code);
      burst = [];
    } else {
      if (!continues(burst[burst.length - 1]?.at, at, rules)) burst = [];
      burst.push({ char: key, at });
    }
  }
  return scans;
}
