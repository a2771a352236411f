/**
 * POST /connect/token/ (spec "Flow" 5-7, "Client registration" 3; RFC 6749 sections 2.3.1, 4.1.3,
 * 5, 6). Error bodies are RFC 6749 5.2 JSON: `{ error, error_description }`.
 */
import { createHash } from 'node:crypto';
import { t, type Lang, type Msg } from '../i18n';
import { header, type RequestContext } from '../http/context';
import type { RawReply } from '../http/envelope';
import { mediaTypeOfHeader } from '../http/formats';
import { MAX_OAUTH_FORM_BYTES } from '../http/limits';
import type { Router } from '../http/router';
import type { Services } from '../services';
import type { ClientRecord } from '../store/index';
import { randomToken } from '../store/secrets';
import { oauthMessages as m } from './messages';
import { parseScope, scopeWithin } from './scopes';

/** Spec "Flow" 6-7: access tokens live 3600 s; refresh tokens have no expiry. */
export const ACCESS_TOKEN_SECONDS = 3600;

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

function json(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): RawReply {
  return {
    kind: 'raw',
    status,
    body: JSON.stringify(body),
    contentType: 'application/json; charset=UTF-8',
    headers: { ...NO_STORE, ...headers },
  };
}

function oauthError(lang: Lang, error: string, message: Msg, params: Record<string, string> = {}): RawReply {
  // RFC 6749 5.2: invalid_client through HTTP Basic answers 401 with a Basic challenge.
  const status = error === 'invalid_client' ? 401 : 400;
  const headers: Record<string, string> =
    error === 'invalid_client' ? { 'www-authenticate': 'Basic realm="ClientApi", charset="UTF-8"' } : {};
  return json(status, { error, error_description: t(message, lang, params) }, headers);
}

/** `Authorization: Basic base64(client_id:client_secret)` with RFC 6749 2.3.1 form-encoding of both parts. */
function basicCredentials(value: string | undefined): { id: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(value ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return null;
  try {
    const unform = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) };
  } catch {
    return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
  }
}

/**
 * The first parameter name that comes twice (RFC 6749 3.2: "parameters MUST NOT be included more
 * than once"), or null. One pass: a getAll() per name is quadratic, and a 1 MiB body of distinct
 * names held the event loop for minutes.
 */
function firstRepeated(body: URLSearchParams): string | null {
  const seen = new Set<string>();
  for (const [name] of body) {
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return null;
}

const REQUIRED: Record<string, string[]> = {
  authorization_code: ['code', 'redirect_uri', 'scope', 'grant_type'],
  refresh_token: ['refresh_token', 'redirect_uri', 'scope', 'grant_type'],
};

function issueAccess(
  s: Services,
  client: ClientRecord,
  username: string,
  scope: string,
  fromCode: string | null,
): string {
  const token = randomToken(40);
  const expiresAt = s.clock.now().getTime() + ACCESS_TOKEN_SECONDS * 1000;
  s.store.oauth.addToken(token, { kind: 'access', clientId: client.clientId, username, scope, expiresAt }, fromCode);
  return token;
}

async function tokenRequest(ctx: RequestContext, s: Services): Promise<RawReply> {
  const lang = ctx.lang;
  // Spec "Flow" 5: the Content-type is exactly application/x-www-form-urlencoded (a charset parameter is tolerated).
  const contentType = header(ctx, 'content-type');
  const params = (contentType ?? '')
    .split(';')
    .slice(1)
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean);
  if (
    mediaTypeOfHeader(contentType) !== 'application/x-www-form-urlencoded' ||
    params.some((p) => p !== 'charset=utf-8')
  ) {
    return oauthError(lang, 'invalid_request', m.tokenContentType);
  }
  if (ctx.rawBody.length > MAX_OAUTH_FORM_BYTES)
    return oauthError(lang, 'invalid_request', m.formTooLarge, { limit: String(MAX_OAUTH_FORM_BYTES) });
  const body = new URLSearchParams(ctx.rawBody.toString('utf8'));
  // Spec "Client registration" 3: credentials in the query or the body are not supported.
  if (['client_id', 'client_secret'].some((k) => body.has(k) || ctx.query.has(k)))
    return oauthError(lang, 'invalid_request', m.credentialsNotInBasic);
  const creds = basicCredentials(header(ctx, 'authorization'));
  if (!creds) return oauthError(lang, 'invalid_client', m.basicMissing);
  const client = await s.store.oauth.authenticateClient(creds.id, creds.secret);
  if (!client) return oauthError(lang, 'invalid_client', m.clientAuthFailed);

  const repeated = firstRepeated(body);
  if (repeated !== null) return oauthError(lang, 'invalid_request', m.duplicateParam, { name: repeated });
  const grantType = body.get('grant_type');
  if (!grantType) return oauthError(lang, 'invalid_request', m.grantTypeMissing);
  const required = Object.hasOwn(REQUIRED, grantType) ? REQUIRED[grantType] : undefined;
  if (!required) return oauthError(lang, 'unsupported_grant_type', m.grantTypeUnsupported, { grantType });
  const missing = required.filter((k) => !body.get(k));
  if (missing.length > 0) return oauthError(lang, 'invalid_request', m.fieldsMissing, { names: missing.join(', ') });

  // Spec "Flow" 5 table: redirect_uri is the registered address.
  if (body.get('redirect_uri') !== client.redirectUri)
    return oauthError(lang, 'invalid_grant', m.tokenRedirectMismatch);
  const scopeText = body.get('scope')!;
  const scope = parseScope(scopeText);
  if (!scope) return oauthError(lang, 'invalid_scope', m.scopeInvalid, { scope: scopeText });

  return grantType === 'authorization_code'
    ? codeGrant(body, client, scope, s, lang)
    : refreshGrant(body, client, scope, s, lang);
}

function codeGrant(body: URLSearchParams, client: ClientRecord, scope: string[], s: Services, lang: Lang): RawReply {
  const code = body.get('code')!;
  const now = s.clock.now().getTime();
  const rec = s.store.oauth.code(code);
  if (!rec || rec.clientId !== client.clientId || rec.expiresAt <= now)
    return oauthError(lang, 'invalid_grant', m.codeInvalid);
  if (rec.usedAt !== null) {
    // RFC 6749 4.1.2: a code used twice is treated as stolen; what was issued from it is revoked.
    s.store.oauth.revokeTokensOfCode(code);
    return oauthError(lang, 'invalid_grant', m.codeInvalid);
  }
  if (rec.redirectUri !== null && rec.redirectUri !== body.get('redirect_uri'))
    return oauthError(lang, 'invalid_grant', m.tokenRedirectMismatch);
  if (!scopeWithin(scope, rec.scope))
    return oauthError(lang, 'invalid_scope', m.scopeNotGranted, { scope: scope.join(' '), granted: rec.scope });
  // PKCE (RFC 7636 4.6; RFC 9700 2.1.1: a verifier without a challenge is refused too).
  const verifier = body.get('code_verifier');
  if (rec.codeChallenge !== null) {
    if (!verifier) return oauthError(lang, 'invalid_grant', m.verifierMissing);
    const computed = createHash('sha256').update(verifier).digest('base64url');
    if (computed !== rec.codeChallenge) return oauthError(lang, 'invalid_grant', m.verifierMismatch);
  } else if (verifier) {
    return oauthError(lang, 'invalid_grant', m.verifierUnexpected);
  }
  if (!s.store.oauth.useCode(code, now)) return oauthError(lang, 'invalid_grant', m.codeInvalid);

  const scopeText = scope.join(' ');
  const refresh = randomToken(40);
  s.store.transaction(() => {
    s.store.oauth.addToken(
      refresh,
      { kind: 'refresh', clientId: client.clientId, username: rec.username, scope: scopeText, expiresAt: null },
      code,
    );
  });
  const access = issueAccess(s, client, rec.username, scopeText, code);
  return json(200, {
    access_token: access,
    expires_in: ACCESS_TOKEN_SECONDS,
    token_type: 'bearer',
    scope: scopeText,
    refresh_token: refresh,
  });
}

function refreshGrant(body: URLSearchParams, client: ClientRecord, scope: string[], s: Services, lang: Lang): RawReply {
  const rec = s.store.oauth.token(body.get('refresh_token')!);
  if (!rec || rec.kind !== 'refresh' || rec.clientId !== client.clientId)
    return oauthError(lang, 'invalid_grant', m.refreshInvalid);
  if (!scopeWithin(scope, rec.scope))
    return oauthError(lang, 'invalid_scope', m.scopeNotGranted, { scope: scope.join(' '), granted: rec.scope });
  const scopeText = scope.join(' ');
  const access = issueAccess(s, client, rec.username, scopeText, null);
  // Spec "Flow" 6: the refresh grant's response has no refresh_token.
  return json(200, { access_token: access, expires_in: ACCESS_TOKEN_SECONDS, token_type: 'bearer', scope: scopeText });
}

export function addTokenRoute(router: Router, s: Services): void {
  router.add('POST', '/connect/token/', (ctx) => tokenRequest(ctx, s), { api: false });
}

/** The spec's "manual mode" (Access to resources 4), used by POST /_sandbox/tokens. */
export function issueTokensByHand(
  s: Services,
  client: ClientRecord,
  username: string,
  scope: string,
): { access_token: string; refresh_token: string; expires_in: number; scope: string } {
  const refresh = randomToken(40);
  s.store.oauth.addToken(refresh, { kind: 'refresh', clientId: client.clientId, username, scope, expiresAt: null });
  return {
    access_token: issueAccess(s, client, username, scope, null),
    refresh_token: refresh,
    expires_in: ACCESS_TOKEN_SECONDS,
    scope,
  };
}
