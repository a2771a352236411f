/**
 * Robustness fuzz of the routes that are not the API (seeded, bounded, loopback): the root page,
 * the OAuth pages (authorize, login, consent), the token endpoint, /register and the test controls
 * under /_sandbox/, with every method, hostile query strings, forms with missing, duplicated,
 * oversized and non-UTF-8 fields, wrong content types, CSRF-looking request ids and redirect_uri
 * tricks. Asserts that no answer is a 5xx; that every answer is in the format its route speaks
 * (HTML for the pages, RFC 6749 JSON for the token endpoint, JSON for the test controls) or the
 * sandbox's error envelope in the format the Accept header asks for (spec "Common conventions" 1;
 * JSON when Accept names none of the three); that a redirect only ever goes to a registered
 * address; and that afterwards a real login, consent and code exchange still work.
 * The seed is printed; SANDBOX_FUZZ_SEED=<n> replays a run, SANDBOX_FUZZ_PAGE_REQUESTS=<n> sets
 * its size (default 2,000).
 */
import http from 'node:http';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Sandbox } from '../index';
import {
  admin,
  api,
  basic,
  decodeResponse,
  formOf,
  loginFully,
  MEDIA,
  postForm,
  rawRequest,
  start,
  type Fmt,
} from './support';
import { fuzzSeed, seededRandom } from './seededRandom';

const SEED = fuzzSeed();
const REQUESTS = Number(process.env.SANDBOX_FUZZ_PAGE_REQUESTS ?? 2_000);
const PARALLEL = 8;
const { int, pick, chance } = seededRandom(SEED);

/** The body limit of sandbox/README.md "Limits on hostile input" (1 MiB); larger is a 413 envelope. */
const BODY_LIMIT = 1024 * 1024;

/** Accept headers and the envelope format each one asks for (spec "Common conventions" 1: JSON by default). */
const ACCEPTS: Array<{ accept: string | undefined; fmt: Fmt }> = [
  { accept: undefined, fmt: 'json' },
  { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', fmt: 'xml' },
  { accept: 'text/html', fmt: 'json' },
  { accept: 'application/json', fmt: 'json' },
  { accept: 'application/xml', fmt: 'xml' },
  { accept: 'text/xml', fmt: 'xml' },
  { accept: 'application/x-www-form-urlencoded', fmt: 'form' },
  { accept: '*/*', fmt: 'json' },
  { accept: 'constructor', fmt: 'json' },
  { accept: 'application/xml;q=0, application/x-www-form-urlencoded;q=0.5', fmt: 'form' },
  { accept: '', fmt: 'json' },
];

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

const HOSTILE_TEXT = [
  '',
  ' ',
  '%',
  '%ZZ',
  '%ED%A0%80',
  '%FF%FE',
  '%00',
  '\u0000',
  '😀 Příliš žluťoučký kůň',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' OR 1=1 --",
  '__proto__',
  'constructor',
  'toString',
  '../../etc/passwd',
  '\r\nSet-Cookie: x=1',
  '\u202e\u200b\ufeff',
  'a'.repeat(4001),
  'x'.repeat(70_000),
];

const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[int(16)]).join('');

/** Random text: a hostile string or a CSRF-token-looking one. */
function hostileText(): string {
  switch (int(4)) {
    case 0:
      return hex(pick([32, 40, 64]));
    case 1:
      return `${int(100_000)}`;
    default:
      return pick(HOSTILE_TEXT);
  }
}

let sb: Sandbox;
/** A second client registered before the run, with its own redirect address. */
let other: { clientId: string; secret: string; redirectUri: string };
/** Every redirect address a 302 may lead to: the registered ones of the clients the fuzz names. */
let registered: string[];
/** Request ids of live authorization requests (login pending, or logged in and awaiting consent). */
const loginIds: string[] = [];
const consentIds: string[] = [];
/** Codes and refresh tokens the token endpoint may be shown. */
const codes: string[] = [];
const refreshTokens: string[] = [];
const agent = new http.Agent({ keepAlive: true, maxSockets: PARALLEL });

/** A value of a query or form field, written as the wire carries it (percent-encoded, or raw). */
type Pair = [string, string];

/** `pairs` as a query string or form body; some values go raw (broken escapes, bare `&`, `=`). */
function encodePairs(pairs: Pair[]): string {
  return pairs
    .map(([k, v]) => {
      const raw = chance(0.1);
      const enc = (s: string) => {
        try {
          return raw ? s : encodeURIComponent(s);
        } catch {
          return s;
        }
      };
      return `${enc(k)}=${enc(v)}`;
    })
    .join('&');
}

/** A field set with some fields dropped, duplicated or added. */
function shake(pairs: Pair[]): Pair[] {
  let out = pairs.filter(() => !chance(0.1));
  if (chance(0.2) && out.length > 0) {
    const [k] = pick(out);
    out.splice(int(out.length + 1), 0, [k, chance(0.5) ? hostileText() : (out.find((p) => p[0] === k)?.[1] ?? '')]);
  }
  if (chance(0.2))
    out.push([pick(['x', '__proto__', 'request', 'client_id', 'client_secret', 'a[b]', '']), hostileText()]);
  if (chance(0.05)) out = [...out].reverse();
  return out;
}

/** redirect_uri values: the registered one, near misses, and addresses of somebody else. */
function redirectTrick(registeredUri: string): string {
  const u = new URL(registeredUri);
  return pick([
    registeredUri,
    registeredUri,
    `${registeredUri}/`,
    `${registeredUri}/../evil`,
    `${registeredUri}?next=https://evil.example/`,
    `${registeredUri}#frag`,
    registeredUri.toUpperCase(),
    registeredUri.replace('http:', 'https:'),
    `${u.protocol}//${u.host}@evil.example${u.pathname}`,
    `${u.protocol}//evil.example/${u.host}${u.pathname}`,
    `//evil.example${u.pathname}`,
    'https://evil.example/callback',
    'javascript:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
    `${u.protocol}//${u.host}%2F%2E%2E%2Fevil`,
    encodeURIComponent(registeredUri),
    hostileText(),
  ]);
}

function authorizeQuery(): string {
  const client = pick([
    { id: sb.demo.clientId, uri: sb.demo.redirectUri },
    { id: other.clientId, uri: other.redirectUri },
    { id: hostileText(), uri: sb.demo.redirectUri },
  ]);
  const pairs: Pair[] = [
    ['response_type', chance(0.8) ? 'code' : pick(['token', 'CODE', 'code id_token', hostileText()])],
    ['client_id', client.id],
    ['scope', chance(0.7) ? pick(['deliveries', sb.demo.scope, 'deliveries deliveries']) : hostileText()],
    ['state', chance(0.6) ? `s-${int(1000)}` : hostileText()],
  ];
  if (chance(0.5)) pairs.push(['redirect_uri', redirectTrick(client.uri)]);
  if (chance(0.2)) {
    pairs.push(['code_challenge', chance(0.5) ? 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM' : hostileText()]);
    pairs.push(['code_challenge_method', pick(['S256', 'plain', hostileText()])]);
  }
  return encodePairs(shake(pairs));
}

/** A request id: a live one, a near miss, a CSRF-looking token, or junk. */
function requestId(live: string[]): string {
  const real = live.length > 0 ? pick(live) : hex(32);
  switch (int(6)) {
    case 0:
    case 1:
      return real;
    case 2:
      return `${real.slice(0, -1)}${real.endsWith('0') ? '1' : '0'}`;
    case 3:
      return ` ${real} `;
    default:
      return hostileText();
  }
}

function loginForm(): Pair[] {
  return shake([
    ['request', requestId(loginIds)],
    ['username', chance(0.5) ? sb.demo.username : hostileText()],
    ['password', chance(0.5) ? sb.demo.password : hostileText()],
  ]);
}

function consentForm(): Pair[] {
  return shake([
    ['request', requestId(consentIds)],
    ['decision', chance(0.7) ? pick(['allow', 'deny']) : hostileText()],
  ]);
}

function tokenForm(): Pair[] {
  const grant = pick([
    'authorization_code',
    'authorization_code',
    'refresh_token',
    'password',
    'client_credentials',
    hostileText(),
  ]);
  const pairs: Pair[] = [['grant_type', grant]];
  if (grant === 'refresh_token')
    pairs.push(['refresh_token', refreshTokens.length > 0 && chance(0.5) ? pick(refreshTokens) : hex(40)]);
  else pairs.push(['code', codes.length > 0 && chance(0.5) ? pick(codes) : hostileText()]);
  pairs.push(['redirect_uri', redirectTrick(sb.demo.redirectUri)]);
  pairs.push(['scope', chance(0.7) ? pick(['deliveries', sb.demo.scope, 'transports']) : hostileText()]);
  if (chance(0.1)) pairs.push(['code_verifier', hostileText()]);
  return shake(pairs);
}

function registerForm(): Pair[] {
  return shake([
    ['companyName', chance(0.5) ? `Fuzz ${int(1000)}` : hostileText()],
    ['logoUrl', chance(0.5) ? '' : pick(['https://example.com/l.png', 'javascript:alert(1)', hostileText()])],
    ['webUrl', chance(0.5) ? '' : pick(['https://example.com/', 'ftp://x', hostileText()])],
    ['redirectUri', redirectTrick('http://127.0.0.1:9000/cb')],
    ['clientSecret', chance(0.5) ? 'fuzz-secret-123' : hostileText()],
  ]);
}

function tokenAuthorization(): string | undefined {
  switch (int(8)) {
    case 0:
      return undefined;
    case 1:
      return basic(sb.demo.clientId, 'wrong-secret');
    case 2:
      return `Basic ${Buffer.from(pick(['%ZZ:%E0', ':', 'a', '\u00ff:\u00fe', `${sb.demo.clientId}:`])).toString('base64')}`;
    case 3:
      return pick(['Basic', 'Basic !!!', 'Bearer x', 'Basic ====', `Basic ${'A'.repeat(10_000)}`]);
    case 4:
      return basic(other.clientId, other.secret);
    default:
      return basic(sb.demo.clientId, sb.demo.clientSecret);
  }
}

/** A JSON value for a test control: plausible, or hostile. */
function adminValue(plausible: unknown): unknown {
  if (chance(0.5)) return plausible;
  return pick<unknown>([
    null,
    true,
    -1,
    0,
    1e300,
    -1e300,
    8.64e12,
    3.2e11,
    '1e3',
    'NaN',
    [],
    {},
    { __proto__: 1 },
    hostileText(),
  ]);
}

/**
 * Bodies of the test controls. Faults only ever name a path nobody requests (a fault on a real
 * path answers 5xx by design), and reset never leaves the sandbox without its demo data: the
 * last check logs in as the demo user.
 */
function adminBody(path: string): unknown {
  switch (path) {
    case 'clock/advance':
      return { seconds: adminValue(pick([0, 1, 90, 3600, 86_400])) };
    case 'tokens':
      return {
        clientId: adminValue(sb.demo.clientId),
        username: adminValue(sb.demo.username),
        scope: adminValue(sb.demo.scope),
      };
    case 'clients':
      return Object.fromEntries(registerForm().map(([k, v]) => [k, adminValue(v)]));
    case 'permissions/withdraw':
      return { clientId: adminValue(other.clientId), username: adminValue(sb.demo.username) };
    case 'licence':
      return { limit: adminValue(pick([null, 100, 1000])) };
    case 'reset':
      return { seed: pick(['demo', 'Demo', 'none ', 7, null]) };
    case 'faults': {
      const body: Record<string, unknown> = {
        path: `/_fuzz/nowhere/${int(10)}`,
        method: adminValue('GET'),
        latencyMs: adminValue(10),
        status: adminValue(503),
        reset: adminValue(true),
        hang: adminValue(false),
        carrierReject: adminValue(false),
        count: adminValue(1),
      };
      if (chance(0.2)) body.path = pick(['', 'x', 7, null]);
      return body;
    }
    default:
      return {};
  }
}

const ADMIN_ROUTES = [
  'clock',
  'clock/advance',
  'tokens',
  'clients',
  'permissions/withdraw',
  'licence',
  'reset',
  'faults',
  'nothing',
];

type Kind = 'html' | 'token' | 'admin';
interface Req {
  method: string;
  path: string;
  kind: Kind;
  headers: Record<string, string>;
  body?: string | Buffer;
}

const FORM = 'application/x-www-form-urlencoded';
const CONTENT_TYPES = [
  `${FORM}; charset=latin1`,
  `${FORM}; charset=UTF-8`,
  FORM.toUpperCase(),
  'application/json',
  'application/xml',
  'text/plain',
  'multipart/form-data; boundary=x',
  'constructor',
  '',
];

/** A form body: encoded fields, or bytes that are no form (non-UTF-8, oversized, many fields). */
function formBody(pairs: Pair[]): string | Buffer {
  switch (int(20)) {
    case 0:
      return Buffer.concat([Buffer.from(encodePairs(pairs)), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80])]);
    case 1:
      return Buffer.from(encodePairs(pairs), 'utf16le');
    case 2: {
      // Many distinct fields, just under the body limit.
      const parts: string[] = [];
      let size = 0;
      for (let i = 0; size < BODY_LIMIT - 64; i++) {
        const part = `f${i}=1&`;
        parts.push(part);
        size += part.length;
      }
      return `${encodePairs(pairs)}&${parts.join('')}`.slice(0, BODY_LIMIT);
    }
    case 3:
      return `${encodePairs(pairs)}&pad=${'x'.repeat(pick([BODY_LIMIT - 200, BODY_LIMIT + 1]))}`;
    case 4:
      return `${'&'.repeat(50_000)}${encodePairs(pairs)}`;
    case 5:
      return JSON.stringify(Object.fromEntries(pairs));
    default:
      return encodePairs(pairs);
  }
}

function formRequest(method: string, path: string, kind: Kind, pairs: Pair[]): Req {
  const headers: Record<string, string> = { 'content-type': chance(0.85) ? FORM : pick(CONTENT_TYPES) };
  if (method === 'GET' || method === 'HEAD') {
    return {
      method,
      path: `${path}?${encodePairs(pairs)}`,
      kind,
      headers: {},
      ...(chance(0.1) ? { body: 'x=1' } : {}),
    };
  }
  return { method, path, kind, headers, body: formBody(pairs) };
}

function nextRequest(): Req {
  const method = chance(0.75) ? (chance(0.5) ? 'GET' : 'POST') : pick(METHODS);
  switch (int(12)) {
    case 0:
      return {
        method,
        path: pick(['/', '/?x=%ZZ', `/?${'a=1&'.repeat(500)}`, '//', '/index.html']),
        kind: 'html',
        headers: {},
      };
    case 1:
    case 2:
      return {
        method: chance(0.8) ? 'GET' : method,
        path: `/connect/authorize/?${authorizeQuery()}`,
        kind: 'html',
        headers: {},
      };
    case 3:
    case 4:
      return formRequest(chance(0.85) ? 'POST' : method, '/connect/authorize/login', 'html', loginForm());
    case 5:
      return formRequest(chance(0.85) ? 'POST' : method, '/connect/authorize/consent', 'html', consentForm());
    case 6:
    case 7: {
      const req = formRequest(chance(0.9) ? 'POST' : method, '/connect/token/', 'token', tokenForm());
      const auth = tokenAuthorization();
      if (auth !== undefined) req.headers.authorization = auth;
      if (chance(0.05)) req.path += `?client_id=${sb.demo.clientId}&client_secret=${sb.demo.clientSecret}`;
      return req;
    }
    case 8:
      return formRequest(method, '/register', 'html', registerForm());
    default: {
      const route = pick(ADMIN_ROUTES);
      const body = adminBody(route);
      const headers: Record<string, string> = {
        'content-type': chance(0.9) ? 'application/json' : pick(CONTENT_TYPES),
      };
      const text = chance(0.1)
        ? pick(['{', '[]', 'null', '"x"', `{"seconds":${'9'.repeat(400)}}`, '{"__proto__":{"x":1}}', 'seed=none'])
        : JSON.stringify(body);
      const m =
        route === 'clock'
          ? chance(0.8)
            ? 'GET'
            : method
          : route === 'faults' && chance(0.1)
            ? 'DELETE'
            : chance(0.85)
              ? 'POST'
              : method;
      return {
        method: m,
        path: `/_sandbox/${route}`,
        kind: 'admin',
        headers,
        ...(m === 'GET' || m === 'HEAD' ? {} : { body: text }),
      };
    }
  }
}

/** The error envelope of the HTTP layer (404, 405, 413) in the requested format. */
function isEnvelope(fmt: Fmt, contentType: string, text: string): boolean {
  if (!contentType.startsWith(`${MEDIA[fmt]}; charset=UTF-8`)) return false;
  try {
    if (fmt === 'xml' && XMLValidator.validate(text) !== true) return false;
    const body = decodeResponse(fmt, text);
    return body !== null && typeof body === 'object' && Number(body.code) >= 400 && body.status === 'error';
  } catch {
    return false;
  }
}

function jsonObject(contentType: string, text: string): Record<string, unknown> | null {
  if (!contentType.startsWith('application/json')) return null;
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** What is wrong with an answer, or null. */
function problemOf(
  req: Req,
  fmt: Fmt,
  r: { status: number; contentType: string; text: string; headers: http.IncomingHttpHeaders },
): string | null {
  if (r.status >= 500) return '5xx';
  // Spec "GET /api/v3/deliveries": the 414 body is not in the requested format; nor is the HTTP
  // parser's 431 (request line and headers past 64 KiB). Both say why in plain text.
  if (r.status === 414 || r.status === 431)
    return r.contentType.startsWith('text/plain') && r.text.startsWith(String(r.status))
      ? null
      : `${r.status} without a plain-text reason`;
  const head = req.method === 'HEAD';
  if (r.status === 302) {
    if (req.kind !== 'html') return 'redirect from a route that never redirects';
    const location = String(r.headers.location ?? '');
    const ok = registered.some((uri) => location.startsWith(`${uri}?`));
    return ok ? null : `redirect to an address nobody registered: ${location}`;
  }
  // 404 (unknown path), 405 (method) and 413 (body limit) are the HTTP layer's envelope.
  if (r.status === 404 || r.status === 405 || r.status === 413) {
    if (r.contentType.startsWith('text/html') && req.kind === 'html' && r.status !== 405) return null;
    if (head) return r.contentType.startsWith(MEDIA[fmt]) ? null : `HEAD ${r.status} as ${r.contentType}`;
    return isEnvelope(fmt, r.contentType, r.text) ? null : `${r.status} not an envelope in ${fmt}`;
  }
  if (req.kind === 'html') {
    if (!r.contentType.startsWith('text/html; charset=UTF-8')) return `page answered ${r.contentType}`;
    if (head) return null;
    return /^<!doctype html>[\s\S]*<\/html>$/.test(r.text) ? null : 'not a whole HTML page';
  }
  if (head) return r.contentType.startsWith('application/json') ? null : `HEAD answered ${r.contentType}`;
  const body = jsonObject(r.contentType, r.text);
  if (!body) return `not a JSON object (${r.contentType})`;
  if (req.kind === 'token') {
    // RFC 6749 5.1 and 5.2.
    if (r.status === 200) return typeof body.access_token === 'string' ? null : '200 without access_token';
    return typeof body.error === 'string' && typeof body.error_description === 'string'
      ? null
      : 'not an RFC 6749 error';
  }
  return r.status >= 400 && typeof body.error !== 'string' ? 'admin error without "error"' : null;
}

/** Live request ids and codes for the fuzz to use (and to break): real logins through the pages. */
async function refill(): Promise<void> {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: sb.demo.clientId,
    scope: sb.demo.scope,
    state: 'fz',
  });
  const page = await fetch(`${sb.url}/connect/authorize/?${q.toString()}`);
  if (page.status !== 200) return;
  const login = formOf(await page.text());
  loginIds.push(login.fields.request!);
  const consentPage = await postForm(sb, login.action, {
    ...login.fields,
    username: sb.demo.username,
    password: sb.demo.password,
  });
  if (consentPage.status !== 200) return;
  const consent = formOf(await consentPage.text());
  consentIds.push(consent.fields.request!);
  if (loginIds.length > 20) loginIds.splice(0, 10);
  if (consentIds.length > 20) consentIds.splice(0, 10);
}

beforeAll(async () => {
  console.log(`sandbox page fuzz: seed ${SEED}, ${REQUESTS} requests (replay with SANDBOX_FUZZ_SEED=${SEED})`);
  sb = await start({ onError: () => {} });
  other = { clientId: '', secret: 'other-secret-123', redirectUri: 'https://app.example.org/oauth/cb' };
  other.clientId = (
    await admin(sb, 'clients', { companyName: 'Other app', redirectUri: other.redirectUri, clientSecret: other.secret })
  ).clientId;
  registered = [sb.demo.redirectUri, other.redirectUri];
  const t = await loginFully(sb);
  refreshTokens.push(t.refresh_token);
  for (let i = 0; i < 5; i++) await refill();
});
afterAll(async () => {
  agent.destroy();
  await sb.close();
});

test(`Fuzz: ${REQUESTS} hostile requests over the root page, the OAuth pages, the token endpoint, /register and /_sandbox/: no 5xx, every answer in its format, login still works`, async () => {
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  async function worker(): Promise<void> {
    while (next < REQUESTS && failures.length < 20) {
      const n = next++;
      if (n % 100 === 0) await refill();
      const req = nextRequest();
      const { accept, fmt } = pick(ACCEPTS);
      const headers = { ...req.headers };
      if (accept !== undefined) headers.accept = accept;
      if (chance(0.1)) headers['accept-language'] = pick(['cs', 'cs-CZ,cs;q=0.9', '*', 'xx;q=abc']);
      if (chance(0.05)) headers.cookie = `csrf=${hex(32)}`;
      if (chance(0.05)) headers['x-csrf-token'] = hex(32);
      if (chance(0.05)) headers.origin = pick(['https://evil.example', 'null', sb.url]);
      let r: Awaited<ReturnType<typeof rawRequest>>;
      try {
        r = await rawRequest(sb.url + req.path, req.method, headers, req.body, agent);
      } catch (err) {
        // The 431 of a request line past 64 KiB is written before the method is known, with its
        // plain-text reason; a HEAD client reads that body as bytes after the answer.
        if (req.method === 'HEAD' && req.path.length > 60_000 && String(err).includes('Data after')) continue;
        const body = req.body === undefined ? '' : Buffer.from(req.body).toString('utf8').slice(0, 200);
        failures.push(
          `#${n} ${req.method} ${req.path.slice(0, 200)} ${JSON.stringify(headers).slice(0, 300)} body=${JSON.stringify(body)} -> ${String(err)}`,
        );
        continue;
      }
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      if (req.path.startsWith('/connect/authorize/consent') && r.status === 302) {
        const code = new URL(String(r.headers.location)).searchParams.get('code');
        if (code) codes.push(code);
      }
      const problem = problemOf(req, fmt, r);
      if (problem) {
        const body = req.body === undefined ? '' : Buffer.from(req.body).toString('utf8').slice(0, 200);
        failures.push(
          `#${n} ${req.method} ${req.path.slice(0, 200)} accept=${accept} ${JSON.stringify(req.headers).slice(0, 200)} body=${JSON.stringify(body)} -> ${r.status} ${r.contentType}: ${problem}: ${r.text.slice(0, 200)}`,
        );
      }
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  console.log(
    `sandbox page fuzz: statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`,
  );
  expect(failures, `seed ${SEED}`).toEqual([]);

  // The sandbox was not left broken: the pages still render, and a user still logs in, consents,
  // and the application exchanges the code for a token that reads the API.
  for (const path of ['/', '/register']) {
    const page = await fetch(sb.url + path);
    expect(page.status, `seed ${SEED}: GET ${path}`).toBe(200);
  }
  const tokens = await loginFully(sb);
  expect(tokens.access_token, `seed ${SEED}`).toMatch(/^[a-z0-9]{40}$/);
  const index = await api(sb, 'GET', '/api/v3/deliveries?deliveryId=1001', { token: tokens.access_token });
  expect(index.status, `seed ${SEED}: ${index.text.slice(0, 200)}`).toBe(200);
}, 120_000);
