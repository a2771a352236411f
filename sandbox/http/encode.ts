/**
 * Writes a response value in one of the three formats (spec "Common conventions" 3-5).
 *
 * - JSON: as is; decimals are numbers with a decimal point.
 * - XML: root `<root>`; an array is repeated elements of its key's name; null, '' and an empty
 *   array or object are an empty element; true is `1`, false an empty element.
 * - form: bracket notation (`data[0][packages][0][weight]`); true is `1`, false `0`; null and
 *   empty containers are an empty value so the key is still there.
 * In XML and form every non-integer number is written with a decimal comma (weights, prices,
 * value, cod: the only decimals the service returns), never in exponent form. Strings are made
 * valid Unicode first (a lone surrogate becomes U+FFFD), so no stored or echoed text can make an
 * encoder throw; the sandbox refuses such text on input anyway (http/decode.ts).
 */
import type { Format } from './formats';
import { plainNumber, wellFormed } from './text';

export function encodeBody(format: Format, value: Record<string, unknown>): string {
  if (format === 'json') return JSON.stringify(value);
  if (format === 'xml') return encodeXml(value);
  return encodeForm(value);
}

function decimalComma(n: number): string {
  return plainNumber(n).replace('.', ',');
}

// ------------------------------------------------------------------------------------ XML

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

function escapeXml(text: string): string {
  // Characters XML 1.0 cannot carry at all are dropped rather than producing an unparsable document.
  // A literal CR would be normalised away by every XML parser (XML 1.0 2.11); as a character
  // reference it survives, so MIME base64 (CRLF line breaks, spec "Common conventions" 8) arrives intact.
  return (
    wellFormed(text)
      .replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!)
      // eslint-disable-next-line no-control-regex -- the control characters XML 1.0 does not allow, dropped
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
      .replace(/\r/g, '&#13;')
  );
}

/**
 * Names that XML parsers building JavaScript objects refuse (fast-xml-parser throws on them as a
 * prototype-pollution guard); they can only come from an echoed request key.
 */
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** Keys become element names; anything that is not a valid (or is a reserved) name is written as `item`. */
function elementName(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(key) && !RESERVED_NAMES.has(key) ? key : 'item';
}

function xmlElement(key: string, value: unknown): string {
  const name = elementName(key);
  if (Array.isArray(value)) {
    if (value.length === 0) return `<${name}/>`;
    return value.map((item) => xmlElement(key, item)).join('');
  }
  const inner = xmlContent(value);
  return inner === '' ? `<${name}/>` : `<${name}>${inner}</${name}>`;
}

function xmlContent(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (value === true) return '1';
  if (typeof value === 'number') return decimalComma(value);
  if (typeof value === 'string') return escapeXml(value);
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => xmlElement(k, v))
      .join('');
  }
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- objects are handled above: a bigint or a symbol is left
  return escapeXml(String(value));
}

export function encodeXml(value: Record<string, unknown>): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<root>${xmlContent(value)}</root>`;
}

// ----------------------------------------------------------------------------------- form

function formPairs(prefix: string, value: unknown, out: Array<[string, string]>): void {
  if (value === undefined) return;
  if (value === null || typeof value === 'function' || typeof value === 'symbol') return void out.push([prefix, '']);
  if (value === true) return void out.push([prefix, '1']);
  if (value === false) return void out.push([prefix, '0']);
  if (typeof value === 'number') return void out.push([prefix, decimalComma(value)]);
  if (typeof value === 'object') {
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return void out.push([prefix, '']);
    for (const [k, v] of entries) formPairs(prefix === '' ? k : `${prefix}[${k}]`, v, out);
    return;
  }
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- objects are handled above: a string or a bigint is left
  out.push([prefix, wellFormed(String(value))]);
}

/** Brackets in keys stay literal (as the spec writes them); everything else is percent-encoded. */
function encodeFormKey(key: string): string {
  return encodeURIComponent(wellFormed(key)).replace(/%5B/g, '[').replace(/%5D/g, ']');
}

export function encodeForm(value: Record<string, unknown>): string {
  const pairs: Array<[string, string]> = [];
  formPairs('', value, pairs);
  return pairs.map(([k, v]) => `${encodeFormKey(k)}=${encodeURIComponent(v)}`).join('&');
}
