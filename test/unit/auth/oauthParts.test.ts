import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bearerError } from '../../../electron/api/core';
import { loginPage } from '../../../electron/auth/loginPage';
import { authorizeUrl, createPkce, loopbackRedirectUri } from '../../../electron/auth/loopbackLogin';
import { basicAuth } from '../../../electron/auth/tokenEndpoint';

describe('client credentials in HTTP Basic (spec "Client registration" 3, RFC 6749 2.3.1)', () => {
  it('form-urlencodes id and secret before base64', () => {
    const h = basicAuth('my client', 'p@ss:wörd+1');
    const decoded = Buffer.from(h.replace(/^Basic /, ''), 'base64').toString();
    expect(decoded).toBe('my+client:p%40ss%3Aw%C3%B6rd%2B1');
    expect(basicAuth('demo-client', 'demo-secret')).toBe(
      'Basic ' + Buffer.from('demo-client:demo-secret').toString('base64'),
    );
  });
});

describe('PKCE S256 (RFC 7636) and the authorize URL (spec Flow 1)', () => {
  it('the challenge is base64url(sha256(verifier)) and the verifier is 43 url-safe characters', () => {
    const { verifier, challenge } = createPkce();
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(challenge).toBe(createHash('sha256').update(verifier).digest('base64url'));
    expect(createPkce().verifier).not.toBe(verifier);
  });

  it('carries the four required parameters, the exact redirect and the challenge', () => {
    const u = new URL(
      authorizeUrl({
        baseUrl: 'https://svc.example/',
        clientId: 'c1',
        scopes: ['deliveries', 'transports'],
        state: 'st',
        redirectUri: loopbackRedirectUri(),
        challenge: 'ch',
      }),
    );
    expect(u.origin + u.pathname).toBe('https://svc.example/connect/authorize/');
    expect(Object.fromEntries(u.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'c1',
      scope: 'deliveries transports',
      state: 'st',
      redirect_uri: 'http://127.0.0.1:53682/callback',
      code_challenge: 'ch',
      code_challenge_method: 'S256',
    });
  });
});

describe('WWW-Authenticate (RFC 6750 3)', () => {
  it('finds the error code', () => {
    expect(bearerError('Bearer realm="ClientApi", error="invalid_token", error_description="expired"')).toBe(
      'invalid_token',
    );
    expect(bearerError('Bearer realm="ClientApi"')).toBeNull();
    expect(bearerError(undefined)).toBeNull();
  });
});

describe('the page after the callback', () => {
  it('escapes the service description and speaks Czech when asked', () => {
    const html = loginPage('en', 'denied', '<script>alert(1)</script>');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    expect(loginPage('cs', 'success')).toContain('Jste přihlášeni');
  });
});
