/**
 * The keychain seam: where the station keeps the refresh token and the client secret (never in
 * SQLite, never in logs). The composition root picks the variant: the OS keychain through
 * @napi-rs/keyring (Secret Service on Linux, Keychain on macOS, Credential Manager on Windows)
 * in the app; the memory variant only where no keychain exists and nothing must outlive the process.
 *
 * Keychain entries: service "label-station", accounts
 *   `<accountId>:refresh-token`  the OAuth refresh token of that company's login
 *   `<accountId>:client-secret`  the client secret registered with the service
 *
 * No released version kept secrets anywhere else (keytar was used only before the first release),
 * so there is nothing to move, and no migration from it is kept (nor keytar or dbus-next).
 */
import { StationError } from '../base/stationError';

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

type Keyring = typeof import('@napi-rs/keyring');

/** The OS keychain through @napi-rs/keyring (a native module, loaded on first use). */
export function createSystemSecretStore(service = KEYCHAIN_SERVICE): SecretStore {
  let keyring: Promise<Keyring> | null = null;
  // Loaded on first use (a native module): a machine without a keychain can still start the
  // station and see a clear error only when a secret is needed. A dynamic import works in the
  // ESM web host and in the CommonJS Electron bundle alike.
  const load = (): Promise<Keyring> =>
    (keyring ??= import('@napi-rs/keyring').then((m) => (m as { default?: Keyring }).default ?? m));
  const use = async <T>(what: string, fn: (k: Keyring) => Promise<T>): Promise<T> => {
    try {
      return await fn(await load());
    } catch (e) {
      throw new StationError(
        'keychain_unavailable',
        `The system keychain could not ${what} (${(e as Error).message}). Unlock the keychain and try again.`,
      );
    }
  };
  // On Linux the binding would fall back silently to the kernel keyring, which forgets everything
  // at reboot while the station says the keychain works: the Secret Service or nothing (then the
  // station keeps secrets in memory and says so, auth/wireAccounts.ts pickSecretStore).
  const entry = (k: Keyring, name: string) => new k.AsyncEntry(service, name, { linux: { store: 'secret-service' } });
  return {
    get: (name) => use('be read', (k) => entry(k, name).getPassword()),
    set: (name, value) => use('store the secret', (k) => entry(k, name).setPassword(value)),
    delete: (name) => use('delete the secret', (k) => entry(k, name).deletePassword()),
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
