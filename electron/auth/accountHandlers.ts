/**
 * Accounts and login behind the RPC contract (shared/contract/accounts.ts). One browser login runs
 * at a time (they share the loopback redirect port): starting another cancels the first. The RPC
 * answers with the login page's address as soon as it is known; the end of the login is pushed as
 * `accounts.changed`. No handler ever returns a secret.
 */
import type { AccountView, LoginStateView } from '../../shared/contract/accounts';
import type { Handlers, Logger } from '../rpc/rpcServer';
import { StationError } from '../base/stationError';
import type { Accounts, Account } from './accounts';
import type { ActiveSessionHolder } from './activeSession';

type AccountHandlers = Pick<
  Handlers,
  | 'accounts.list'
  | 'accounts.add'
  | 'accounts.remove'
  | 'accounts.setActive'
  | 'accounts.loginWithBrowser'
  | 'accounts.cancelLogin'
  | 'accounts.loginWithRefreshToken'
  | 'accounts.logout'
  | 'accounts.loginDemo'
>;

export interface AccountHandlerDeps {
  accounts: Accounts;
  session: ActiveSessionHolder;
  demoAccountId: () => string | null;
  /** Logs the demo company in the way the station did at its first run (electron/auth/demoAccount.ts). */
  loginDemo: (accountId: string) => Promise<void>;
  emitChanged: (list: AccountView[]) => void;
  log: Logger;
}

interface BrowserLogin {
  accountId: string;
  url: string | null;
  abort: AbortController;
  urlKnown: (url: string) => void;
  failed: (err: unknown) => void;
}

/** The opener the accounts module calls with the authorization URL: hands it to the login in flight. */
export interface LoginUrlSink {
  (url: string): void;
}

export function createAccountHandlers(deps: AccountHandlerDeps, setUrlSink: (sink: LoginUrlSink) => void) {
  let login: BrowserLogin | null = null;
  const lastError = new Map<string, string>();

  /** The accounts list sent again after a change nobody awaits: a store that fails is logged, never an unhandled rejection. */
  const inBackground = (p: Promise<unknown>) =>
    void p.catch((err: unknown) =>
      deps.log.error('the accounts could not be sent to the page', {
        error: err instanceof Error ? err.message : String(err),
      }),
    );

  setUrlSink((url) => {
    if (!login) return;
    login.url = url;
    login.urlKnown(url);
    inBackground(emit());
  });

  async function loginOf(a: Account): Promise<LoginStateView> {
    if (login?.accountId === a.id && login.url) return { state: 'logging-in', url: login.url };
    try {
      return await deps.accounts.loginState(a.id);
    } catch (err) {
      return { state: 'login_required', reason: (err as Error).message };
    }
  }

  async function view(a: Account): Promise<AccountView> {
    let baseUrl: string | null;
    try {
      baseUrl = deps.accounts.baseUrlOf(a);
    } catch {
      baseUrl = a.baseUrl;
    }
    return {
      id: a.id,
      name: a.name,
      environment: a.environment,
      baseUrl,
      clientId: a.clientId,
      redirectPort: a.redirectPort,
      redirectPath: a.redirectPath,
      scopes: a.scopes,
      createdAt: a.createdAt,
      active: a.active,
      demo: a.id === deps.demoAccountId(),
      embedded: a.environment === 'sandbox' && !a.baseUrl,
      login: await loginOf(a),
      lastLoginError: lastError.get(a.id) ?? null,
    };
  }

  const list = async () => Promise.all(deps.accounts.list().map(view));
  async function emit(): Promise<AccountView[]> {
    const l = await list();
    deps.emitChanged(l);
    return l;
  }
  async function one(id: string): Promise<AccountView> {
    const a = deps.accounts.get(id);
    if (!a) throw new StationError('account_not_found', 'There is no such account on this station.');
    return view(a);
  }
  /** After a change of accounts: the session follows the active one, the UI learns of it. */
  async function changed(): Promise<AccountView[]> {
    await deps.session.refresh();
    return emit();
  }

  deps.accounts.onLoginState(() => inBackground(changed()));

  function cancelLogin(): void {
    if (!login) return;
    login.abort.abort();
    login = null;
  }

  /** Logged out until now: the company was just added (or logged out on purpose) and this login is its start. */
  async function isFirstLogin(accountId: string): Promise<boolean> {
    try {
      return (await deps.accounts.loginState(accountId)).state === 'logged-out';
    } catch {
      return false;
    }
  }

  /**
   * A company logged in for the first time becomes the active one: the worker logged in to work
   * with it, and scans going on to the demo company after that would be a dead end.
   */
  function activateAfterFirstLogin(accountId: string): void {
    if (deps.accounts.active()?.id === accountId) return;
    deps.accounts.setActive(accountId);
    deps.log.info('account made active after its first login', { accountId });
  }

  const handlers: AccountHandlers = {
    'accounts.list': () => list(),
    'accounts.add': async (n) => {
      const a = await deps.accounts.add(n);
      await changed();
      return one(a.id);
    },
    'accounts.remove': async ({ accountId }) => {
      if (login?.accountId === accountId) cancelLogin();
      await deps.accounts.remove(accountId);
      lastError.delete(accountId);
      const rest = deps.accounts.list();
      if (!deps.accounts.active() && rest[0]) deps.accounts.setActive(rest[0].id);
      return changed();
    },
    'accounts.setActive': async ({ accountId }) => {
      deps.accounts.setActive(accountId);
      return changed();
    },
    'accounts.loginWithBrowser': async ({ accountId }) => {
      cancelLogin();
      lastError.delete(accountId);
      const first = await isFirstLogin(accountId);
      return new Promise<{ url: string }>((resolve, reject) => {
        const current: BrowserLogin = {
          accountId,
          url: null,
          abort: new AbortController(),
          urlKnown: (url) => resolve({ url }),
          failed: reject,
        };
        login = current;
        deps.accounts
          .loginWithBrowser(accountId, { signal: current.abort.signal })
          .then(() => {
            deps.log.info('browser login finished', { accountId });
            if (first) activateAfterFirstLogin(accountId);
          })
          .catch((err: unknown) => {
            const message = err instanceof Error ? err.message : String(err);
            if (!current.abort.signal.aborted) lastError.set(accountId, message);
            current.failed(err);
            deps.log.warn('browser login failed', { accountId, code: (err as { code?: string }).code ?? null });
          })
          .finally(() => {
            if (login === current) login = null;
            inBackground(changed());
          });
      });
    },
    'accounts.cancelLogin': () => {
      cancelLogin();
      return changed();
    },
    'accounts.loginWithRefreshToken': async ({ accountId, refreshToken }) => {
      lastError.delete(accountId);
      const first = await isFirstLogin(accountId);
      await deps.accounts.loginWithRefreshToken(accountId, refreshToken);
      if (first) activateAfterFirstLogin(accountId);
      await changed();
      return one(accountId);
    },
    'accounts.loginDemo': async ({ accountId }) => {
      if (!deps.accounts.get(accountId)) return one(accountId);
      if (accountId !== deps.demoAccountId())
        throw new StationError('account_not_demo', 'Only the demo company logs in without a password.');
      cancelLogin();
      lastError.delete(accountId);
      await deps.loginDemo(accountId);
      await changed();
      return one(accountId);
    },
    'accounts.logout': async ({ accountId }) => {
      await deps.accounts.logout(accountId);
      await changed();
      return one(accountId);
    },
  };

  return { handlers, emit, cancelLogin };
}
