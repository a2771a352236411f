/**
 * Exact decimals for money and weights. The service's types are informative (spec "Common
 * conventions" 5, 6): a value may come as 2.3, "2.3" or "2,3". The station keeps the text
 * ("2.3") and never does float arithmetic on it; on the wire it becomes a JSON number written
 * from that same text, so nothing drifts either way.
 */
import { randomBytes } from 'node:crypto';
import type { Decimal } from './types';

const DECIMAL = /^(-?)(\d*)(?:\.(\d+))?$/;

/** Reads a decimal the lenient way; null when it is not one. */
export function toDecimal(v: unknown): Decimal | null {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return null;
    // String() gives the shortest text that reads back as the same double: the text the service wrote.
    let s = String(v);
    if (/e/i.test(s)) s = v.toFixed(20).replace(/\.?0+$/, '');
    return s;
  }
  if (typeof v !== 'string') return null;
  const s = v.trim().replace(/\s/g, '').replace(',', '.');
  const m = DECIMAL.exec(s);
  if (!m || (!m[2] && !m[3])) return null;
  const intPart = (m[2] || '0').replace(/^0+(?=\d)/, '');
  return `${m[1]}${intPart}${m[3] !== undefined ? '.' + m[3] : ''}`;
}

/** Reads an integer the lenient way ("12" == 12); null when it is not one. */
export function toInteger(v: unknown): number | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : null;
  if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : null;
  }
  return null;
}

// A per-process random tag, so no user text (a ticket note, say) can pose as a wrapped decimal.
const TAG = `decimal-${randomBytes(8).toString('hex')}:`;
const MARK = '\u0000' + TAG;
const UNWRAP = new RegExp(`"\\\\u0000${TAG}(-?\\d+(?:\\.\\d+)?)"`, 'g');

/** Wraps a decimal so `stringifyWire` writes it as a bare JSON number. */
export function wireDecimal(d: Decimal): string {
  const n = toDecimal(d);
  if (n === null) throw new TypeError(`Not a decimal number: ${JSON.stringify(d)}`);
  return MARK + n;
}

/** JSON.stringify that writes wrapped decimals as numbers, digit for digit. */
export function stringifyWire(value: unknown): string {
  return JSON.stringify(value).replace(UNWRAP, '$1');
}
