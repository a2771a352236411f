/**
 * The token endpoint (spec "Authentication", Flow 5-6): POST {base_url}/connect/token/ with the
 * client credentials in HTTP Basic only, form-urlencoded body. Error bodies follow RFC 6749 5.2
 * (the spec says "not shown beyond the reference to RFC 6749").
 */
import { ServiceError } from '../api/errors';
import { tokenResponse } from '../api/schemas';
import { sendWire } from '../api/wire';

export interface ClientCredentials {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface TokenGrant {
  accessToken: string;
  /** Only the authorization-code grant returns one (spec Flow 6). */
  refreshToken: string | null;
  expiresIn: number;
  scope: string | null;
}

/** application/x-www-form-urlencoded encoding of one value (RFC 6749 2.3.1 / Appendix B). */
export function formEncode(v: string): string {
  return new URLSearchParams({ v }).toString().slice(2);
}

/** RFC 6749 2.3.1: id and secret are form-urlencoded, then joined by ':' and base64-encoded. */
export function basicAuth(clientId: string, clientSecret: string): string {
  return 'Basic ' + Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`).toString('base64');
}

export function tokenUrl(baseUrl: string): URL {
  return new URL(baseUrl.replace(/\/+$/, '') + '/connect/token/');
}

/**
 * One token request; never retried here (the caller decides: a refresh may be retried, a code
 * exchange never). invalid_grant -> 'login_required'; invalid_client -> 'auth'.
 */
export async function requestToken(
  creds: ClientCredentials,
  fields: Record<string, string>,
  opts: { timeoutMs?: number; signal?: AbortSignal; language?: 'en' | 'cs' } = {},
): Promise<TokenGrant> {
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
  let res;
  try {
    res = await sendWire({
      method: 'POST',
      url: tokenUrl(creds.baseUrl),
      headers: {
        authorization: basicAuth(creds.clientId, creds.clientSecret),
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        'accept-language': opts.language ?? 'en',
      },
      body: new URLSearchParams(fields).toString(),
      signal,
    });
  } catch (err) {
    if (opts.signal?.aborted) throw new ServiceError('network', 'The login request was cancelled.', { cause: err });
    if (err instanceof Error && err.name === 'TimeoutError') {
      throw new ServiceError('timeout', `The login service did not answer within ${timeoutMs / 1000} s.`, {
        cause: err,
      });
    }
    const code = (err as { code?: string }).code ?? (err as Error).message;
    throw new ServiceError('network', `The login service cannot be reached (${code}).`, { cause: err });
  }

  let body: unknown;
  try {
    body = JSON.parse(res.body.toString('utf8'));
  } catch {
    body = null;
  }
  if (res.status !== 200) {
    const o = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const error = typeof o.error === 'string' ? o.error : null;
    const description =
      typeof o.error_description === 'string' ? o.error_description : typeof o.message === 'string' ? o.message : null;
    if (error === 'invalid_grant') {
      throw new ServiceError(
        'login_required',
        `The saved login is no longer valid${description ? ` (${description})` : ''}. Log in again.`,
        { status: res.status },
      );
    }
    if (error === 'invalid_client' || error === 'unauthorized_client' || res.status === 401) {
      throw new ServiceError(
        'auth',
        `The service refused the client id or client secret${description ? ` (${description})` : ''}. Check the account settings.`,
        { status: res.status },
      );
    }
    throw new ServiceError(
      'http',
      `The login service answered HTTP ${res.status}${error ? ` (${error}${description ? `: ${description}` : ''})` : ''}.`,
      { status: res.status },
    );
  }
  const parsed = tokenResponse.safeParse(body);
  if (!parsed.success)
    throw new ServiceError('malformed', 'The login service answered with something that is not a token.', {
      status: res.status,
    });
  return {
    accessToken: parsed.data.access_token,
    refreshToken: parsed.data.refresh_token ?? null,
    expiresIn: parsed.data.expires_in,
    scope: parsed.data.scope ?? null,
  };
}
