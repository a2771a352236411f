/**
 * The active account's live session: its service client and token manager, kept ready so the
 * workflows can ask synchronously "who am I working for, and through which client?". Rebuilt when
 * the active account changes, when an account is removed, or when its login state changes.
 */
import { createServiceClient, type ServiceClient } from '../api/index';
import type { Logger } from '../rpc/rpcServer';
import type { Accounts } from './accounts';
import type { TokenManager } from './tokenManager';

export interface ActiveSession {
  accountId: string;
  client: ServiceClient;
  tokens: TokenManager;
  baseUrl: string;
}

export interface ActiveSessionOptions {
  accounts: Accounts;
  language: () => 'en' | 'cs';
  log: Logger;
  /** Per request (default: the client's 20 s). */
  timeoutMs?: number;
  /** Awaited before every request that changes something at the service (store/walSync.ts). */
  beforeChange?: () => Promise<void>;
}

export function createActiveSession(o: ActiveSessionOptions) {
  let current: ActiveSession | null = null;
  const listeners = new Set<(s: ActiveSession | null) => void>();
  const clients = new Map<string, ActiveSession>();

  async function sessionOf(accountId: string): Promise<ActiveSession> {
    const known = clients.get(accountId);
    if (known) return known;
    const tokens = await o.accounts.tokens(accountId);
    const baseUrl = o.accounts.baseUrlOf(o.accounts.get(accountId)!);
    const client = createServiceClient({
      baseUrl,
      tokens,
      language: o.language,
      log: o.log,
      timeoutMs: o.timeoutMs,
      beforeChange: o.beforeChange,
    });
    const s = { accountId, client, tokens, baseUrl };
    clients.set(accountId, s);
    return s;
  }

  /** Re-reads which account is active; call after add/remove/setActive. */
  async function refresh(): Promise<ActiveSession | null> {
    const active = o.accounts.active();
    for (const id of [...clients.keys()]) if (!o.accounts.get(id)) clients.delete(id);
    let next: ActiveSession | null = null;
    if (active) {
      try {
        next = await sessionOf(active.id);
      } catch (err) {
        o.log.warn('the active account cannot be used', { accountId: active.id, error: (err as Error).message });
      }
    }
    const changed = next?.accountId !== current?.accountId || next?.baseUrl !== current?.baseUrl;
    current = next;
    if (changed) listeners.forEach((l) => l(current));
    return current;
  }

  return {
    refresh,
    /** The active account's session when it is logged in; null otherwise (scans then say "log in"). */
    session(): ActiveSession | null {
      return current && current.tokens.state().state === 'logged-in' ? current : null;
    },
    /** The active account's session whatever its login state. */
    current: () => current,
    /** The session of any account (sync and lookups run for the account they were asked for). */
    sessionOf,
    onChange(listener: (s: ActiveSession | null) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type ActiveSessionHolder = ReturnType<typeof createActiveSession>;
