/**
 * The costly part of reading a request body (http/decode.ts has the rest): parse the text in its
 * format, then copy it into null-prototype objects while checking depth, list length, key count,
 * string length, value count and well-formed Unicode. Plain JavaScript, so the same code runs in
 * the server's thread (bundled with it: small bodies, and where the worker file is not shipped)
 * and in the body-decoding worker threads (decodeWorker.mjs, loaded from this folder: the largest
 * legal body may not hold the server's event loop more than 20 ms).
 *
 * Refusals are values with a message key (http/messages.ts) that decode.ts turns into the 400 or
 * 422 envelope, so no message text lives here. Types: decodeCore.d.mts.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import qs from 'qs';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const INDEX = /^\d{1,9}$/;

/** Thrown inside a copy; becomes a `limit` outcome. */
class Refusal {
  constructor(message, field, value, params = {}) {
    this.message = message;
    this.field = field;
    this.value = value;
    this.params = params;
  }
}

/** Field paths as the spec writes them: `[0].recipient.surname` inside the deliveries list. */
function fieldOf(path) {
  return path.startsWith('deliveries[') ? path.slice('deliveries'.length) : path;
}

/**
 * A copy of `root` made a slice at a time: `step(n)` copies up to n values and says whether it is
 * done (so the server's thread can let other work run between slices); `result()` is the copy.
 * Values are visited depth first in document order (an explicit stack, so no input can overflow
 * the call stack), so the first refusal is always the same one. With `lists` (XML and form), the
 * known array keys always come out as arrays: objects whose keys are all indices (form bodies,
 * sparse XML) in index order, a single value as a list of one. Throws a Refusal past a limit.
 */
export function copier(root, lists, limits) {
  const listKeys = new Set(limits.arrayKeys);
  const listKey = (key) => lists && listKeys.has(key);
  let count = 0;
  let result;
  // A frame: the value, its key and path, its depth, where it goes, and (object members) the key to check first.
  const stack = [{ value: root, key: '', path: '', depth: 0, put: (v) => (result = v), checkKey: null }];

  const visit = (f) => {
    const { value, key, path, depth } = f;
    if (f.checkKey !== null) {
      if (f.checkKey.length > limits.maxStringChars)
        throw new Refusal('stringTooLong', fieldOf(f.parentPath), null, { max: limits.maxStringChars });
      if (LONE_SURROGATE.test(f.checkKey)) throw new Refusal('loneSurrogate', fieldOf(f.parentPath), null);
    }
    if (++count > limits.maxValues)
      throw new Refusal('bodyTooManyValues', fieldOf(path), null, { max: limits.maxValues });
    if (typeof value === 'string') {
      if (value.length > limits.maxStringChars)
        throw new Refusal('stringTooLong', fieldOf(path), value, { max: limits.maxStringChars });
      if (LONE_SURROGATE.test(value)) throw new Refusal('loneSurrogate', fieldOf(path), value);
      // An empty XML element (`<packages/>`) under an array key is an empty list, not a list of one ''.
      return f.put(listKey(key) ? (value === '' ? [] : [value]) : value);
    }
    if (value === null || typeof value !== 'object')
      return f.put(listKey(key) && value !== undefined ? [value] : value);
    if (depth >= limits.maxDepth) throw new Refusal('bodyTooDeep', fieldOf(path), null, { max: limits.maxDepth });
    const children = [];
    if (Array.isArray(value)) {
      if (value.length > limits.maxListLength)
        throw new Refusal('listTooLong', fieldOf(path), value.length, { max: limits.maxListLength });
      const out = [];
      f.put(out);
      const push = (v) => out.push(v);
      value.forEach((v, i) => {
        if (v !== undefined)
          children.push({ value: v, key: '', path: `${path}[${i}]`, depth: depth + 1, put: push, checkKey: null });
      });
    } else {
      const keys = Object.keys(value);
      if (keys.length > limits.maxObjectKeys && !(listKey(key) && keys.length <= limits.maxListLength))
        throw new Refusal('objectTooManyKeys', fieldOf(path), keys.length, { max: limits.maxObjectKeys });
      if (listKey(key) && keys.length > 0 && keys.every((k) => INDEX.test(k))) {
        const out = [];
        f.put(out);
        const push = (v) => out.push(v);
        for (const k of keys.sort((a, b) => Number(a) - Number(b)))
          children.push({
            value: value[k],
            key: '',
            path: `${path}[${k}]`,
            depth: depth + 1,
            put: push,
            checkKey: null,
          });
      } else {
        const out = Object.create(null);
        f.put(out);
        for (const k of keys) {
          const put = (v) => {
            if (v !== undefined) out[k] = v;
          };
          const childPath = path === '' ? k : `${path}.${k}`;
          children.push({
            value: value[k],
            key: k,
            path: childPath,
            depth: depth + 1,
            put,
            checkKey: k,
            parentPath: path,
          });
        }
      }
    }
    // Last child first: the stack pops them in document order.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  };

  return {
    step(n) {
      for (let i = 0; i < n && stack.length > 0; i++) visit(stack.pop());
      return stack.length === 0;
    },
    result: () => result,
  };
}

/** A copy refused past a limit, as an outcome; other errors are bugs and pass. */
export function refusalOutcome(err) {
  if (!(err instanceof Refusal)) throw err;
  return { ok: false, kind: 'limit', message: err.message, field: err.field, value: err.value, params: err.params };
}

const xmlParsers = new Map();
function xmlParserFor(limits) {
  const key = `${limits.maxDepth}|${limits.arrayKeys.join(',')}`;
  let parser = xmlParsers.get(key);
  if (!parser) {
    const arrays = new Set(limits.arrayKeys);
    parser = new XMLParser({
      ignoreAttributes: true,
      parseTagValue: false,
      trimValues: true,
      ignoreDeclaration: true,
      ignorePiTags: true,
      processEntities: true,
      // The parser throws past this depth; caught below as a body that does not parse.
      maxNestedTags: limits.maxDepth + 1,
      isArray: (tagName) => arrays.has(tagName),
    });
    xmlParsers.set(key, parser);
  }
  return parser;
}

const asRecord = (value) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? value : null);
const errorText = (err) => (err instanceof Error ? err.message : String(err));
const syntax = (message, detail) => ({ ok: false, kind: 'syntax', message, detail });

/**
 * The body's text parsed into the record the handlers read (not yet copied): JSON's object,
 * XML's `<root>`, the form's pairs; or why it does not parse. The cheap limits (size, tags, pairs,
 * DOCTYPE) were checked by the caller before.
 */
export function parseRecord(format, text, limits) {
  if (format === 'json') {
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      return syntax('bodyNotJson', errorText(err));
    }
    const record = asRecord(parsed);
    return record ? { ok: true, record, lists: false } : syntax('bodyNotObject', typeof parsed);
  }
  if (format === 'xml') {
    const valid = XMLValidator.validate(text);
    if (valid !== true) return syntax('bodyNotXml', `${valid.err.msg} (line ${valid.err.line})`);
    let parsed;
    try {
      parsed = asRecord(xmlParserFor(limits).parse(text));
    } catch (err) {
      // fast-xml-parser refuses reserved names (__proto__, constructor), too deep nesting and bad
      // entities by throwing: all of them are a body that does not parse.
      return syntax('bodyNotXml', errorText(err));
    }
    const root = parsed && Object.hasOwn(parsed, 'root') ? parsed.root : undefined;
    if (root === undefined) return syntax('xmlNoRoot', Object.keys(parsed ?? {}).join(', '));
    // `<root/>` or `<root></root>` parses as ''.
    const record = root === '' ? {} : asRecord(root);
    return record ? { ok: true, record, lists: true } : syntax('bodyNotObject', 'text');
  }
  try {
    const record = qs.parse(text, {
      // Indices never become sparse arrays here (qs merges those in quadratic time): they stay
      // object keys, and the copy turns index-keyed objects under the known list keys into lists.
      arrayLimit: 0,
      parameterLimit: limits.maxFormPairs,
      depth: limits.maxFormKeyDepth,
      strictDepth: true,
      allowPrototypes: false,
      plainObjects: true,
    });
    return { ok: true, record, lists: true };
  } catch (err) {
    return syntax('bodyNotForm', errorText(err));
  }
}

/** Parse and copy in one go (a worker thread, or a small body in the server's thread). */
export function decodeRecord(format, text, limits) {
  const parsed = parseRecord(format, text, limits);
  if (!parsed.ok) return parsed;
  const copy = copier(parsed.record, parsed.lists, limits);
  try {
    copy.step(Infinity);
  } catch (err) {
    return refusalOutcome(err);
  }
  return { ok: true, value: copy.result() };
}
