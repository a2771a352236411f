/** Spec "Flow" 5-9, "Client registration" 3, "Access to resources" (RFC 6749 5.2, RFC 6750 3). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../index';
import { admin, api, authorizeThroughPages, basic, loginFully, start, tokenFor, tokenRequest } from './support';

let sb: Sandbox;
beforeAll(async () => {
  sb = await start();
});
afterAll(() => sb.close());

async function freshCode(scope = 'deliveries transports'): Promise<string> {
  const { location } = await authorizeThroughPages(sb, {
    response_type: 'code',
    client_id: sb.demo.clientId,
    scope,
    state: 's',
  });
  return location.searchParams.get('code')!;
}
const codeFields = async (extra: Record<string, string> = {}) => ({
  grant_type: 'authorization_code',
  code: await freshCode(),
  redirect_uri: sb.demo.redirectUri,
  scope: 'deliveries transports',
  ...extra,
});

describe('Flow 5-7: the token endpoint', () => {
  it('Flow 6-7: authorization_code grant answers access_token, expires_in 3600, token_type bearer, scope and refresh_token (40 [a-z0-9])', async () => {
    const r = await tokenRequest(sb, await codeFields());
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.body).toMatchObject({ expires_in: 3600, token_type: 'bearer', scope: 'deliveries transports' });
    expect(r.body.access_token).toMatch(/^[a-z0-9]{40}$/);
    expect(r.body.refresh_token).toMatch(/^[a-z0-9]{40}$/);
  });

  it('Flow 6: the refresh grant returns the same structure without refresh_token', async () => {
    const first = await tokenRequest(sb, await codeFields());
    const r = await tokenRequest(sb, {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      redirect_uri: sb.demo.redirectUri,
      scope: 'deliveries',
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
    expect(r.body).toMatchObject({ expires_in: 3600, token_type: 'bearer', scope: 'deliveries' });
    expect((await api(sb, 'GET', '/api/v3/deliveries?deliveryId=1001', { token: r.body.access_token })).status).toBe(
      200,
    );
  });

  it('Flow 7: the refresh token has unlimited validity (still works a year later)', async () => {
    const first = await tokenRequest(sb, await codeFields());
    await admin(sb, 'clock/advance', { seconds: 365 * 24 * 3600 });
    const r = await tokenRequest(sb, {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      redirect_uri: sb.demo.redirectUri,
      scope: 'deliveries',
    });
    expect(r.status).toBe(200);
  });

  it('Flow 5: grants other than authorization_code and refresh_token -> unsupported_grant_type', async () => {
    for (const grant of ['client_credentials', 'password', 'implicit']) {
      const r = await tokenRequest(sb, { grant_type: grant, scope: 'deliveries', redirect_uri: sb.demo.redirectUri });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('unsupported_grant_type');
      expect(r.body.error_description).toContain(grant);
    }
  });

  it.each(['code', 'redirect_uri', 'scope', 'grant_type'])(
    'Flow 5: every field of the code grant is required (%s missing -> invalid_request)',
    async (field) => {
      const fields: Record<string, string> = await codeFields();
      delete fields[field];
      const r = await tokenRequest(sb, fields);
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_request');
    },
  );

  it.each(['refresh_token', 'redirect_uri', 'scope'])(
    'Flow 5: every field of the refresh grant is required (%s missing -> invalid_request)',
    async (field) => {
      const fields: Record<string, string> = {
        grant_type: 'refresh_token',
        refresh_token: 'a'.repeat(40),
        redirect_uri: sb.demo.redirectUri,
        scope: 'deliveries',
      };
      delete fields[field];
      const r = await tokenRequest(sb, fields);
      expect(r.body.error).toBe('invalid_request');
      expect(r.body.error_description).toContain(field);
    },
  );

  it('RFC 6749 3.2: a repeated parameter is refused (invalid_request naming it), also behind 1,500 distinct fields', async () => {
    const fields = new URLSearchParams(await codeFields());
    for (let i = 0; i < 1_500; i++) fields.append(`f${i}`, '1');
    fields.append('f1499', '2');
    const res = await fetch(`${sb.url}/connect/token/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(sb.demo.clientId, sb.demo.clientSecret),
      },
      body: fields.toString(),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_request');
    expect(body.error_description).toBe('The parameter f1499 is given more than once.');
  });

  it('Limits on hostile input: a token request body past 16 KiB is refused unparsed (invalid_request)', async () => {
    const big = await tokenRequest(sb, await codeFields({ code_verifier_pad: 'x'.repeat(17_000) }));
    expect(big.status).toBe(400);
    expect(big.body).toEqual({ error: 'invalid_request', error_description: 'The form is larger than 16384 bytes.' });
  });

  it('Flow 5: redirect_uri must be the registered address (invalid_grant)', async () => {
    const r = await tokenRequest(sb, await codeFields({ redirect_uri: 'http://127.0.0.1:53682/other' }));
    expect(r.body.error).toBe('invalid_grant');
  });

  it('Flow 5: scope must stay within what was granted (invalid_scope)', async () => {
    const r = await tokenRequest(sb, await codeFields({ scope: 'deliveries collection-places' }));
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_scope');
  });

  it('Flow 5: a refresh token of another client or a made-up one -> invalid_grant', async () => {
    const r = await tokenRequest(sb, {
      grant_type: 'refresh_token',
      refresh_token: 'b'.repeat(40),
      redirect_uri: sb.demo.redirectUri,
      scope: 'deliveries',
    });
    expect(r.body.error).toBe('invalid_grant');
    const other = await admin(sb, 'clients', {
      companyName: 'Other app',
      redirectUri: 'https://other.example/cb',
      clientSecret: 'other-secret',
    });
    const mine = await tokenRequest(sb, await codeFields());
    const stolen = await tokenRequest(
      sb,
      {
        grant_type: 'refresh_token',
        refresh_token: mine.body.refresh_token,
        redirect_uri: 'https://other.example/cb',
        scope: 'deliveries',
      },
      { auth: basic(other.clientId, 'other-secret') },
    );
    expect(stolen.body.error).toBe('invalid_grant');
  });
});

describe('Client registration 3: credentials only through HTTP Basic', () => {
  it('Client registration 3: credentials in the body are rejected even with a valid Basic header', async () => {
    const r = await tokenRequest(
      sb,
      await codeFields({ client_id: sb.demo.clientId, client_secret: sb.demo.clientSecret }),
    );
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_request');
    expect(r.body.error_description).toContain('HTTP Basic');
  });

  it('Client registration 3: credentials in the query are rejected', async () => {
    const r = await tokenRequest(sb, await codeFields(), {
      auth: null,
      query: `?client_id=${sb.demo.clientId}&client_secret=${sb.demo.clientSecret}`,
    });
    expect(r.body.error).toBe('invalid_request');
  });

  it('Client registration 3: no Basic header or a wrong secret -> 401 invalid_client with a Basic challenge', async () => {
    const none = await tokenRequest(sb, await codeFields(), { auth: null });
    expect(none.status).toBe(401);
    expect(none.body.error).toBe('invalid_client');
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic realm="ClientApi"/);
    const wrong = await tokenRequest(sb, await codeFields(), { auth: basic(sb.demo.clientId, 'not-the-secret') });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
  });

  it('Flow 5: Content-type must be exactly application/x-www-form-urlencoded', async () => {
    for (const contentType of ['application/json', 'text/plain', 'multipart/form-data']) {
      const r = await tokenRequest(sb, await codeFields(), { contentType });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_request');
      expect(r.body.error_description).toContain('application/x-www-form-urlencoded');
    }
  });

  it('Flow 9 (RFC 6749 5.2): errors are JSON with error and error_description, in Czech on request', async () => {
    const res = await fetch(`${sb.url}/connect/token/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(sb.demo.clientId, sb.demo.clientSecret),
        'accept-language': 'cs',
      },
      body: 'grant_type=password',
    });
    const body = (await res.json()) as { error: string; error_description: string };
    expect(body.error).toBe('unsupported_grant_type');
    expect(body.error_description).toContain('není podporován');
  });
});

describe('Access to resources 1-3 (RFC 6750)', () => {
  const challengeRe = /^Bearer realm="ClientApi", error="invalid_token", error_description="[^"]+"$/;

  it('Access 3: a missing token -> 401, WWW-Authenticate Bearer realm="ClientApi" invalid_token, envelope', async () => {
    const r = await api(sb, 'GET', '/api/v3/deliveries?deliveryId=1001');
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(challengeRe);
    expect(r.body).toMatchObject({ code: 401, status: 'error' });
  });

  it('Access 1: a token in the query is not accepted', async () => {
    const token = await tokenFor(sb);
    const r = await api(sb, 'GET', `/api/v3/deliveries?deliveryId=1001&access_token=${token}`);
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(challengeRe);
  });

  it('Access 3: an invalid token -> 401 invalid_token', async () => {
    const r = await api(sb, 'GET', '/api/v3/deliveries?deliveryId=1001', { token: 'z'.repeat(40) });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toContain('error_description="The access token provided is invalid"');
  });

  it('Access 3 / Flow 7: an access token expires after 3600 s with the message "The access token provided has expired"', async () => {
    const token = await tokenFor(sb);
    await admin(sb, 'clock/advance', { seconds: 3599 });
    expect((await api(sb, 'GET', '/api/v3/deliveries?deliveryId=1001', { token })).status).toBe(200);
    await admin(sb, 'clock/advance', { seconds: 2 });
    for (const fmt of ['json', 'xml', 'form'] as const) {
      const r = await api(sb, 'GET', '/api/v3/deliveries?deliveryId=1001', { token, fmt });
      expect(r.status).toBe(401);
      expect(r.body.message).toBe('The access token provided has expired');
      expect(r.headers.get('www-authenticate')).toBe(
        'Bearer realm="ClientApi", error="invalid_token", error_description="The access token provided has expired"',
      );
    }
  });

  it("Access 2 (RFC 6750 3.1): a token without the resource's scope -> 403 insufficient_scope", async () => {
    const token = await tokenFor(sb, 'demo', 'collection-places');
    const r = await api(sb, 'GET', '/api/v3/deliveries?deliveryId=1001', { token });
    expect(r.status).toBe(403);
    expect(r.headers.get('www-authenticate')).toMatch(/error="insufficient_scope".*scope="deliveries"/);
    expect(r.body).toMatchObject({ code: 403, status: 'error' });
  });

  it('Flow 8: withdrawing permission deletes every token of that client for that user (access and refresh)', async () => {
    const tokens = await loginFully(sb);
    const otherUser = await tokenFor(sb, 'other');
    await admin(sb, 'permissions/withdraw', { clientId: sb.demo.clientId, username: 'demo' });
    expect((await api(sb, 'GET', '/api/v3/deliveries?deliveryId=1001', { token: tokens.access_token })).status).toBe(
      401,
    );
    const refreshed = await tokenRequest(sb, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      redirect_uri: sb.demo.redirectUri,
      scope: 'deliveries',
    });
    expect(refreshed.body.error).toBe('invalid_grant');
    // The other user's permission is untouched.
    expect((await api(sb, 'GET', '/api/v3/deliveries?deliveryId=1020', { token: otherUser })).status).toBe(200);
  });
});
