/**
 * Reads a request body in one of the three formats (spec "Common conventions" 1, 6).
 * Values stay as written (strings in XML and form): the spec says request types are
 * informative, and the domain's validation coerces them ("2.3" == 2.3, "2,3" in weight).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import qs from 'qs';
import type { Format } from './formats';
import type { Msg } from '../i18n';
import { httpMessages } from './messages';

/**
 * Keys that are arrays in every request of the spec. XML cannot tell a one-element array from a
 * single element, and form bodies may skip indices; these keys always come out as arrays.
 */
export const REQUEST_ARRAY_KEYS = new Set(['deliveries', 'packages', 'extraServices']);

export type DecodeResult = { ok: true; value: Record<string, unknown> } | { ok: false; message: Msg; detail: string };

const xmlParser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: true,
  isArray: (tagName: string) => REQUEST_ARRAY_KEYS.has(tagName),
});

/** Objects whose keys are all array indices (a form body or sparse XML) become arrays under the known keys. */
function normaliseArrays(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map((v) => normaliseArrays(v));
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (REQUEST_ARRAY_KEYS.has(key) && entries.every(([k]) => /^\d+$/.test(k))) {
      return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => normaliseArrays(v));
    }
    // An empty XML element (`<packages/>`) under an array key is an empty list, not a list of one ''.
    return Object.fromEntries(entries.map(([k, v]) => [k, normaliseArrays(v, k)]));
  }
  if (REQUEST_ARRAY_KEYS.has(key) && value !== undefined) return value === '' ? [] : [value];
  return value;
}

function fail(message: Msg, detail: string): DecodeResult {
  return { ok: false, message, detail };
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function decodeJson(text: string): DecodeResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return fail(httpMessages.bodyNotJson, (err as Error).message);
  }
  const record = asRecord(parsed);
  return record ? { ok: true, value: record } : fail(httpMessages.bodyNotObject, typeof parsed);
}

function decodeXml(text: string): DecodeResult {
  const valid = XMLValidator.validate(text);
  if (valid !== true) return fail(httpMessages.bodyNotXml, `${valid.err.msg} (line ${valid.err.line})`);
  const parsed = asRecord(xmlParser.parse(text));
  const root = parsed?.root;
  if (root === undefined) return fail(httpMessages.xmlNoRoot, Object.keys(parsed ?? {}).join(', '));
  // `<root/>` or `<root></root>` parses as ''.
  const record = root === '' ? {} : asRecord(root);
  if (!record) return fail(httpMessages.bodyNotObject, 'text');
  return { ok: true, value: normaliseArrays(record) as Record<string, unknown> };
}

function decodeForm(text: string): DecodeResult {
  // Limits raised so 100 shipments with their packages and services fit (qs defaults: 20 indices, 1000 pairs).
  const parsed = qs.parse(text, { arrayLimit: 10_000, parameterLimit: 200_000, depth: 10, allowPrototypes: false });
  return { ok: true, value: normaliseArrays(parsed) as Record<string, unknown> };
}

export function decodeBody(format: Format, text: string): DecodeResult {
  if (text.trim() === '') return { ok: true, value: {} };
  if (format === 'json') return decodeJson(text);
  if (format === 'xml') return decodeXml(text);
  return decodeForm(text);
}
