/**
 * Companies and their logins, wired by the composition root (electron/station.ts): the keychain
 * (or memory when none answers), the accounts, the active session, the demo company on the
 * built-in sandbox and its reset, and the accounts' RPC handlers.
 */
import type { StationStatus } from '../../shared/contract/status';
import type { Clock } from '../base/clock';
import type { Handlers, Logger } from '../rpc/rpcServer';
import type { Emit } from '../status/eventBus';
import { createAccountCacheRepo } from '../store/accountCacheRepo';
import { createAccountsRepo } from '../store/accountsRepo';
import type { StationStore } from '../store/wireStore';
import { createAccountHandlers, type LoginUrlSink } from './accountHandlers';
import { createAccounts } from './accounts';
import { createActiveSession } from './activeSession';
import { ensureDemoAccount, loginDemoAccount, type DemoSandbox } from './demoAccount';
import { resetDemoData } from './demoReset';
import { createMemorySecretStore, createSystemSecretStore, type SecretStore } from './keychain';

/** The keychain when it answers; otherwise memory, said plainly in the status (logins last until exit). */
async function pickSecretStore(log: Logger): Promise<{ secrets: SecretStore; keychain: StationStatus['keychain'] }> {
  const keychain = createSystemSecretStore();
  try {
    await keychain.get('station:probe');
    return { secrets: keychain, keychain: { available: true, message: null } };
  } catch (err) {
    log.warn('the system keychain is not available; secrets are kept in memory only', {
      error: (err as Error).message,
    });
    return {
      secrets: createMemorySecretStore(),
      keychain: {
        available: false,
        message: 'The system keychain is not available: logins are kept only until the station stops.',
      },
    };
  }
}

export interface AccountsWiring {
  store: StationStore;
  sandbox: DemoSandbox;
  /** Given by the host (tests); else the OS keychain, or memory when no keychain answers. */
  secrets?: SecretStore;
  /** Opens the OAuth login page in the system browser (the web host has none: the page opens it). */
  openExternal?: (url: string) => Promise<void> | void;
  serviceTimeoutMs?: number;
  language: () => 'en' | 'cs';
  clock: Clock;
  emit: Emit;
  log: Logger;
}

export async function wireAccounts(o: AccountsWiring) {
  const picked = o.secrets
    ? { secrets: o.secrets, keychain: { available: true, message: null } }
    : await pickSecretStore(o.log);
  let urlSink: LoginUrlSink = () => undefined;
  const accounts = createAccounts({
    repo: createAccountsRepo(o.store.db),
    secrets: picked.secrets,
    clock: o.clock,
    log: o.log,
    environments: { sandbox: () => o.sandbox.url, test: null, production: null },
    openBrowser: async (url) => {
      urlSink(url);
      await o.openExternal?.(url);
    },
    language: o.language,
  });
  const session = createActiveSession({
    accounts,
    language: o.language,
    log: o.log,
    timeoutMs: o.serviceTimeoutMs,
    // A close, a weight, a new shipment...: the journal step that allows it is on the disk first.
    beforeChange: o.store.durable,
  });
  let demoAccountId: string | null = null;
  const rpc = createAccountHandlers(
    {
      accounts,
      session,
      demoAccountId: () => demoAccountId,
      loginDemo: (id) => loginDemoAccount(accounts, id, o.sandbox),
      emitChanged: (l) => o.emit('accounts.changed', l),
      log: o.log,
    },
    (sink) => (urlSink = sink),
  );

  /** "Reset demo data", then what the station holds of the demo company follows (the cache, the batch). */
  const demoReset = (after: { refill(accountId: string): Promise<unknown>; recheckBatch(): Promise<unknown> }) =>
    async function reset() {
      await resetDemoData({
        accountCache: createAccountCacheRepo(o.store.db),
        accounts,
        sandbox: o.sandbox,
        demoAccountId,
        log: o.log,
      });
      await session.refresh();
      await rpc.emit();
      // The cache was emptied: filled again before the answer, so Shipments lists every demo
      // shipment at once, and the batch's marks follow the shipments' new states.
      if (demoAccountId) await after.refill(demoAccountId);
      await after.recheckBatch();
      return { reset: true as const };
    };

  return {
    accounts,
    session,
    secrets: picked.secrets,
    keychain: picked.keychain,
    handlers: (after: Parameters<typeof demoReset>[0]): Partial<Handlers>[] => [
      rpc.handlers,
      { 'demo.reset': demoReset(after) },
    ],
    activeAccountId: () => accounts.active()?.id ?? null,
    /** The active company when it is on the built-in sandbox (the demo pick list prints its name). */
    sandboxCompany(): { companyName: string } | null {
      const a = accounts.active();
      return a?.environment === 'sandbox' ? { companyName: a.name } : null;
    },
    /** The service of the active account (the built-in sandbox when there is none). */
    serviceOf(): { environment: StationStatus['service']['environment']; baseUrl: string } {
      const a = accounts.active();
      if (!a) return { environment: 'sandbox', baseUrl: o.sandbox.url };
      try {
        return { environment: a.environment, baseUrl: accounts.baseUrlOf(a) };
      } catch {
        return { environment: a.environment, baseUrl: a.baseUrl ?? '' };
      }
    },
    /**
     * The demo company made (first run) and logged in, the session read; then the status follows
     * the session: another account became active, so the service to watch changes. What waits for
     * the account follows the session's usable state (status.onUsable), which a login of the same
     * company changes too, with neither its id nor its address changing.
     */
    async start(status: { sessionChanged(): void; refreshLogged(): Promise<unknown> }): Promise<void> {
      demoAccountId = await ensureDemoAccount({ accounts, settings: o.store.settings, sandbox: o.sandbox, log: o.log });
      await session.refresh();
      session.onChange(() => {
        status.sessionChanged();
        void status.refreshLogged();
      });
      accounts.onLoginState(() => status.sessionChanged());
    },
    cancelLogin: rpc.cancelLogin,
  };
}
