/**
 * The keychain seam: where the station keeps the refresh token and the client secret (never in
 * SQLite, never in logs). The composition root picks the variant: keytar (the OS keychain:
 * Secret Service on Linux, Keychain on macOS, Credential Manager on Windows) in the app; the
 * memory variant only where no keychain exists and nothing must outlive the process.
 *
 * Keychain entries: service "label-station", accounts
 *   `<accountId>:refresh-token`  the OAuth refresh token of that company's login
 *   `<accountId>:client-secret`  the client secret registered with the service
 */
import { StationError } from '../stationError';

export const KEYCHAIN_SERVICE = 'label-station';

export const secretNames = {
  refreshToken: (accountId: string) => `${accountId}:refresh-token`,
  clientSecret: (accountId: string) => `${accountId}:client-secret`,
};

export interface SecretStore {
  get(name: string): Promise<string | null>;
  set(name: string, value: string): Promise<void>;
  /** True when something was deleted. */
  delete(name: string): Promise<boolean>;
}

interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** The OS keychain through keytar (a native module, loaded on first use). */
export function createKeytarSecretStore(service = KEYCHAIN_SERVICE): SecretStore {
  let keytar: Promise<Keytar> | null = null;
  // Loaded on first use (a native module): a machine without a keychain can still start the
  // station and see a clear error only when a secret is needed. A dynamic import works in the
  // ESM web host and in the CommonJS Electron bundle alike.
  const load = (): Promise<Keytar> =>
    (keytar ??= import('keytar').then((m) => ((m as { default?: Keytar }).default ?? (m as unknown as Keytar))));
  const use = async <T>(what: string, fn: (k: Keytar) => Promise<T>): Promise<T> => {
    try {
      return await fn(await load());
    } catch (e) {
      throw new StationError('keychain.unavailable', `The system keychain could not ${what} (${(e as Error).message}). Unlock the keychain and try again.`);
    }
  };
  return {
    get: (name) => use('be read', (k) => k.getPassword(service, name)),
    set: (name, value) => use('store the secret', (k) => k.setPassword(service, name, value)),
    delete: (name) => use('delete the secret', (k) => k.deletePassword(service, name)),
  };
}

/** Secrets kept in this process only (gone at exit). */
export function createMemorySecretStore(): SecretStore {
  const m = new Map<string, string>();
  return {
    get: async (name) => m.get(name) ?? null,
    set: async (name, value) => void m.set(name, value),
    delete: async (name) => m.delete(name),
  };
}
