/**
 * Accounts (companies) of the station: several per station, one active. Each has an environment
 * (the built-in sandbox, the service's test environment, production), a client id, the loopback
 * redirect it registered, and scopes. The table (accountsRepo) holds no secrets; the client
 * secret and refresh token go to the keychain under the account's id (keychain.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../base/clock';
import type { Logger } from '../rpc/rpcServer';
import { StationError } from '../base/stationError';
import type { AccountRow, AccountsRepo, Environment } from '../store/accountsRepo';
import { ServiceError } from '../api/errors';
import { secretNames, type SecretStore } from './keychain';
import { DEFAULT_REDIRECT_PATH, DEFAULT_REDIRECT_PORT, loginWithBrowser, loopbackRedirectUri } from './loopbackLogin';
import { requestToken } from './tokenEndpoint';
import { createTokenManager, type LoginState, type TokenManager } from './tokenManager';

export type { Environment };
export type Account = AccountRow;

/** Spec "Resource index": every scope the station uses. */
export const DEFAULT_SCOPES = ['deliveries', 'transports', 'collection-protocols', 'collection-places'] as const;

/** Where each environment lives. The sandbox's address is known only once it runs. */
export interface EnvironmentUrls {
  sandbox: () => string | null;
  /** The service's {test_base_url}; null = the user types it when adding the account. */
  test: string | null;
  /** The service's {base_url}; null = the user types it. */
  production: string | null;
}

export interface NewAccount {
  name: string;
  environment: Environment;
  /** Needed for test/production when EnvironmentUrls has none; ignored for the sandbox. */
  baseUrl?: string | null;
  clientId: string;
  clientSecret: string;
  redirectPort?: number;
  redirectPath?: string;
  scopes?: readonly string[];
}

export interface AccountsOptions {
  repo: AccountsRepo;
  secrets: SecretStore;
  clock: Clock;
  log: Logger;
  environments: EnvironmentUrls;
  openBrowser: (url: string) => Promise<void> | void;
  language?: () => 'en' | 'cs';
}

function checkUrl(u: string): string {
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    throw new StationError('account_invalid', `"${u}" is not a web address.`, { reason: 'url', url: u });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new StationError('account_invalid', 'The service address must start with https://.', { reason: 'scheme' });
  return url.toString().replace(/\/+$/, '');
}

export function createAccounts(o: AccountsOptions) {
  const managers = new Map<string, TokenManager>();
  const listeners = new Set<(accountId: string, s: LoginState) => void>();

  function mustGet(id: string): Account {
    const a = o.repo.get(id);
    if (!a) throw new StationError('account_not_found', 'There is no such account on this station.');
    return a;
  }

  function baseUrlOf(a: Account): string {
    // A sandbox account with an address is a sandbox run on its own (npm run sandbox); without one, the built-in sandbox.
    const url =
      a.environment === 'sandbox'
        ? (a.baseUrl ?? o.environments.sandbox())
        : (a.baseUrl ?? o.environments[a.environment]);
    if (!url)
      throw new StationError('account_no_url', `The ${a.environment} address of "${a.name}" is not set.`, {
        environment: a.environment,
        name: a.name,
      });
    return url.replace(/\/+$/, '');
  }

  async function clientSecretOf(a: Account): Promise<string> {
    const s = await o.secrets.get(secretNames.clientSecret(a.id));
    if (!s)
      throw new StationError(
        'account_no_secret',
        `The client secret of "${a.name}" is not in the keychain. Enter it again.`,
        { name: a.name },
      );
    return s;
  }

  async function tokens(id: string): Promise<TokenManager> {
    const existing = managers.get(id);
    if (existing) return existing;
    const a = mustGet(id);
    const hasLogin = (await o.secrets.get(secretNames.refreshToken(a.id))) !== null;
    const m = createTokenManager({
      accountId: a.id,
      baseUrl: baseUrlOf(a),
      clientId: a.clientId,
      redirectUri: loopbackRedirectUri(a.redirectPort, a.redirectPath),
      scopes: a.scopes,
      secrets: o.secrets,
      clock: o.clock,
      log: o.log,
      language: o.language,
      initialState: hasLogin ? { state: 'logged-in' } : { state: 'logged-out' },
    });
    m.onStateChange((s) => listeners.forEach((l) => l(a.id, s)));
    managers.set(id, m);
    return m;
  }

  return {
    list: (): Account[] => o.repo.list(),
    get: (id: string): Account | null => o.repo.get(id),
    active: (): Account | null => o.repo.active(),
    baseUrlOf,

    async add(n: NewAccount): Promise<Account> {
      if (!n.name.trim()) throw new StationError('account_invalid', 'Give the account a name.', { reason: 'name' });
      if (!n.clientId.trim() || !n.clientSecret)
        throw new StationError(
          'account_invalid',
          'Both the client id and the client secret are needed (the service has no public clients).',
          { reason: 'credentials' },
        );
      const port = n.redirectPort ?? DEFAULT_REDIRECT_PORT;
      if (!Number.isInteger(port) || port < 1 || port > 65535)
        throw new StationError('account_invalid', 'The redirect port must be a number from 1 to 65535.', {
          reason: 'port',
        });
      const path = n.redirectPath ?? DEFAULT_REDIRECT_PATH;
      if (!path.startsWith('/'))
        throw new StationError('account_invalid', 'The redirect path must start with "/".', { reason: 'path' });
      const baseUrl = n.baseUrl ? checkUrl(n.baseUrl) : null;
      if (n.environment !== 'sandbox' && !baseUrl && !o.environments[n.environment]) {
        throw new StationError('account_invalid', `Enter the address of the ${n.environment} environment.`, {
          reason: 'address',
          environment: n.environment,
        });
      }
      const row: Omit<Account, 'active'> = {
        id: randomUUID(),
        name: n.name.trim(),
        environment: n.environment,
        baseUrl,
        clientId: n.clientId.trim(),
        redirectPort: port,
        redirectPath: path,
        scopes: [...(n.scopes ?? DEFAULT_SCOPES)],
        createdAt: o.clock.now().toISOString(),
      };
      await o.secrets.set(secretNames.clientSecret(row.id), n.clientSecret);
      o.repo.insert(row);
      if (!o.repo.active()) o.repo.setActive(row.id);
      o.log.info('account added', { accountId: row.id, environment: row.environment });
      return mustGet(row.id);
    },

    /** A new client secret (the service issued another, or the keychain lost it). */
    async setClientSecret(id: string, clientSecret: string): Promise<void> {
      mustGet(id);
      if (!clientSecret) throw new StationError('account_invalid', 'Enter the client secret.', { reason: 'secret' });
      await o.secrets.set(secretNames.clientSecret(id), clientSecret);
    },

    async remove(id: string): Promise<void> {
      mustGet(id);
      await o.secrets.delete(secretNames.refreshToken(id));
      await o.secrets.delete(secretNames.clientSecret(id));
      managers.delete(id);
      o.repo.remove(id);
    },

    setActive(id: string): Account {
      if (!o.repo.setActive(id))
        throw new StationError('account_not_found', 'There is no such account on this station.');
      return mustGet(id);
    },

    /** The token source of an account (the service client's `tokens`). */
    tokens,

    async loginState(id: string): Promise<LoginState> {
      return (await tokens(id)).state();
    },

    onLoginState(listener: (accountId: string, s: LoginState) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** The full OAuth flow in the system browser. */
    async loginWithBrowser(id: string, opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<LoginState> {
      const a = mustGet(id);
      const grant = await loginWithBrowser({
        baseUrl: baseUrlOf(a),
        clientId: a.clientId,
        clientSecret: await clientSecretOf(a),
        scopes: a.scopes,
        redirectPort: a.redirectPort,
        redirectPath: a.redirectPath,
        openBrowser: o.openBrowser,
        log: o.log,
        signal: opts.signal,
        timeoutMs: opts.timeoutMs,
        language: o.language,
      });
      const m = await tokens(id);
      await m.adoptGrant(grant);
      return m.state();
    },

    /**
     * The spec's manual mode ("Access to resources" 4): a refresh token obtained by hand. It is
     * checked with one refresh before anything is stored.
     */
    async loginWithRefreshToken(id: string, refreshToken: string): Promise<LoginState> {
      const a = mustGet(id);
      const token = refreshToken.trim();
      if (!/^\S+$/.test(token))
        throw new StationError('login_invalid_token', 'Paste the refresh token (one word, no spaces).', {
          reason: 'format',
        });
      let grant;
      try {
        grant = await requestToken(
          { baseUrl: baseUrlOf(a), clientId: a.clientId, clientSecret: await clientSecretOf(a) },
          {
            grant_type: 'refresh_token',
            refresh_token: token,
            redirect_uri: loopbackRedirectUri(a.redirectPort, a.redirectPath),
            scope: a.scopes.join(' '),
          },
          { language: o.language?.() },
        );
      } catch (e) {
        if (e instanceof ServiceError && e.kind === 'login_required') {
          throw new StationError(
            'login_invalid_token',
            'The service does not accept this refresh token. Check that it belongs to this client and environment.',
          );
        }
        throw e;
      }
      const m = await tokens(id);
      await m.adoptGrant({ ...grant, refreshToken: token });
      return m.state();
    },

    async logout(id: string): Promise<void> {
      await (await tokens(id)).logout();
    },
  };
}

export type Accounts = ReturnType<typeof createAccounts>;
