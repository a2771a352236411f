/**
 * GET /connect/authorize/ and its two forms (spec "Flow" 1-4, RFC 6749 4.1.1-4.1.2).
 *
 * Errors about the client itself (unknown client_id, a redirect_uri that is not the registered
 * one) are shown on a page and never redirected (RFC 6749 4.1.2.1). Every other error is sent
 * back to the registered address with `error`, `error_description` and `state`.
 * PKCE (RFC 7636, S256 only) is an addition to the spec: optional, checked when sent.
 */
import { t, type Lang, type Msg } from '../i18n';
import type { RequestContext } from '../http/context';
import type { RawReply } from '../http/envelope';
import { MAX_OAUTH_FORM_BYTES } from '../http/limits';
import type { Router } from '../http/router';
import type { Services } from '../services';
import { randomToken } from '../store/secrets';
import { oauthMessages as m } from './messages';
import { consentPage, errorPage, loginPage } from './pages';
import { parseScope } from './scopes';

/** Spec "Flow" 3: a code is valid 90 seconds. */
export const CODE_LIFETIME_MS = 90 * 1000;

const HTML = 'text/html; charset=UTF-8';
/**
 * `formTargets`: origins a form of the page may end up at. Browsers apply form-action to the
 * redirects after a submit too, so the consent page must allow the client's redirect origin or
 * its answer never reaches the application.
 */
const html = (status: number, body: string, formTargets: string[] = []): RawReply => ({
  kind: 'raw',
  status,
  body,
  contentType: HTML,
  // The pages carry a secret request id: never cached, never framed by another site.
  headers: {
    'cache-control': 'no-store',
    'x-frame-options': 'DENY',
    'content-security-policy': `default-src 'none'; img-src * data:; style-src 'unsafe-inline'; form-action 'self'${formTargets.map((o) => ` ${o}`).join('')}`,
  },
});

function redirectTo(base: string, params: Record<string, string>): RawReply {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) url.searchParams.append(k, v);
  return { kind: 'raw', status: 302, body: '', headers: { location: url.toString(), 'cache-control': 'no-store' } };
}

function errorRedirect(
  base: string,
  error: string,
  message: Msg,
  lang: Lang,
  state: string | null,
  params: Record<string, string> = {},
): RawReply {
  return redirectTo(base, { error, error_description: t(message, lang, params), ...(state !== null ? { state } : {}) });
}

/** The submitted form, or null when it is over MAX_OAUTH_FORM_BYTES (never parsed then). */
function formOf(ctx: RequestContext): URLSearchParams | null {
  return ctx.rawBody.length > MAX_OAUTH_FORM_BYTES ? null : new URLSearchParams(ctx.rawBody.toString('utf8'));
}

const formTooLarge = (lang: Lang) =>
  html(413, errorPage(lang, m.formTooLarge, { limit: String(MAX_OAUTH_FORM_BYTES) }));

function authorizeRequest(ctx: RequestContext, s: Services): RawReply {
  const q = ctx.query;
  const lang = ctx.lang;
  // A duplicated client_id or redirect_uri cannot be trusted for a redirect.
  for (const name of ['client_id', 'redirect_uri']) {
    if (q.getAll(name).length > 1) return html(400, errorPage(lang, m.duplicateParam, { name }));
  }
  const clientId = q.get('client_id');
  if (!clientId) return html(400, errorPage(lang, m.clientIdMissing));
  const client = s.store.oauth.client(clientId);
  if (!client) return html(400, errorPage(lang, m.clientUnknown, { clientId }));
  const given = q.get('redirect_uri');
  if (given !== null && given !== client.redirectUri) return html(400, errorPage(lang, m.redirectMismatch, { given }));

  const state = q.get('state');
  const back = (error: string, message: Msg, params: Record<string, string> = {}) =>
    errorRedirect(client.redirectUri, error, message, lang, state, params);
  for (const name of ['response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method']) {
    if (q.getAll(name).length > 1) return back('invalid_request', m.duplicateParam, { name });
  }
  const responseType = q.get('response_type');
  if (!responseType) return back('invalid_request', m.responseTypeMissing);
  if (responseType !== 'code') return back('unsupported_response_type', m.responseTypeUnsupported);
  const scopeText = q.get('scope');
  if (!scopeText) return back('invalid_request', m.scopeMissing);
  const scope = parseScope(scopeText);
  if (!scope) return back('invalid_scope', m.scopeInvalid, { scope: scopeText });
  if (!state) return back('invalid_request', m.stateMissing);
  const challenge = q.get('code_challenge');
  const method = q.get('code_challenge_method');
  if (
    (method !== null && method !== 'S256') ||
    (method !== null && challenge === null) ||
    (challenge !== null && method === null)
  ) {
    return back('invalid_request', m.pkceMethod);
  }
  if (challenge !== null && !/^[A-Za-z0-9_-]{43}$/.test(challenge)) return back('invalid_request', m.pkceChallenge);

  const pending = s.pending.create(
    { clientId, redirectUri: client.redirectUri, redirectUriGiven: given, scope, state, codeChallenge: challenge },
    s.clock.now().getTime(),
  );
  return html(200, loginPage(lang, client, pending.id, null));
}

async function login(ctx: RequestContext, s: Services): Promise<RawReply> {
  const form = formOf(ctx);
  if (!form) return formTooLarge(ctx.lang);
  const requestId = form.get('request') ?? '';
  const pending = s.pending.get(requestId, s.clock.now().getTime());
  if (!pending) return html(400, errorPage(ctx.lang, m.requestExpired));
  const client = s.store.oauth.client(pending.clientId);
  if (!client) return html(400, errorPage(ctx.lang, m.requestExpired));
  const user = await s.store.oauth.authenticateUser(form.get('username') ?? '', form.get('password') ?? '');
  // Other requests ran while the password was checked: the authorization request may be gone.
  if (s.pending.get(requestId, s.clock.now().getTime()) !== pending)
    return html(400, errorPage(ctx.lang, m.requestExpired));
  if (!user) return html(401, loginPage(ctx.lang, client, pending.id, m.loginFailed));
  pending.username = user.username;
  return html(
    200,
    consentPage(ctx.lang, client, {
      id: pending.id,
      username: user.username,
      scope: pending.scope,
      redirectUri: pending.redirectUri,
    }),
    [new URL(pending.redirectUri).origin],
  );
}

function consent(ctx: RequestContext, s: Services): RawReply {
  const form = formOf(ctx);
  if (!form) return formTooLarge(ctx.lang);
  const now = s.clock.now().getTime();
  const pending = s.pending.get(form.get('request') ?? '', now);
  if (!pending || pending.username === null) return html(400, errorPage(ctx.lang, m.requestExpired));
  s.pending.finish(pending.id);
  if (form.get('decision') !== 'allow') {
    return errorRedirect(pending.redirectUri, 'access_denied', m.accessDenied, ctx.lang, pending.state);
  }
  const code = randomToken(40);
  s.store.oauth.addCode(code, {
    clientId: pending.clientId,
    username: pending.username,
    scope: pending.scope.join(' '),
    redirectUri: pending.redirectUriGiven,
    codeChallenge: pending.codeChallenge,
    expiresAt: now + CODE_LIFETIME_MS,
  });
  return redirectTo(pending.redirectUri, { code, state: pending.state });
}

export function addAuthorizeRoutes(router: Router, s: Services): void {
  router.add('GET', '/connect/authorize/', (ctx) => authorizeRequest(ctx, s), { api: false });
  router.add('POST', '/connect/authorize/login', (ctx) => login(ctx, s), { api: false });
  router.add('POST', '/connect/authorize/consent', (ctx) => consent(ctx, s), { api: false });
}
