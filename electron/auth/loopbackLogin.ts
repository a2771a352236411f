/**
 * OAuth login through the system browser with a loopback redirect (RFC 8252 7.3, RFC 9700 2.1,
 * spec "Authentication" Flow 1-6):
 *
 * 1. listen on 127.0.0.1 (an IP literal, not "localhost", not all interfaces) at the registered
 *    port and path; if the port cannot be opened, fail before any browser opens;
 * 2. open the authorize URL through the injected opener (shell.openExternal in the app), with a
 *    one-time `state` and PKCE S256 (servers ignore parameters they do not know);
 * 3. accept exactly one callback on the path that carries our `state`, exchange the code once
 *    (never retried: codes are single-use) with the client credentials in HTTP Basic, show the
 *    browser a friendly page, and close the listener. A request with another (or no) `state` is
 *    answered with a page saying it was ignored and the login keeps waiting: any local program or
 *    web page can send a request to the port, and it must not be able to end a login in progress;
 * 4. a time limit and cancel (AbortSignal) close the listener too.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { createLocalServer, refusalLog, requestTarget } from '../host/localListener';
import { StationError } from '../base/stationError';
import type { Logger } from '../rpc/rpcServer';
import { ServiceError } from '../api/errors';
import { requestToken, type TokenGrant } from './tokenEndpoint';
import { loginPage } from './loginPage';

export const DEFAULT_REDIRECT_PORT = 53682;
export const DEFAULT_REDIRECT_PATH = '/callback';

export interface LoopbackLoginOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: readonly string[];
  redirectPort?: number;
  redirectPath?: string;
  /** Opens the URL in the system browser (never an app window, RFC 8252 8.12). */
  openBrowser: (url: string) => Promise<void> | void;
  log: Logger;
  signal?: AbortSignal;
  /** How long the user has to log in (default 5 min). */
  timeoutMs?: number;
  tokenTimeoutMs?: number;
  language?: () => 'en' | 'cs';
}

/** The exact redirect address registered with the service. */
export function loopbackRedirectUri(port = DEFAULT_REDIRECT_PORT, path = DEFAULT_REDIRECT_PATH): string {
  return `http://127.0.0.1:${port}${path}`;
}

const b64url = (b: Buffer) => b.toString('base64url');

/** RFC 7636 4.1-4.2: a 43-character verifier and its S256 challenge. */
export function createPkce(): { verifier: string; challenge: string } {
  const verifier = b64url(randomBytes(32));
  return { verifier, challenge: b64url(createHash('sha256').update(verifier).digest()) };
}

export function authorizeUrl(o: {
  baseUrl: string;
  clientId: string;
  scopes: readonly string[];
  state: string;
  redirectUri: string;
  challenge: string;
}): string {
  const url = new URL(o.baseUrl.replace(/\/+$/, '') + '/connect/authorize/');
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', o.clientId);
  url.searchParams.set('scope', o.scopes.join(' '));
  url.searchParams.set('state', o.state);
  url.searchParams.set('redirect_uri', o.redirectUri);
  url.searchParams.set('code_challenge', o.challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

function listen(server: http.Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ host: '127.0.0.1', port, exclusive: true });
  });
}

function sameState(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Runs the whole login; resolves with the tokens (the refresh token included) or rejects with a StationError. */
export async function loginWithBrowser(o: LoopbackLoginOptions): Promise<TokenGrant> {
  const port = o.redirectPort ?? DEFAULT_REDIRECT_PORT;
  const path = o.redirectPath ?? DEFAULT_REDIRECT_PATH;
  const redirectUri = loopbackRedirectUri(port, path);
  const lang = o.language?.() ?? 'en';
  const state = b64url(randomBytes(24));
  const pkce = createPkce();

  let settle!: { resolve: (g: TokenGrant) => void; reject: (e: Error) => void };
  const outcome = new Promise<TokenGrant>((resolve, reject) => (settle = { resolve, reject }));
  let finished = false;
  let callbackTaken = false;

  const refusals = refusalLog(o.log);
  const server = createLocalServer((req, res) => {
    // Any local program or web page can send anything here: what it sent is read inside this
    // guard, and a request target no URL parser takes (`//[`, `http://[`) is a 400, never an
    // exception out of the handler (which would end the core in the middle of a login).
    try {
      const target = requestTarget(req.url);
      if (!target) {
        res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Bad request');
        return;
      }
      if (target.pathname !== path) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
        return;
      }
      if (callbackTaken || req.method !== 'GET') {
        res.writeHead(409, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(lang, 'finished'));
        return;
      }
      // Spec Flow 1: the client must compare the returned state with the value it sent. A request
      // without our state is not the answer to this login: it is ignored, and the login goes on.
      if (!sameState(target.searchParams.get('state'), state)) {
        refusals.note("login callback without this login's state ignored", {});
        res
          .writeHead(400, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
          .end(loginPage(lang, 'ignored'));
        return;
      }
      callbackTaken = true;
      // Its own failure (the answer page could not be written) ends the login: never an unhandled rejection.
      handleCallback(target.searchParams, res).catch((err: unknown) =>
        finish(err instanceof Error ? err : new Error(String(err))),
      );
    } catch (err) {
      refusals.note('login listener refused a malformed request', {
        error: err instanceof Error ? err.message : String(err),
      });
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      res.end();
    }
  });

  async function handleCallback(q: URLSearchParams, res: http.ServerResponse) {
    const send = (status: number, html: string) =>
      new Promise<void>((r) =>
        res
          .writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
          .end(html, () => r()),
      );
    const error = q.get('error');
    if (error) {
      const description = q.get('error_description');
      await send(200, loginPage(lang, 'denied', description ?? error));
      return finish(
        error === 'access_denied'
          ? new StationError('login_access_denied', description ?? 'The permission was not granted.', { error })
          : new StationError(
              'login_failed',
              `The service refused the login (${error}${description ? `: ${description}` : ''}).`,
              { error },
            ),
      );
    }
    const code = q.get('code');
    if (!code) {
      await send(400, loginPage(lang, 'failed'));
      return finish(new StationError('login_failed', 'The login answer carried no authorization code.'));
    }
    try {
      // Exchanged once, never retried: the code is single-use and lives 90 s (spec Flow 3).
      const grant = await requestToken(
        { baseUrl: o.baseUrl, clientId: o.clientId, clientSecret: o.clientSecret },
        {
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          scope: o.scopes.join(' '),
          code_verifier: pkce.verifier,
        },
        { timeoutMs: o.tokenTimeoutMs, language: lang },
      );
      if (!grant.refreshToken) throw new ServiceError('malformed', 'The service granted no refresh token.');
      await send(200, loginPage(lang, 'success'));
      finish(null, grant);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      await send(200, loginPage(lang, 'failed', message));
      finish(
        new StationError(
          'login_exchange_failed',
          `The login could not be completed: ${message}`,
          e instanceof ServiceError ? e.toJSON() : undefined,
        ),
      );
    }
  }

  function finish(err: Error | null, grant?: TokenGrant) {
    if (finished) return;
    finished = true;
    server.close();
    server.closeAllConnections();
    if (err) {
      o.log.warn('login failed', { code: err instanceof StationError ? err.code : 'error' });
      settle.reject(err);
    } else {
      o.log.info('login succeeded', { scope: grant!.scope });
      settle.resolve(grant!);
    }
  }

  try {
    await listen(server, port);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new StationError(
      'login_port_unavailable',
      code === 'EADDRINUSE'
        ? `Port ${port} on 127.0.0.1 is in use by another program, so the login answer could not be received. Close that program or choose another port (and register http://127.0.0.1:<port>${path} with the service).`
        : `The login listener could not open port ${port} on 127.0.0.1 (${code ?? (e as Error).message}).`,
      { port, code },
    );
  }

  const timeoutMs = o.timeoutMs ?? 5 * 60_000;
  const timer = setTimeout(
    () =>
      finish(
        new StationError(
          'login_timeout',
          `The login was not finished within ${Math.round(timeoutMs / 1000)} s. Start it again.`,
          { seconds: Math.round(timeoutMs / 1000) },
        ),
      ),
    timeoutMs,
  );
  const onAbort = () => finish(new StationError('login_cancelled', 'The login was cancelled.'));
  if (o.signal?.aborted) onAbort();
  o.signal?.addEventListener('abort', onAbort, { once: true });

  if (!finished) {
    const url = authorizeUrl({
      baseUrl: o.baseUrl,
      clientId: o.clientId,
      scopes: o.scopes,
      state,
      redirectUri,
      challenge: pkce.challenge,
    });
    Promise.resolve()
      .then(() => o.openBrowser(url))
      .catch((e) => {
        // Once the answer has arrived, the opener's own fate no longer matters.
        if (!callbackTaken)
          finish(
            new StationError(
              'login_browser_failed',
              `The system browser could not be opened (${(e as Error).message}).`,
            ),
          );
      });
  }
  try {
    return await outcome;
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onAbort);
  }
}
