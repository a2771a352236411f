/**
 * Reads a request body in one of the three formats (spec "Common conventions" 1, 6).
 * Values stay as written (strings in XML and form): the spec says request types are
 * informative, and the domain's validation coerces them ("2.3" == 2.3, "2,3" in weight).
 *
 * Hostile input (sandbox/README.md "Limits on hostile input"): the cheap limits (form pairs, XML
 * tags, DOCTYPE) are checked here before a parser runs; a parser's own refusal is a 400 like any
 * body that does not parse; the parsed value is then copied into null-prototype objects (so a key
 * named `constructor` or `__proto__` is only ever an own property) while depth, list length, key
 * count, string length and well-formed Unicode are checked (422 naming the field). Parsing and
 * copying are decodeCore.mjs's, shared with the worker threads.
 *
 * The event loop (at most 20 ms for the largest legal body): a small body is decoded
 * right here; a larger one in a worker thread (decodePool.ts), which sends back the checked copy as
 * JSON; here it is parsed and copied again into null-prototype objects a slice at a time, letting
 * other requests run between slices. Without workers (the installers' embedded sandbox) a large
 * body is parsed here in one go and copied in slices.
 */
import { performance } from 'node:perf_hooks';
import type { Format } from './formats';
import type { Msg } from '../i18n';
import type { ErrorItem } from './envelope';
import { httpMessages } from './messages';
import { copier, decodeRecord, parseRecord, refusalOutcome, type DecodeLimits, type Refused } from './decodeCore.mjs';
import type { DecodePool } from './decodePool';
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

/** The request limits (http/limits.ts) as the decoder takes them, in either thread. */
export const DECODE_LIMITS: DecodeLimits = {
  maxDepth: MAX_DEPTH,
  maxListLength: MAX_LIST_LENGTH,
  maxObjectKeys: MAX_OBJECT_KEYS,
  maxValues: MAX_VALUES,
  maxStringChars: MAX_STRING_CHARS,
  maxFormPairs: MAX_FORM_PAIRS,
  maxFormKeyDepth: MAX_FORM_KEY_DEPTH,
  arrayKeys: [...REQUEST_ARRAY_KEYS],
};

/**
 * Bodies this small are decoded in the server's thread: a worker's round trip costs more than the
 * decoding (a shipment is 1-3 KiB, 40-70 XML tags, 15-25 form pairs). The bounds keep the worst
 * such body well under the 20 ms target even on a loaded machine: measured on a 2-core CI-like
 * machine, hostile JSON costs up to ~0.5 µs a byte (8 KiB: ~4 ms), XML ~10 µs a tag (256: ~3 ms),
 * form ~17-30 µs a pair (128: ~4 ms).
 */
export const IN_THREAD_MAX_CHARS = 8 * 1024;
export const IN_THREAD_MAX_XML_TAGS = 256;
export const IN_THREAD_MAX_FORM_PAIRS = 128;
/** The longest slice of copying before other work gets the loop (a quarter of the 20 ms target). */
const SLICE_MS = 5;

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

function fail(
  message: Msg,
  detail: string,
  status: 400 | 413 | 422 = 400,
  params: Record<string, string | number> = {},
): DecodeResult {
  return { ok: false, status, message, detail, params: { detail, ...params } };
}

/** A refusal of decodeCore.mjs as the answer: 400 for a body that does not parse, 422 naming the field past a limit. */
function refused(r: Refused): DecodeResult {
  if (r.kind === 'syntax') return fail(httpMessages[r.message], r.detail);
  const message = httpMessages[r.message];
  return {
    ok: false,
    status: 422,
    message,
    params: r.params,
    errors: [{ field: r.field, value: r.value, message, params: r.params }],
  };
}

function countOf(text: string, ch: string, stopAfter: number): number {
  let n = 0;
  for (let i = text.indexOf(ch); i >= 0 && n <= stopAfter; i = text.indexOf(ch, i + 1)) n++;
  return n;
}

/** Copies a parsed record into null-prototype objects, yielding the loop every SLICE_MS. */
async function copyInSlices(record: unknown, lists: boolean): Promise<DecodeResult> {
  const copy = copier(record, lists, DECODE_LIMITS);
  const pace = pacer();
  try {
    while (!copy.step(256)) {
      const pause = pace();
      if (pause) await pause;
    }
  } catch (err) {
    return refused(refusalOutcome(err));
  }
  return { ok: true, value: copy.result() as Body };
}

/** Lets other work have the loop once a slice has taken SLICE_MS. */
function pacer(): () => Promise<void> | null {
  let sliceStart = performance.now();
  return () => {
    if (performance.now() - sliceStart < SLICE_MS) return null;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        sliceStart = performance.now();
        resolve();
      }),
    );
  };
}

/**
 * The worker's checked copy, parsed from its JSON, with every object's prototype set to null in
 * slices: no checks and no new objects, so about a tenth of a checked copy's work (a body of
 * 60,000 empty objects: ~8 ms against ~50-80 ms on a loaded 2-core machine).
 */
export async function readWorkerCopy(copy: { json: string; lists: [string, string[]][] }): Promise<Body> {
  const pace = pacer();
  const root = JSON.parse(copy.json) as Body;
  // The lists part by part (decodeWorker.mjs): no single parse holds the loop for the whole body.
  for (const [key, parts] of copy.lists) {
    const list = (key === '' ? root : root[key]) as unknown[];
    for (const part of parts) {
      for (const item of JSON.parse(part) as unknown[]) list.push(item);
      const pause = pace();
      if (pause) await pause;
    }
  }
  const stack: object[] = [root];
  for (let n = 1; stack.length > 0; n++) {
    const value = stack.pop()!;
    const children: unknown[] = Array.isArray(value) ? (value as unknown[]) : Object.values(value);
    if (!Array.isArray(value)) Object.setPrototypeOf(value, null);
    for (const child of children) if (child !== null && typeof child === 'object') stack.push(child);
    const pause = n % 1024 === 0 ? pace() : null;
    if (pause) await pause;
  }
  return root;
}

/** Parsed here in one go, copied in slices: small bodies, and large ones when there are no workers. */
async function decodeHere(format: Format, text: string): Promise<DecodeResult> {
  const parsed = parseRecord(format, text, DECODE_LIMITS);
  return parsed.ok ? copyInSlices(parsed.record, parsed.lists) : refused(parsed);
}

export async function decodeBody(format: Format, text: string, pool: DecodePool | null = null): Promise<DecodeResult> {
  if (text.trim() === '') return { ok: true, value: Object.create(null) as Body };
  let small = text.length <= IN_THREAD_MAX_CHARS;
  if (format === 'xml') {
    // Before any parsing: the number of tags bounds the parser's work.
    const tags = countOf(text, '<', MAX_XML_TAGS);
    if (tags > MAX_XML_TAGS) return fail(httpMessages.xmlTooManyTags, `> ${MAX_XML_TAGS}`, 413, { max: MAX_XML_TAGS });
    // No document type declarations at all: the spec's XML needs none, and entity declarations
    // (internal, external, parameter) are the classic way to make a parser do unbounded work.
    if (/<!DOCTYPE/i.test(text)) return fail(httpMessages.bodyNotXml, 'DOCTYPE is not accepted');
    small &&= tags <= IN_THREAD_MAX_XML_TAGS;
  }
  if (format === 'form') {
    // Before any parsing: qs costs about 10 µs a pair, so the pair count bounds its work.
    const pairs = countOf(text, '&', MAX_FORM_PAIRS);
    if (pairs >= MAX_FORM_PAIRS)
      return fail(httpMessages.formTooManyPairs, `> ${MAX_FORM_PAIRS}`, 413, { max: MAX_FORM_PAIRS });
    small &&= pairs < IN_THREAD_MAX_FORM_PAIRS;
  }
  if (small) {
    const r = decodeRecord(format, text, DECODE_LIMITS);
    return r.ok ? { ok: true, value: r.value as Body } : refused(r);
  }
  if (!pool) return decodeHere(format, text);
  let outcome;
  try {
    outcome = await pool.decode(format, text, DECODE_LIMITS);
  } catch {
    // The worker died under this body (it has been reported): decoded here instead.
    return decodeHere(format, text);
  }
  if (!outcome.ok) return refused(outcome);
  // Checked by the worker already (at most MAX_VALUES values): parsing its JSON is bounded.
  return { ok: true, value: await readWorkerCopy(outcome) };
}
