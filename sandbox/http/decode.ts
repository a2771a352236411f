/**
 * Reads a request body in one of the three formats (spec "Common conventions" 1, 6).
 * Values stay as written (strings in XML and form): the spec says request types are
 * informative, and the domain's validation coerces them ("2.3" == 2.3, "2,3" in weight).
 *
 * Hostile input (sandbox/README.md "Limits on hostile input"): the cheap limits (form pairs, XML
 * tags, DOCTYPE) are checked before a parser runs; a parser's own refusal is a 400 like any body
 * that does not parse; the parsed value is then copied into null-prototype objects (so a key named
 * `constructor` or `__proto__` is only ever an own property) while depth, list length, key count,
 * string length and well-formed Unicode are checked (422 naming the field).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import qs from 'qs';
import type { Format } from './formats';
import type { Msg } from '../i18n';
import type { ErrorItem } from './envelope';
import { httpMessages } from './messages';
import { isWellFormed } from './text';
import {
  MAX_DEPTH,
  MAX_FORM_KEY_DEPTH,
  MAX_FORM_PAIRS,
  MAX_LIST_LENGTH,
  MAX_OBJECT_KEYS,
  MAX_STRING_CHARS,
  MAX_VALUES,
  MAX_XML_TAGS,
} from './limits';

/**
 * Keys that are arrays in every request of the spec. XML cannot tell a one-element array from a
 * single element, and form bodies may skip indices; these keys always come out as arrays.
 */
export const REQUEST_ARRAY_KEYS = new Set(['deliveries', 'packages', 'extraServices']);

/** A body as the handlers see it: null-prototype objects all the way down. */
export type Body = Record<string, unknown>;

export type DecodeResult =
  | { ok: true; value: Body }
  | {
      ok: false;
      status: 400 | 413 | 422;
      message: Msg;
      detail?: string;
      params?: Record<string, string | number>;
      errors?: ErrorItem[];
    };

const xmlParser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: true,
  // The parser throws past this depth; caught below as a body that does not parse.
  maxNestedTags: MAX_DEPTH + 1,
  isArray: (tagName: string) => REQUEST_ARRAY_KEYS.has(tagName),
});

class Refusal extends Error {
  constructor(
    readonly msg: Msg,
    readonly field: string,
    readonly value: unknown,
    readonly params: Record<string, string | number> = {},
  ) {
    super(msg.en);
  }
}

/** Field paths as the spec writes them: `[0].recipient.surname` inside the deliveries list. */
function fieldOf(path: string): string {
  return path.startsWith('deliveries[') ? path.slice('deliveries'.length) : path;
}

/**
 * Copies a parsed body into null-prototype objects, checking the limits on the way. Recursion is
 * bounded by MAX_DEPTH, so no input can overflow the stack. With `lists` (XML and form), the
 * known array keys always come out as arrays: objects whose keys are all indices (form bodies,
 * sparse XML) in index order, a single value as a list of one.
 */
function safeCopy(root: unknown, lists: boolean): unknown {
  let count = 0;
  const listKey = (key: string) => lists && REQUEST_ARRAY_KEYS.has(key);
  const visit = (value: unknown, key: string, path: string, depth: number): unknown => {
    if (++count > MAX_VALUES)
      throw new Refusal(httpMessages.bodyTooManyValues, fieldOf(path), null, { max: MAX_VALUES });
    if (typeof value === 'string') {
      if (value.length > MAX_STRING_CHARS)
        throw new Refusal(httpMessages.stringTooLong, fieldOf(path), value, { max: MAX_STRING_CHARS });
      if (!isWellFormed(value)) throw new Refusal(httpMessages.loneSurrogate, fieldOf(path), value);
      // An empty XML element (`<packages/>`) under an array key is an empty list, not a list of one ''.
      return listKey(key) ? (value === '' ? [] : [value]) : value;
    }
    if (value === null || typeof value !== 'object') return listKey(key) && value !== undefined ? [value] : value;
    if (depth >= MAX_DEPTH) throw new Refusal(httpMessages.bodyTooDeep, fieldOf(path), null, { max: MAX_DEPTH });
    if (Array.isArray(value)) {
      if (value.length > MAX_LIST_LENGTH)
        throw new Refusal(httpMessages.listTooLong, fieldOf(path), value.length, { max: MAX_LIST_LENGTH });
      const out: unknown[] = [];
      value.forEach((v, i) => {
        if (v !== undefined) out.push(visit(v, '', `${path}[${i}]`, depth + 1));
      });
      return out;
    }
    const keys = Object.keys(value);
    if (keys.length > MAX_OBJECT_KEYS && !(listKey(key) && keys.length <= MAX_LIST_LENGTH)) {
      throw new Refusal(httpMessages.objectTooManyKeys, fieldOf(path), keys.length, { max: MAX_OBJECT_KEYS });
    }
    const rec = value as Record<string, unknown>;
    if (listKey(key) && keys.length > 0 && keys.every((k) => /^\d{1,9}$/.test(k))) {
      return keys.sort((a, b) => Number(a) - Number(b)).map((k) => visit(rec[k], '', `${path}[${k}]`, depth + 1));
    }
    const out = Object.create(null) as Body;
    for (const k of keys) {
      const childPath = path === '' ? k : `${path}.${k}`;
      if (k.length > MAX_STRING_CHARS)
        throw new Refusal(httpMessages.stringTooLong, fieldOf(path), null, { max: MAX_STRING_CHARS });
      if (!isWellFormed(k)) throw new Refusal(httpMessages.loneSurrogate, fieldOf(path), null);
      const v = visit(rec[k], k, childPath, depth + 1);
      if (v !== undefined) out[k] = v;
    }
    return out;
  };
  return visit(root, '', '', 0);
}

function fail(
  message: Msg,
  detail: string,
  status: 400 | 413 | 422 = 400,
  params: Record<string, string | number> = {},
): DecodeResult {
  return { ok: false, status, message, detail, params: { detail, ...params } };
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** The copied body, or the limit it broke as a 422 naming the field. */
function finish(parsed: Record<string, unknown>, lists: boolean): DecodeResult {
  try {
    return { ok: true, value: safeCopy(parsed, lists) as Body };
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    return {
      ok: false,
      status: 422,
      message: err.msg,
      params: err.params,
      errors: [{ field: err.field, value: err.value, message: err.msg, params: err.params }],
    };
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function decodeJson(text: string): DecodeResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return fail(httpMessages.bodyNotJson, errorText(err));
  }
  const record = asRecord(parsed);
  return record ? finish(record, false) : fail(httpMessages.bodyNotObject, typeof parsed);
}

function countOf(text: string, ch: string, stopAfter: number): number {
  let n = 0;
  for (let i = text.indexOf(ch); i >= 0 && n <= stopAfter; i = text.indexOf(ch, i + 1)) n++;
  return n;
}

function decodeXml(text: string): DecodeResult {
  // Before any parsing: the number of tags bounds the parser's work.
  if (countOf(text, '<', MAX_XML_TAGS) > MAX_XML_TAGS)
    return fail(httpMessages.xmlTooManyTags, `> ${MAX_XML_TAGS}`, 413, { max: MAX_XML_TAGS });
  // No document type declarations at all: the spec's XML needs none, and entity declarations
  // (internal, external, parameter) are the classic way to make a parser do unbounded work.
  if (/<!DOCTYPE/i.test(text)) return fail(httpMessages.bodyNotXml, 'DOCTYPE is not accepted');
  const valid = XMLValidator.validate(text);
  if (valid !== true) return fail(httpMessages.bodyNotXml, `${valid.err.msg} (line ${valid.err.line})`);
  let parsed: Record<string, unknown> | null;
  try {
    parsed = asRecord(xmlParser.parse(text));
  } catch (err) {
    // fast-xml-parser refuses reserved names (__proto__, constructor), too deep nesting and bad
    // entities by throwing: all of them are a body that does not parse.
    return fail(httpMessages.bodyNotXml, errorText(err));
  }
  const root = parsed && Object.hasOwn(parsed, 'root') ? parsed.root : undefined;
  if (root === undefined) return fail(httpMessages.xmlNoRoot, Object.keys(parsed ?? {}).join(', '));
  // `<root/>` or `<root></root>` parses as ''.
  const record = root === '' ? {} : asRecord(root);
  if (!record) return fail(httpMessages.bodyNotObject, 'text');
  return finish(record, true);
}

function decodeForm(text: string): DecodeResult {
  // Before any parsing: qs costs about 10 µs a pair, so the pair count bounds its work.
  if (countOf(text, '&', MAX_FORM_PAIRS) >= MAX_FORM_PAIRS)
    return fail(httpMessages.formTooManyPairs, `> ${MAX_FORM_PAIRS}`, 413, { max: MAX_FORM_PAIRS });
  let parsed: Record<string, unknown>;
  try {
    parsed = qs.parse(text, {
      // Indices never become sparse arrays here (qs merges those in quadratic time): they stay
      // object keys, and safeCopy turns index-keyed objects under the known list keys into lists.
      arrayLimit: 0,
      parameterLimit: MAX_FORM_PAIRS,
      depth: MAX_FORM_KEY_DEPTH,
      strictDepth: true,
      allowPrototypes: false,
      plainObjects: true,
    });
  } catch (err) {
    return fail(httpMessages.bodyNotForm, errorText(err));
  }
  return finish(parsed, true);
}

export function decodeBody(format: Format, text: string): DecodeResult {
  if (text.trim() === '') return { ok: true, value: Object.create(null) as Body };
  if (format === 'json') return decodeJson(text);
  if (format === 'xml') return decodeXml(text);
  return decodeForm(text);
}
