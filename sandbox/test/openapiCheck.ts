/**
 * Checks a real answer of the sandbox against the OpenAPI description in the repository
 * (sandbox/openapi/parcel-shipping.openapi.yaml) with Ajv's JSON Schema 2020-12 validator (the
 * dialect of OpenAPI 3.1 schemas) and ajv-formats: the operation and status must be described,
 * the Content-type must be one of the response's media types, and the body must match its schema.
 *
 * XML and form answers are first turned into the JSON form of the data the way the spec's common
 * conventions describe them (3-5), guided by the schema, so one schema checks all three formats:
 * a list may be one element or repeated elements, an empty value is null / an empty list / false
 * where the schema allows that, `1` is true (form: `0` false), numbers are text with a decimal
 * comma. Values the schema says are strings stay text ("11000" stays a postal code).
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { XMLParser } from 'fast-xml-parser';
import qs from 'qs';
import { parse } from 'yaml';

type Schema = Record<string, any>;
type Fmt = 'json' | 'xml' | 'form';

export const OPENAPI_FILE = new URL('../openapi/parcel-shipping.openapi.yaml', import.meta.url);

let loaded: { doc: Schema; ajv: Ajv2020 } | null = null;

/** The description as kept in the repository (anchors expanded), and an Ajv holding it. */
export function openApi(): { doc: Schema; ajv: Ajv2020 } {
  if (loaded) return loaded;
  const doc = parse(readFileSync(OPENAPI_FILE, 'utf8')) as Schema;
  // strict off: the document around the schemas (paths, info ...) and OpenAPI's own keywords
  // (xml, example) are not JSON Schema keywords.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats.default(ajv);
  ajv.addSchema(doc, 'openapi');
  loaded = { doc, ajv };
  return loaded;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function deref(s: Schema | undefined): Schema {
  let cur: Schema = s ?? {};
  for (let i = 0; i < 20 && typeof cur.$ref === 'string'; i++) {
    const path = cur.$ref.replace(/^#\//, '').split('/');
    cur = path.reduce<any>((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], openApi().doc) ?? {};
  }
  return cur;
}

function typesOf(s: Schema): Set<string> {
  const out = new Set<string>();
  const t = s.type;
  if (Array.isArray(t)) t.forEach((x) => out.add(x));
  else if (typeof t === 'string') out.add(t);
  const literal = s.const !== undefined ? [s.const] : Array.isArray(s.enum) ? s.enum : [];
  for (const v of literal) out.add(v === null ? 'null' : Number.isInteger(v) ? 'integer' : typeof v);
  if (out.size === 0 && s.properties) out.add('object');
  if (out.size === 0 && s.items) out.add('array');
  return out;
}

function fits(v: unknown, s: Schema): boolean {
  const t = typesOf(deref(s));
  if (v === '') return t.has('null') || t.has('array');
  if (Array.isArray(v)) return t.has('array');
  if (v !== null && typeof v === 'object') return t.has('object');
  return t.has('string') || t.has('number') || t.has('integer') || t.has('boolean');
}

/** A form list is an object with keys 0..n-1 when qs leaves it so. */
const isIndexObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).every((k) => /^\d+$/.test(k));

/** The XML/form text form of a value turned into its JSON form, as the schema says it is typed. */
export function toJsonForm(v: unknown, schema: Schema | undefined, fmt: Fmt): unknown {
  const s = deref(schema);
  if (Array.isArray(s.allOf)) return s.allOf.reduce((acc: unknown, b: Schema) => toJsonForm(acc, b, fmt), v);
  const branches: Schema[] | undefined = s.oneOf ?? s.anyOf;
  if (branches) return toJsonForm(v, branches.find((b) => fits(v, b)) ?? branches[0], fmt);
  const t = typesOf(s);
  if (v === '') {
    if (t.has('null')) return null;
    if (t.has('array') && !t.has('string')) return [];
    if (t.has('boolean') && fmt === 'xml') return false;
    if (t.has('object') && !t.has('string')) return {};
    return v;
  }
  if (typeof v === 'string' && !t.has('string')) {
    if ((t.has('number') || t.has('integer')) && /^-?\d+(,\d+)?$/.test(v)) return Number(v.replace(',', '.'));
    if (t.has('boolean') && v === '1') return true;
    if (t.has('boolean') && fmt === 'form' && v === '0') return false;
  }
  if (t.has('array') && v !== null && v !== undefined) {
    const list = Array.isArray(v)
      ? v
      : isIndexObject(v) && typeof v === 'object'
        ? Object.keys(v)
            .sort((a, b) => Number(a) - Number(b))
            .map((k) => v[k])
        : [v];
    return list.map((x) => toJsonForm(x, s.items, fmt));
  }
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const extra = typeof s.additionalProperties === 'object' ? s.additionalProperties : {};
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toJsonForm(x, s.properties?.[k] ?? extra, fmt)]));
  }
  return v;
}

const xmlParser = new XMLParser({ parseTagValue: false, htmlEntities: true });

function bodyOf(fmt: Fmt, text: string): unknown {
  if (fmt === 'json') return JSON.parse(text);
  if (fmt === 'xml') return (xmlParser.parse(text) as { root: unknown }).root;
  // plainObjects: a key named like an Object.prototype member (`errors[0][value][valueOf]=x`, an
  // echo of a hostile body) is kept, as the sandbox wrote it; qs drops such keys otherwise.
  return qs.parse(text, { arrayLimit: 10_000, depth: 12, parameterLimit: 100_000, plainObjects: true });
}

const FMT_OF: Record<string, Fmt> = {
  'application/json': 'json',
  'application/xml': 'xml',
  'application/x-www-form-urlencoded': 'form',
};

/** Finds the described operation of a request: the path without query and trailing slash. */
function operationOf(method: string, url: string): { op: Schema; at: string } | null {
  const { doc } = openApi();
  const path = new URL(url, 'http://x').pathname;
  const bare = (p: string) => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p);
  const key = Object.keys(doc.paths as Schema).find((p) => bare(p) === bare(path));
  const m = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
  const op = key ? (doc.paths[key] as Schema)[m] : undefined;
  return op && key ? { op, at: pointer('paths', key, m) } : null;
}

export interface Answer {
  method: string;
  url: string;
  status: number;
  contentType: string | null;
  text: string;
}

/** Problems of an answer against the description; empty when it conforms. */
export function openApiProblems(a: Answer): string[] {
  const { ajv } = openApi();
  const found = operationOf(a.method, a.url);
  let schemaAt: string;
  let mediaTypes: string[];
  const mediaType = (a.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!found) {
    // Unknown paths and methods (404/405) are outside the description; they still answer the error envelope.
    if (a.status !== 404 && a.status !== 405) return [`${a.method} ${a.url}: operation not in the description`];
    schemaAt = pointer('components', 'schemas', 'ErrorEnvelope');
    mediaTypes = Object.keys(FMT_OF);
  } else {
    const responses = found.op.responses as Schema;
    const code = String(a.status);
    const key = code in responses ? code : `${code[0]}XX` in responses ? `${code[0]}XX` : 'default';
    const response = deref(responses[key]);
    if (!responses[key]) return [`${a.method} ${a.url}: status ${a.status} not described`];
    const content = (response.content ?? {}) as Schema;
    mediaTypes = Object.keys(content);
    if (mediaTypes.length === 0) {
      return a.text === ''
        ? []
        : [`${a.method} ${a.url} ${a.status}: described without a body, got ${a.text.slice(0, 80)}`];
    }
    if (!content[mediaType]) {
      return [`${a.method} ${a.url} ${a.status}: Content-type ${mediaType} not among ${mediaTypes.join(', ')}`];
    }
    const refInResponses = responses[key].$ref as string | undefined;
    schemaAt = refInResponses
      ? `${refInResponses.replace(/^#\//, '')}/${pointer('content', mediaType, 'schema')}`
      : `${found.at}/${pointer('responses', key, 'content', mediaType, 'schema')}`;
    if (!FMT_OF[mediaType]) return []; // text/html, text/plain, application/yaml: the media type is the check
  }
  const fmt = FMT_OF[mediaType];
  if (!fmt || !mediaTypes.includes(mediaType)) return [`${a.method} ${a.url} ${a.status}: Content-type ${mediaType}`];
  let body: unknown;
  try {
    body = bodyOf(fmt, a.text);
  } catch (err) {
    return [`${a.method} ${a.url} ${a.status}: body does not parse as ${fmt}: ${String(err)}`];
  }
  const validate = ajv.getSchema(`openapi#/${schemaAt}`) as ValidateFunction | undefined;
  if (!validate) return [`no schema at ${schemaAt}`];
  const schema = schemaAt
    .split('/')
    .reduce<any>((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], openApi().doc);
  const data = fmt === 'json' ? body : toJsonForm(body, schema, fmt);
  if (validate(data)) return [];
  return (validate.errors ?? [])
    .slice(0, 10)
    .map(
      (e) =>
        `${a.method} ${a.url} ${a.status} (${fmt}): ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`,
    );
}
