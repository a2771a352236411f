/** Spec "Authentication" > "Flow" 1-4 and "Client registration": the authorization pages. */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../index';
import { admin, authorizeThroughPages, formOf, postForm, start, tokenRequest } from './support';

let sb: Sandbox;
beforeAll(async () => {
  sb = await start();
});
afterAll(() => sb.close());

const params = (extra: Record<string, string> = {}) => ({
  response_type: 'code',
  client_id: sb.demo.clientId,
  scope: 'deliveries',
  state: 'xyz-123',
  ...extra,
});

async function authorizeRaw(p: Record<string, string>): Promise<Response> {
  return fetch(`${sb.url}/connect/authorize/?${new URLSearchParams(p).toString()}`, { redirect: 'manual' });
}

describe('Flow 1-3: authorization request, login, consent, code', () => {
  it('Flow 3: allowing redirects to the registered address with a 40-character [a-z0-9] code and the same state', async () => {
    const { location } = await authorizeThroughPages(sb, params());
    expect(`${location.origin}${location.pathname}`).toBe(sb.demo.redirectUri);
    expect(location.searchParams.get('state')).toBe('xyz-123');
    expect(location.searchParams.get('code')).toMatch(/^[a-z0-9]{40}$/);
  });

  it('Flow 2: the consent page shows the company name, logo, web address, requested scope and redirect target', async () => {
    const { consentPage } = await authorizeThroughPages(sb, params({ scope: 'deliveries collection-places' }), {
      decision: 'deny',
    });
    expect(consentPage).toContain('Label Station (demo)');
    expect(consentPage).toContain('<img src="https://example.com/label-station/logo.png"');
    expect(consentPage).toContain('https://example.com/label-station');
    expect(consentPage).toContain('<code>deliveries</code>');
    expect(consentPage).toContain('<code>collection-places</code>');
    expect(consentPage).toContain(sb.demo.redirectUri);
  });

  it('Flow 2: the pages are in Czech with accept-language: cs', async () => {
    const { loginPage, consentPage } = await authorizeThroughPages(sb, params(), { lang: 'cs', decision: 'deny' });
    expect(loginPage).toContain('Přihlásit');
    expect(consentPage).toContain('Povolit');
    expect(consentPage).toContain('Zamítnout');
  });

  it('Flow 4: denying redirects with error=access_denied, error_description and state', async () => {
    const { location } = await authorizeThroughPages(sb, params(), { decision: 'deny' });
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('error_description')).toBeTruthy();
    expect(location.searchParams.get('state')).toBe('xyz-123');
    expect(location.searchParams.has('code')).toBe(false);
  });

  it('Flow 2: a wrong password shows the login page again with an error and no consent form', async () => {
    const res = await authorizeRaw(params());
    const login = formOf(await res.text());
    const again = await postForm(sb, login.action, { ...login.fields, username: 'demo', password: 'wrong' });
    const html = await again.text();
    expect(again.status).toBe(401);
    expect(html).toContain('The user name or password is wrong.');
    expect(formOf(html).action).toBe('/connect/authorize/login');
  });

  it('Flow 1: redirect_uri, when given, must match the registered address exactly (error page, no redirect)', async () => {
    const ok = await authorizeRaw(params({ redirect_uri: sb.demo.redirectUri }));
    expect(ok.status).toBe(200);
    for (const wrong of [
      `${sb.demo.redirectUri}/`,
      sb.demo.redirectUri.replace('53682', '53683'),
      `${sb.demo.redirectUri}?x=1`,
    ]) {
      const res = await authorizeRaw(params({ redirect_uri: wrong }));
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('does not match the registered address');
    }
  });

  it('Flow 1: an unknown or missing client_id gets an error page, never a redirect', async () => {
    for (const p of [params({ client_id: 'nope' }), { response_type: 'code', scope: 'deliveries', state: 's' }]) {
      const res = await authorizeRaw(p);
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
    }
  });

  it.each([
    ['response_type', 'invalid_request'],
    ['scope', 'invalid_request'],
    ['state', 'invalid_request'],
  ])('Flow 1: %s is required (redirect with %s)', async (missing, error) => {
    const p: Record<string, string> = params();
    delete p[missing];
    const res = await authorizeRaw(p);
    expect(res.status).toBe(302);
    const loc = new URL(res.headers.get('location')!);
    expect(loc.searchParams.get('error')).toBe(error);
    expect(loc.searchParams.get('error_description')).toBeTruthy();
  });

  it('Flow 1 (RFC 6749 4.1.2.1): response_type other than code -> unsupported_response_type; unknown scope -> invalid_scope', async () => {
    const a = new URL((await authorizeRaw(params({ response_type: 'token' }))).headers.get('location')!);
    expect(a.searchParams.get('error')).toBe('unsupported_response_type');
    expect(a.searchParams.get('state')).toBe('xyz-123');
    const b = new URL((await authorizeRaw(params({ scope: 'deliveries admin' }))).headers.get('location')!);
    expect(b.searchParams.get('error')).toBe('invalid_scope');
  });
});

describe('Client registration 1-2: the page and the admin call', () => {
  it('Client registration 2: the registration page yields a generated client_id that can log in', async () => {
    const page = await (await fetch(`${sb.url}/register`)).text();
    const form = formOf(page);
    expect(form.action).toBe('/register');
    const res = await postForm(sb, form.action, {
      companyName: 'Acme Integrations',
      logoUrl: 'https://acme.example/logo.png',
      webUrl: 'https://acme.example',
      redirectUri: 'https://acme.example/cb',
      clientSecret: 'acme-secret-1',
    });
    const html = await res.text();
    expect(res.status).toBe(201);
    const clientId = /id="client_id">([a-z0-9]+)</.exec(html)?.[1];
    expect(clientId).toMatch(/^[a-z0-9]{32}$/);
    const { location, consentPage } = await authorizeThroughPages(sb, {
      response_type: 'code',
      client_id: clientId!,
      scope: 'deliveries',
      state: 'a',
    });
    expect(consentPage).toContain('Acme Integrations');
    expect(location.origin + location.pathname).toBe('https://acme.example/cb');
  });

  it('Client registration 1: the page refuses a missing company name, a bad redirect address and a short secret', async () => {
    const res = await postForm(sb, '/register', { companyName: '', redirectUri: 'not a url', clientSecret: 'short' });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('company name is required');
    expect(html).toContain('redirect address must be an absolute');
    expect(html).toContain('at least 8 characters');
  });
});

describe('PKCE (an addition to the spec, RFC 7636 S256)', () => {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');

  async function codeWith(extra: Record<string, string>): Promise<string> {
    const { location } = await authorizeThroughPages(sb, params(extra));
    return location.searchParams.get('code')!;
  }
  const exchange = (code: string, extra: Record<string, string> = {}) =>
    tokenRequest(sb, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: sb.demo.redirectUri,
      scope: 'deliveries',
      ...extra,
    });

  it('PKCE: a code issued with a code_challenge needs the matching code_verifier', async () => {
    const code = await codeWith({ code_challenge: challenge, code_challenge_method: 'S256' });
    expect((await exchange(code, { code_verifier: 'x'.repeat(43) })).body.error).toBe('invalid_grant');
    const missing = await exchange(await codeWith({ code_challenge: challenge, code_challenge_method: 'S256' }));
    expect(missing.body).toMatchObject({ error: 'invalid_grant' });
    expect(missing.body.error_description).toContain('code_verifier');
    const ok = await exchange(await codeWith({ code_challenge: challenge, code_challenge_method: 'S256' }), {
      code_verifier: verifier,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.access_token).toMatch(/^[a-z0-9]{40}$/);
  });

  it('PKCE: a request without code_challenge works as the spec says, and then a code_verifier is refused', async () => {
    expect((await exchange(await codeWith({}))).status).toBe(200);
    expect((await exchange(await codeWith({}), { code_verifier: verifier })).body.error).toBe('invalid_grant');
  });

  it('PKCE: only S256 is accepted as code_challenge_method', async () => {
    const res = await authorizeRaw(params({ code_challenge: challenge, code_challenge_method: 'plain' }));
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });
});

describe('Flow 3: codes are single use and valid 90 seconds', () => {
  it('Flow 3: a code is valid 90 seconds (expired after the clock moves 91 s)', async () => {
    const { location } = await authorizeThroughPages(sb, params());
    await admin(sb, 'clock/advance', { seconds: 91 });
    const r = await tokenRequest(sb, {
      grant_type: 'authorization_code',
      code: location.searchParams.get('code')!,
      redirect_uri: sb.demo.redirectUri,
      scope: 'deliveries',
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_grant');
  });

  it('Flow 3: a code works once; using it again fails and revokes the tokens issued from it (RFC 6749 4.1.2)', async () => {
    const { location } = await authorizeThroughPages(sb, params());
    const fields = {
      grant_type: 'authorization_code',
      code: location.searchParams.get('code')!,
      redirect_uri: sb.demo.redirectUri,
      scope: 'deliveries',
    };
    const first = await tokenRequest(sb, fields);
    expect(first.status).toBe(200);
    const second = await tokenRequest(sb, fields);
    expect(second.body.error).toBe('invalid_grant');
    const res = await fetch(`${sb.url}/api/v3/deliveries?deliveryId=1001`, {
      headers: { authorization: `Bearer ${first.body.access_token}` },
    });
    expect(res.status).toBe(401);
  });
});

describe('Limits on hostile input: OAuth forms over 16 KiB are refused unparsed', () => {
  it('A login form padded past 16 KiB answers 413 with an HTML page saying so; the same login under it works', async () => {
    const page = await authorizeRaw(params());
    const login = formOf(await page.text());
    const fields = { ...login.fields, username: sb.demo.username, password: sb.demo.password };
    const big = await postForm(sb, login.action, { ...fields, pad: 'x'.repeat(17_000) });
    expect(big.status).toBe(413);
    expect(big.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await big.text()).toContain('The form is larger than 16384 bytes.');
    const ok = await postForm(sb, login.action, { ...fields, pad: 'x'.repeat(15_000) });
    expect(ok.status).toBe(200);
  });

  it('A registration form past 16 KiB answers 413 with the registration page and the reason, and registers nothing', async () => {
    const res = await postForm(sb, '/register', {
      companyName: 'Big form',
      redirectUri: 'http://127.0.0.1:9000/cb',
      clientSecret: 'long-enough-secret',
      pad: 'x'.repeat(17_000),
    });
    expect(res.status).toBe(413);
    const html = await res.text();
    expect(html).toContain('The form is larger than 16384 bytes.');
    expect(html).not.toContain('id="client_id"');
  });
});
