/**
 * The HTML pages of the authorization server (spec "Flow" 2, "Client registration" 1): login,
 * consent, registration and error. Plain forms without scripts, so a test (or curl) can follow
 * them by reading the <form> and its inputs.
 */
import { t, type Lang, type Msg } from '../i18n';
import type { ClientRecord } from '../store/index';
import { oauthMessages as m } from './messages';
import { scopeDescriptions, type Scope } from './scopes';

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ESC[c]!);

export function page(lang: Lang, title: Msg, body: string): string {
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(t(title, lang))} · Parcel Shipping Sandbox</title>
<style>
body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1d2430}
h1{font-size:1.4rem} label{display:block;margin:.8rem 0 .2rem} input[type=text],input[type=password],input[type=url]{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{font-size:1rem;padding:.5rem 1.2rem;margin:1rem .5rem 0 0} .error{color:#a4161a;font-weight:600} dt{font-weight:600;margin-top:.6rem}
.client{display:flex;gap:1rem;align-items:center} .client img{max-width:96px;max-height:96px} code{background:#eef;padding:0 .2rem}
</style></head><body><h1>${esc(t(title, lang))}</h1>
${body}
</body></html>`;
}

function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${esc(name)}" value="${esc(value)}">`;
}

export function loginPage(lang: Lang, client: ClientRecord, requestId: string, error: Msg | null): string {
  return page(
    lang,
    m.pageTitleLogin,
    `<p>${esc(t(m.loginIntro, lang, { company: client.companyName }))}</p>
${error ? `<p class="error" role="alert">${esc(t(error, lang))}</p>` : ''}
<form method="post" action="/connect/authorize/login">
${hidden('request', requestId)}
<label for="username">${esc(t(m.username, lang))}</label><input type="text" id="username" name="username" autocomplete="username" required autofocus>
<label for="password">${esc(t(m.password, lang))}</label><input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit">${esc(t(m.signIn, lang))}</button>
</form>`,
  );
}

export function consentPage(
  lang: Lang,
  client: ClientRecord,
  req: { id: string; username: string; scope: Scope[]; redirectUri: string },
): string {
  const notGiven = esc(t(m.notGiven, lang));
  const logo = client.logoUrl ? `<img src="${esc(client.logoUrl)}" alt="${esc(client.companyName)} logo">` : '';
  const web = client.webUrl
    ? `<a href="${esc(client.webUrl)}" rel="noopener noreferrer">${esc(client.webUrl)}</a>`
    : notGiven;
  const scopes = req.scope
    .map((s) => `<li><code>${esc(s)}</code>: ${esc(t(scopeDescriptions[s], lang))}</li>`)
    .join('');
  return page(
    lang,
    m.pageTitleConsent,
    `<p>${esc(t(m.consentIntro, lang, { username: req.username }))}</p>
<div class="client">${logo}<dl>
<dt>${esc(t(m.consentCompany, lang))}</dt><dd class="company">${esc(client.companyName)}</dd>
<dt>${esc(t(m.consentWeb, lang))}</dt><dd class="web">${web}</dd>
</dl></div>
<dl><dt>${esc(t(m.consentScope, lang))}</dt><dd><ul class="scope">${scopes}</ul></dd>
<dt>${esc(t(m.consentRedirect, lang))}</dt><dd class="redirect"><code>${esc(req.redirectUri)}</code></dd></dl>
<form method="post" action="/connect/authorize/consent">
${hidden('request', req.id)}
<button type="submit" name="decision" value="allow">${esc(t(m.allow, lang))}</button>
<button type="submit" name="decision" value="deny">${esc(t(m.deny, lang))}</button>
</form>`,
  );
}

export function errorPage(lang: Lang, message: Msg, params: Record<string, string> = {}): string {
  return page(lang, m.pageTitleError, `<p class="error" role="alert">${esc(t(message, lang, params))}</p>`);
}

export interface RegisterForm {
  companyName: string;
  logoUrl: string;
  webUrl: string;
  redirectUri: string;
}

export function registerPage(lang: Lang, values: RegisterForm, errors: string[], clientId: string | null): string {
  const field = (name: keyof RegisterForm | 'clientSecret', label: Msg, type: string, value: string) =>
    `<label for="${name}">${esc(t(label, lang))}</label><input type="${type}" id="${name}" name="${name}" value="${esc(value)}">`;
  const done = clientId
    ? `<p class="registered">${esc(t(m.registered, lang))} <code id="client_id">${esc(clientId)}</code></p>`
    : '';
  const errs = errors.map((e) => `<p class="error" role="alert">${esc(e)}</p>`).join('');
  return page(
    lang,
    m.pageTitleRegister,
    `${done}<p>${esc(t(m.registerIntro, lang))}</p>${errs}
<form method="post" action="/register">
${field('companyName', m.fieldCompanyName, 'text', values.companyName)}
${field('logoUrl', m.fieldLogoUrl, 'url', values.logoUrl)}
${field('webUrl', m.fieldWebUrl, 'url', values.webUrl)}
${field('redirectUri', m.fieldRedirectUri, 'url', values.redirectUri)}
${field('clientSecret', m.fieldClientSecret, 'password', '')}
<button type="submit">${esc(t(m.register, lang))}</button>
</form>`,
  );
}
