/**
 * Decimals on the wire: a decimal travels as a JSON number written from its exact text, digit for
 * digit (spec "Common conventions" 5-6), never through a float. Reading and arithmetic are the
 * station's one decimal module, shared/decimal.ts.
 */
import { randomBytes } from 'node:crypto';
import { toDecimal, type Decimal } from '../../shared/decimal';

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
