/**
 * Reading request values whose types are informative only (spec "Common conventions" 6):
 * 2.3 and "2.3" are equal, numbers may arrive as strings from XML and form bodies, booleans as
 * "1"/"0"/"" (XML writes false as an empty element, form as 0). Each reader returns the value or
 * `undefined` for "absent" and `INVALID` for "present but unusable".
 */

export const INVALID = Symbol('invalid');
export type Read<T> = T | undefined | typeof INVALID;

export function isAbsent(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Text: strings (trimmed) and numbers; '' and null are absent. */
export function readText(v: unknown): Read<string> {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'bigint') return String(v);
  if (typeof v !== 'string') return INVALID;
  const s = v.trim();
  return s === '' ? undefined : s;
}

/** Whole numbers: 30, "30", "30.0"; absent for ''/null. */
export function readInt(v: unknown): Read<number> {
  if (isAbsent(v)) return undefined;
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : null;
  if (s === null || !/^[+-]?\d+(?:[.,]0+)?$/.test(s)) return INVALID;
  const n = Number(s.replace(/[.,]0+$/, ''));
  return Number.isSafeInteger(n) ? n : INVALID;
}

/** Booleans: true/false, 1/0, "1"/"0", "true"/"false", and "" (an empty XML element) as false. */
export function readBool(v: unknown): Read<boolean> {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === '1' || v === 'true') return true;
  if (v === 0 || v === '0' || v === 'false' || v === '') return false;
  return INVALID;
}

/**
 * Arrays from any of the three formats: a JSON array, an object with index keys (form bracket
 * notation "0","1"), or a single object (one repeated XML element). Absent -> [].
 */
export function readList(v: unknown): unknown[] | typeof INVALID {
  if (isAbsent(v)) return [];
  if (Array.isArray(v)) return v as unknown[];
  if (isRecord(v)) {
    const keys = Object.keys(v);
    if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
      return keys.sort((a, b) => Number(a) - Number(b)).map((k) => v[k]);
    }
    return [v];
  }
  return INVALID;
}

/** Phone as stored: every space removed (spec "Delivery: response fields"). */
export function normalisePhone(s: string): string {
  return s.replace(/\s+/g, '');
}

export const PHONE = /^\+?\d{9,15}$/;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const CURRENCIES = ['CZK', 'EUR', 'USD', 'PLN', 'HUF', 'GBP', 'CHF'];
