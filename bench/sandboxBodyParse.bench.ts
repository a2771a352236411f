/**
 * How long the sandbox holds its event loop while it decodes the largest body it accepts (issue
 * 30: "the largest legal body is parsed without holding the event loop more than 20 ms").
 * For each format the body is as large as sandbox/http/limits.ts lets it be: 1 MiB, and at the
 * count limits (JSON: values, in long strings and as ~60,000 empty objects; XML: tags; API form:
 * pairs, deep keys); the OAuth forms (login, token) are MAX_OAUTH_FORM_BYTES (16 KiB) of distinct
 * fields. Figures for each:
 * - `in-thread ms`: one decode entirely in the calling thread (decodeCore.mjs's parse and copy),
 *   what every request cost the loop before the worker threads, and still does where they are
 *   not shipped;
 * - `decode max hold ms`: the longest event-loop stall (perf_hooks.monitorEventLoopDelay, 1 ms
 *   resolution) while http/decode.ts decodes the body three times with the worker pool, as the
 *   server does before dispatch;
 * - `max hold ms`: the longest stall while the sandbox in this process answers that body over HTTP
 *   three times (decoding plus the handler's own work: validation, the answer).
 * Login: a real login (the password checked with scrypt) and a token request (the client secret
 * checked with scrypt), each `max hold ms` over HTTP. The target is 20 ms.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { DECODE_LIMITS, decodeBody } from '../sandbox/http/decode';
import { decodeRecord } from '../sandbox/http/decodeCore.mjs';
import { createDecodePool } from '../sandbox/http/decodePool';
import {
  MAX_BODY_BYTES,
  MAX_FORM_PAIRS,
  MAX_LIST_LENGTH,
  MAX_OAUTH_FORM_BYTES,
  MAX_VALUES,
  MAX_XML_TAGS,
} from '../sandbox/http/limits';
import { startSandbox } from '../sandbox/index';

const TARGET_MS = 20;
const ROUNDS = 3;

/** API form: MAX_FORM_PAIRS - 1 pairs with the deepest keys the limits allow, padded to just under 1 MiB. */
function largestForm(): string {
  const pairs: string[] = [];
  const n = MAX_FORM_PAIRS - 1;
  const pad = Math.floor(MAX_BODY_BYTES / n) - 60;
  for (let i = 0; i < n; i++)
    pairs.push(`deliveries[${i % 1000}][recipient][address][s${Math.floor(i / 1000)}]=${'x'.repeat(pad)}`);
  return pairs.join('&');
}

/** XML: just under MAX_XML_TAGS tags (`<` characters), padded to just under 1 MiB. */
function largestXml(): string {
  const elements = Math.floor((MAX_XML_TAGS - 4) / 2);
  const pad = Math.floor((MAX_BODY_BYTES - 200) / elements) - 12;
  const items: string[] = [];
  for (let i = 0; i < elements; i++) items.push(`<n${i % 150}>${'x'.repeat(pad)}</n${i % 150}>`);
  return `<root><deliveries>${items.join('')}</deliveries></root>`;
}

/** JSON: just under MAX_VALUES values in 1 MiB. */
function largestJson(): string {
  const values = Math.floor(MAX_VALUES / 3) - 10;
  const perDelivery = 100;
  const pad = Math.floor((MAX_BODY_BYTES - 200) / values) - 12;
  const deliveries = Array.from({ length: Math.floor(values / perDelivery) }, (_, d) =>
    Object.fromEntries(Array.from({ length: perDelivery - 1 }, (_, k) => [`k${k}`, `${d}${'x'.repeat(pad)}`])),
  );
  return JSON.stringify({ deliveries });
}

/** JSON: just under MAX_VALUES values as empty objects in lists of MAX_LIST_LENGTH (the costliest JSON to build). */
function manyObjectsJson(): string {
  const lists = Math.floor(MAX_VALUES / (MAX_LIST_LENGTH + 1)) - 1;
  const body: Record<string, object[]> = {};
  for (let i = 0; i < lists; i++) body[`l${i}`] = Array.from({ length: MAX_LIST_LENGTH }, () => ({}));
  return JSON.stringify(body);
}

/** OAuth form: MAX_OAUTH_FORM_BYTES of distinct fields. */
function largestOAuthForm(first: string): string {
  const parts = [first];
  let size = first.length;
  for (let i = 0; size < MAX_OAUTH_FORM_BYTES - 16; i++) {
    const part = `&f${i}=1`;
    parts.push(part);
    size += part.length;
  }
  return parts.join('');
}

function timeOf(fn: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    fn();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/** The longest event-loop stall while `fn` runs ROUNDS times. */
async function maxHoldOf(fn: () => Promise<void>): Promise<number> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  for (let i = 0; i < ROUNDS; i++) await fn();
  h.disable();
  return h.max / 1e6;
}

export async function run(): Promise<Record<string, number>> {
  const sb = await startSandbox({ port: 0 });
  const pool = createDecodePool();
  if (!pool) throw new Error('sandbox/http/decodeWorker.mjs not found');
  try {
    const tokenRes = await fetch(`${sb.url}/_sandbox/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: sb.demo.clientId, username: sb.demo.username, scope: sb.demo.scope }),
    });
    const token = String(((await tokenRes.json()) as { access_token: string }).access_token);
    const basic = `Basic ${Buffer.from(`${sb.demo.clientId}:${sb.demo.clientSecret}`).toString('base64')}`;
    const figures: Record<string, number> = { 'target ms': TARGET_MS };
    const post = async (name: string, path: string, headers: Record<string, string>, body: string) => {
      const res = await fetch(sb.url + path, { method: 'POST', headers, body });
      await res.arrayBuffer();
      if (res.status >= 500) throw new Error(`${name}: ${res.status}`);
    };

    const bodies: Array<[string, 'json' | 'xml' | 'form', string, string]> = [
      ['json', 'json', largestJson(), 'application/json'],
      ['json objects', 'json', manyObjectsJson(), 'application/json'],
      ['xml', 'xml', largestXml(), 'application/xml'],
      ['form', 'form', largestForm(), 'application/x-www-form-urlencoded'],
    ];
    for (const [name, fmt, body, type] of bodies) {
      if (Buffer.byteLength(body) > MAX_BODY_BYTES) throw new Error(`${name}: body over the limit`);
      figures[`${name} body KiB`] = Math.round(Buffer.byteLength(body) / 1024);
      figures[`${name} in-thread ms`] = timeOf(() => {
        const r = decodeRecord(fmt, body, DECODE_LIMITS);
        if (!r.ok) throw new Error(`${name}: the largest legal body was refused: ${r.message}`);
      });
      figures[`${name} decode max hold ms`] = await maxHoldOf(async () => {
        const r = await decodeBody(fmt, body, pool);
        if (!r.ok) throw new Error(`${name}: the largest legal body was refused: ${r.status} ${r.message.en}`);
      });
      const headers = { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': type };
      figures[`${name} max hold ms`] = await maxHoldOf(() => post(name, '/api/v2/collection-protocols', headers, body));
    }

    // A real login: a fresh authorization request each round, the demo password checked.
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    figures['login max hold ms'] = await maxHoldOf(async () => {
      const q = new URLSearchParams({
        response_type: 'code',
        client_id: sb.demo.clientId,
        scope: 'deliveries',
        state: 's',
      });
      const page = await (await fetch(`${sb.url}/connect/authorize/?${q.toString()}`)).text();
      const request = /name="request" value="([^"]+)"/.exec(page)?.[1];
      if (!request) throw new Error('login: no authorization request on the page');
      const first = `request=${request}&username=${sb.demo.username}&password=${sb.demo.password}`;
      await post('login', '/connect/authorize/login', form, largestOAuthForm(first));
    });
    // The client secret is checked before the (unknown) code.
    const tokenForm = largestOAuthForm('grant_type=authorization_code&code=x&scope=deliveries');
    figures['token max hold ms'] = await maxHoldOf(() =>
      post('token', '/connect/token/', { ...form, authorization: basic }, tokenForm),
    );
    return figures;
  } finally {
    await pool.close();
    await sb.close();
  }
}
