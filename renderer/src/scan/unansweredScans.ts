/**
 * The scans this tab sent whose answer was lost with the socket (`reply_lost`), kept in the tab's
 * sessionStorage: a worker who reloads the page while the station is unreachable (F5 on a screen
 * that says "working") gets that scan's fate after the reload too, its outcome or "it did not
 * reach the station", instead of a clean screen that says nothing of it.
 *
 * What is read back is the page's own earlier writing, but sessionStorage is the page's to change,
 * so it is checked as input: a list of at most MAX names of the contract's form (`scanPageRef`),
 * each with a code.
 */
import { scanPageRef } from '../../../shared/contract/workflows';
import { MAX_CODE_LENGTH } from '../../../shared/scan/normaliseScan';

export interface UnansweredScan {
  /** The name the page gave the scan (`scan.submit`'s `ref`). */
  ref: string;
  /** The code as the screen showed it. */
  code: string;
}

const KEY = 'station.unansweredScans';
/** More than a desk scans while its station is unreachable before the worker notices. */
const MAX = 50;

function isUnanswered(x: unknown): x is UnansweredScan {
  if (typeof x !== 'object' || x === null) return false;
  const { ref, code } = x as Record<string, unknown>;
  return scanPageRef.safeParse(ref).success && typeof code === 'string' && code.length <= MAX_CODE_LENGTH;
}

/** The scans kept by this tab before its reload (none when storage is off or holds anything else). */
export function keptUnanswered(): UnansweredScan[] {
  try {
    const list: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? '[]');
    return Array.isArray(list) ? list.filter(isUnanswered).slice(-MAX) : [];
  } catch {
    return [];
  }
}

/** Keeps the list of scans still unanswered (the newest MAX); an empty list removes the key. */
export function keepUnanswered(list: readonly UnansweredScan[]): void {
  try {
    if (list.length) sessionStorage.setItem(KEY, JSON.stringify(list.slice(-MAX)));
    else sessionStorage.removeItem(KEY);
  } catch {
    // Storage off (a private window's quota): the scans are still asked about until a reload.
  }
}
