/**
 * Test helpers: a real sandbox on 127.0.0.1:0, requests in the three formats encoded and decoded
 * with independent libraries (fast-xml-parser's builder and parser, qs), and the OAuth pages
 * followed the way a browser would (read the form, post its fields).
 */
import http from 'node:http';
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import qs from 'qs';
import { startSandbox, type Sandbox, type SandboxOptions } from '../index';
import { openApiProblems, type Answer } from './openapiCheck';

export type Fmt = 'json' | 'xml' | 'form';
export const FORMATS: Fmt[] = ['json', 'xml', 'form'];
export const MEDIA: Record<Fmt, string> = {
  json: 'application/json',
  xml: 'application/xml',
  form: 'application/x-www-form-urlencoded',
};

/**
 * Every answer `api()` and `tokenRequest()` receive is checked against the OpenAPI description
 * (openapiCheck.ts): a non-conforming one fails the test that got it. A test that sends
 * what the description forbids on purpose can turn it off with `checkAnswersAgainstOpenApi(false)`;
 * SANDBOX_OPENAPI_CHECK=0 turns it off for a run.
 */
let openApiChecks = process.env.SANDBOX_OPENAPI_CHECK !== '0';
export function checkAnswersAgainstOpenApi(on = true): void {
  openApiChecks = on;
}

function conforms(a: Answer): void {
  if (!openApiChecks) return;
  const problems = openApiProblems(a);
  if (problems.length > 0)
    throw new Error(`answer does not conform to the OpenAPI description:\n${problems.join('\n')}`);
}

export function start(opts: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, onError: (err) => console.error(err), ...opts });
}

export async function admin(sb: Sandbox, path: string, body: unknown = {}, method = 'POST'): Promise<any> {
  const res = await fetch(`${sb.url}/_sandbox/${path}`, {
    method,
    body: method === 'GET' ? undefined : JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`admin ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** An access token by the spec's manual mode (POST /_sandbox/tokens). */
export async function tokenFor(sb: Sandbox, username = sb.demo.username, scope = sb.demo.scope): Promise<string> {
  const t = await admin(sb, 'tokens', { clientId: sb.demo.clientId, username, scope });
  return t.access_token as string;
}

const xmlBuilder = new XMLBuilder({ suppressEmptyNode: true });
export function encodeRequest(fmt: Fmt, body: Record<string, unknown>): string {
  if (fmt === 'json') return JSON.stringify(body);
  if (fmt === 'xml') return `<?xml version="1.0" encoding="UTF-8"?>${xmlBuilder.build({ root: body })}`;
  return qs.stringify(body, { encodeValuesOnly: true });
}

const RESPONSE_ARRAYS = new Set([
  'data',
  'errors',
  'deliveries',
  'packages',
  'extraServices',
  'collectionOrders',
  'zplCodes',
  'traces',
  'transports',
  'fees',
  'bans',
  'arguments',
]);
// htmlEntities: decode character references (&#13;) as every conforming XML parser does; the
// sandbox writes the CR of MIME base64 line breaks that way (XML 1.0 2.11 would drop a literal CR).
const xmlParser = new XMLParser({
  parseTagValue: false,
  htmlEntities: true,
  isArray: (name: string) => RESPONSE_ARRAYS.has(name),
});

export function decodeResponse(fmt: Fmt, text: string): any {
  if (text === '') return null;
  if (fmt === 'json') return JSON.parse(text);
  if (fmt === 'xml') return xmlParser.parse(text).root;
  return qs.parse(text, { arrayLimit: 10_000, depth: 10, parameterLimit: 100_000 });
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export async function api(
  sb: Sandbox,
  method: string,
  path: string,
  o: { fmt?: Fmt; token?: string; body?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const fmt = o.fmt ?? 'json';
  const headers: Record<string, string> = {
    accept: MEDIA[fmt],
    ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
  };
  if (o.body) headers['content-type'] = MEDIA[fmt];
  const res = await fetch(sb.url + path, {
    method,
    headers: { ...headers, ...o.headers },
    body: o.body ? encodeRequest(fmt, o.body) : undefined,
  });
  const text = await res.text();
  conforms({ method, url: path, status: res.status, contentType: res.headers.get('content-type'), text });
  let body: any;
  try {
    body = decodeResponse(fmt, text);
  } catch {
    body = null;
  }
  return { status: res.status, headers: res.headers, text, body };
}

/** Numbers in XML and form responses come with a decimal comma and as strings. */
export function num(v: unknown): number {
  return typeof v === 'number' ? v : Number(String(v).replace(',', '.'));
}

// ----------------------------------------------------------------------------- OAuth pages

export interface PageForm {
  action: string;
  fields: Record<string, string>;
  buttons: Array<{ name: string; value: string }>;
}

export function formOf(html: string): PageForm {
  const form = /<form[^>]*method="post"[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) throw new Error(`no form in page: ${html.slice(0, 300)}`);
  const unescape = (s: string) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const fields: Record<string, string> = {};
  for (const m of form[2]!.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g))
    fields[m[1]!] = unescape(m[2]!);
  const buttons = [...form[2]!.matchAll(/<button[^>]*name="([^"]+)"[^>]*value="([^"]+)"/g)].map((m) => ({
    name: m[1]!,
    value: m[2]!,
  }));
  return { action: unescape(form[1]!), fields, buttons };
}

export async function postForm(
  sb: Sandbox,
  action: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(sb.url + action, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Follows GET authorize -> login page -> consent page -> the button; returns the redirect (302 Location) and the pages. */
export async function authorizeThroughPages(
  sb: Sandbox,
  params: Record<string, string>,
  o: { username?: string; password?: string; decision?: 'allow' | 'deny'; lang?: string } = {},
): Promise<{ location: URL; loginPage: string; consentPage: string }> {
  const headers: Record<string, string> = o.lang ? { 'accept-language': o.lang } : {};
  const authRes = await fetch(`${sb.url}/connect/authorize/?${new URLSearchParams(params).toString()}`, {
    redirect: 'manual',
    headers,
  });
  const loginPage = await authRes.text();
  if (authRes.status !== 200)
    throw new Error(`authorize: ${authRes.status} ${authRes.headers.get('location') ?? loginPage.slice(0, 200)}`);
  const login = formOf(loginPage);
  const consentRes = await postForm(
    sb,
    login.action,
    { ...login.fields, username: o.username ?? sb.demo.username, password: o.password ?? sb.demo.password },
    headers,
  );
  const consentPage = await consentRes.text();
  if (consentRes.status !== 200) throw new Error(`login: ${consentRes.status}`);
  const consent = formOf(consentPage);
  const button = consent.buttons.find((b) => b.value === (o.decision ?? 'allow'));
  if (!button) throw new Error('no such button on the consent page');
  const answer = await postForm(sb, consent.action, { ...consent.fields, [button.name]: button.value }, headers);
  const location = answer.headers.get('location');
  if (answer.status !== 302 || !location) throw new Error(`consent: ${answer.status}`);
  return { location: new URL(location), loginPage, consentPage };
}

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

export async function tokenRequest(
  sb: Sandbox,
  fields: Record<string, string>,
  o: { auth?: string | null; contentType?: string; query?: string } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { 'content-type': o.contentType ?? 'application/x-www-form-urlencoded' };
  const auth = o.auth === undefined ? basic(sb.demo.clientId, sb.demo.clientSecret) : o.auth;
  if (auth) headers.authorization = auth;
  const res = await fetch(`${sb.url}/connect/token/${o.query ?? ''}`, {
    method: 'POST',
    headers,
    body: new URLSearchParams(fields).toString(),
  });
  const text = await res.text();
  conforms({
    method: 'POST',
    url: '/connect/token/',
    status: res.status,
    contentType: res.headers.get('content-type'),
    text,
  });
  return { status: res.status, body: JSON.parse(text), headers: res.headers };
}

/** A full login through the pages and the code exchange: a real access + refresh token. */
export async function loginFully(
  sb: Sandbox,
  scope = sb.demo.scope,
): Promise<{ access_token: string; refresh_token: string; scope: string }> {
  const { location } = await authorizeThroughPages(sb, {
    response_type: 'code',
    client_id: sb.demo.clientId,
    scope,
    state: 's1',
  });
  const code = location.searchParams.get('code')!;
  const r = await tokenRequest(sb, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: sb.demo.redirectUri,
    scope,
  });
  if (r.status !== 200) throw new Error(`token: ${JSON.stringify(r.body)}`);
  return r.body;
}

/** A raw request (node:http, so GET may carry a body): the body as given, the answer parsed in the requested format. */
export function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string | Buffer,
  agent?: http.Agent,
): Promise<{ status: number; contentType: string; text: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const withLength = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const req = http.request(url, { method, headers: withLength, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          text: Buffer.concat(chunks).toString('utf8'),
          headers: res.headers,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
