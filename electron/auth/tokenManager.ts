/**
 * Access tokens for one account (spec "Access to resources" 5: keep the access token for its
 * lifetime, do not ask for one per call). The access token lives in memory only; the refresh
 * token and client secret are read from the keychain when a refresh needs them.
 *
 * - Renewed shortly before it expires, and once after a 401 invalid_token.
 * - One refresh in flight, shared by every caller (20 concurrent calls -> one token request).
 * - invalid_grant (withdrawn permission, revoked token) or a refused client -> the state
 *   'login_required', announced once; from then on calls fail at once without touching the
 *   network, until a new login is adopted. Never a loop of failing calls.
 */
import type { Clock } from '../base/clock';
import type { Logger } from '../rpc/rpcServer';
import { ServiceError } from '../api/errors';
import type { AccessTokenSource } from '../api/index';
import { secretNames, type SecretStore } from './keychain';
import { requestToken, type TokenGrant } from './tokenEndpoint';

export type LoginState = { state: 'logged-out' } | { state: 'logged-in' } | { state: 'login_required'; reason: string };

export interface TokenManagerOptions {
  accountId: string;
  baseUrl: string;
  clientId: string;
  /** The registered redirect address (the refresh grant requires it, spec Flow 5). */
  redirectUri: string;
  scopes: readonly string[];
  secrets: SecretStore;
  clock: Clock;
  log: Logger;
  /** Renew this long before expiry (default 60 s). */
  refreshMarginMs?: number;
  timeoutMs?: number;
  /** Extra attempts of a refresh after a network failure (default 2). */
  refreshRetries?: number;
  language?: () => 'en' | 'cs';
  /** 'logged-in' when the keychain already holds a refresh token from an earlier run. */
  initialState?: LoginState;
}

export interface TokenManager extends AccessTokenSource {
  state(): LoginState;
  onStateChange(listener: (s: LoginState) => void): () => void;
  /** After a login: keeps the refresh token in the keychain and the access token in memory. */
  adoptGrant(grant: TokenGrant): Promise<void>;
  /** Forgets the tokens (keychain entry of the refresh token included). */
  logout(): Promise<void>;
  /** How many token requests this manager has made (support and tests). */
  readonly refreshCount: number;
}

export function createTokenManager(o: TokenManagerOptions): TokenManager {
  const margin = o.refreshMarginMs ?? 60_000;
  const retries = o.refreshRetries ?? 2;
  let access: { token: string; expiresAt: number } | null = null;
  let inFlight: Promise<string> | null = null;
  let state: LoginState = o.initialState ?? { state: 'logged-out' };
  let refreshCount = 0;
  const listeners = new Set<(s: LoginState) => void>();

  function setState(next: LoginState) {
    if (JSON.stringify(next) === JSON.stringify(state)) return;
    state = next;
    o.log.info('login state', { accountId: o.accountId, state: next.state });
    for (const l of listeners) l(next);
  }

  function loginRequired(reason: string): ServiceError {
    access = null;
    setState({ state: 'login_required', reason });
    return new ServiceError('login_required', reason);
  }

  function current(): string | null {
    if (!access) return null;
    return o.clock.now().getTime() < access.expiresAt - margin ? access.token : null;
  }

  async function doRefresh(): Promise<string> {
    const [refreshToken, clientSecret] = await Promise.all([
      o.secrets.get(secretNames.refreshToken(o.accountId)),
      o.secrets.get(secretNames.clientSecret(o.accountId)),
    ]);
    if (!clientSecret)
      throw loginRequired('The client secret of this account is missing from the keychain. Enter it and log in again.');
    if (!refreshToken) throw loginRequired('This account is not logged in. Log in to the service.');
    for (let attempt = 1; ; attempt++) {
      try {
        refreshCount++;
        const grant = await requestToken(
          { baseUrl: o.baseUrl, clientId: o.clientId, clientSecret },
          {
            grant_type: 'refresh_token',
            refresh_token: refreshToken,
            redirect_uri: o.redirectUri,
            scope: o.scopes.join(' '),
          },
          { timeoutMs: o.timeoutMs, language: o.language?.() },
        );
        // A service that rotates refresh tokens sends a new one: keep it (spec: not for this service).
        if (grant.refreshToken && grant.refreshToken !== refreshToken) {
          await o.secrets.set(secretNames.refreshToken(o.accountId), grant.refreshToken);
        }
        access = { token: grant.accessToken, expiresAt: o.clock.now().getTime() + grant.expiresIn * 1000 };
        setState({ state: 'logged-in' });
        return grant.accessToken;
      } catch (e) {
        if (e instanceof ServiceError && (e.kind === 'login_required' || e.kind === 'auth'))
          throw loginRequired(e.message);
        const transient =
          e instanceof ServiceError && (e.kind === 'network' || e.kind === 'timeout' || (e.status ?? 0) >= 500);
        if (!transient || attempt > retries) throw e;
        o.log.warn('token refresh failed, trying again', { accountId: o.accountId, attempt });
        await new Promise((r) => setTimeout(r, 250 * 2 ** (attempt - 1)));
      }
    }
  }

  function refreshShared(): Promise<string> {
    inFlight ??= doRefresh().finally(() => {
      inFlight = null;
    });
    return inFlight;
  }

  function failIfLoginRequired() {
    if (state.state === 'login_required') throw new ServiceError('login_required', state.reason);
  }

  return {
    get refreshCount() {
      return refreshCount;
    },
    async accessToken() {
      failIfLoginRequired();
      return current() ?? refreshShared();
    },
    async renewAfterRejection(rejected) {
      failIfLoginRequired();
      if (access && access.token !== rejected) return current() ?? refreshShared();
      if (access?.token === rejected) access = null;
      return refreshShared();
    },
    state: () => state,
    onStateChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async adoptGrant(grant) {
      if (grant.refreshToken) await o.secrets.set(secretNames.refreshToken(o.accountId), grant.refreshToken);
      access = { token: grant.accessToken, expiresAt: o.clock.now().getTime() + grant.expiresIn * 1000 };
      setState({ state: 'logged-in' });
    },
    async logout() {
      access = null;
      await o.secrets.delete(secretNames.refreshToken(o.accountId));
      setState({ state: 'logged-out' });
    },
  };
}
