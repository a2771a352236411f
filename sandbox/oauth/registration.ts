/** Client registration (spec "Client registration"): shared by the page and the admin call. */
import type { Msg } from '../i18n';
import type { SandboxStore } from '../store/index';
import { randomToken } from '../store/secrets';
import { oauthMessages as m } from './messages';

export interface ClientRegistration {
  companyName: string;
  logoUrl?: string | null;
  webUrl?: string | null;
  redirectUri: string;
  clientSecret: string;
}

export type RegistrationProblem = { message: Msg; params?: Record<string, string> };

function isHttpUrl(text: string, allowFragment = true): boolean {
  try {
    const u = new URL(text);
    return (u.protocol === 'http:' || u.protocol === 'https:') && (allowFragment || u.hash === '');
  } catch {
    return false;
  }
}

/**
 * The spec says the redirect address "should use https"; plain http is accepted because the
 * sandbox and the station's loopback redirect (http://127.0.0.1:53682/callback) live on http.
 */
export function checkRegistration(r: ClientRegistration): RegistrationProblem[] {
  const problems: RegistrationProblem[] = [];
  if (!r.companyName?.trim()) problems.push({ message: m.companyNameRequired });
  if (!isHttpUrl(r.redirectUri ?? '', false) || (r.redirectUri ?? '').includes('#'))
    problems.push({ message: m.redirectUriInvalid });
  if (r.logoUrl && !isHttpUrl(r.logoUrl)) problems.push({ message: m.urlInvalid, params: { field: 'logoUrl' } });
  if (r.webUrl && !isHttpUrl(r.webUrl)) problems.push({ message: m.urlInvalid, params: { field: 'webUrl' } });
  if ((r.clientSecret ?? '').length < 8) problems.push({ message: m.secretTooShort });
  return problems;
}

/** Registers and returns the generated client_id (32 lowercase letters and digits). */
export function registerClient(
  store: SandboxStore,
  r: ClientRegistration,
  now: Date,
  clientId = randomToken(32),
): string {
  store.oauth.addClient(
    {
      clientId,
      companyName: r.companyName.trim(),
      logoUrl: r.logoUrl || null,
      webUrl: r.webUrl || null,
      redirectUri: r.redirectUri,
      clientSecret: r.clientSecret,
    },
    now.getTime(),
  );
  return clientId;
}
