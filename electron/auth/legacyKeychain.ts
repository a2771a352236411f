/**
 * Where keytar (the keychain module of earlier versions) kept the station's secrets, read
 * without keytar so it can leave the dependencies (README "Keychain"):
 *
 * - Linux: Secret Service items with the attributes `service` and `account` (libsecret's generic
 *   schema). @napi-rs/keyring writes `service`/`username`/`target` and never finds them, so they
 *   are read over D-Bus (dbus-next, plain JavaScript) in a "plain" session: the bytes cross only
 *   the user's own session bus, as they did with keytar.
 * - Windows: Credential Manager generic credentials with the target name `<service>/<account>`
 *   and the UTF-8 bytes of the secret as their blob (keyring-rs names its own `<account>.<service>`
 *   and stores UTF-16), read by target through @napi-rs/keyring.
 * - macOS: keytar and @napi-rs/keyring both use the generic password of (service, account): the
 *   new store already finds the old items, nothing to migrate.
 */
export interface LegacyReader {
  read(service: string, account: string): Promise<string | null>;
  /** True when an old item was removed. */
  remove(service: string, account: string): Promise<boolean>;
}

export function legacyKeytarReader(platform: NodeJS.Platform = process.platform): LegacyReader | null {
  if (platform === 'linux') return secretServiceReader();
  if (platform === 'win32') return windowsCredentialReader();
  return null;
}

type Keyring = typeof import('@napi-rs/keyring');

function windowsCredentialReader(): LegacyReader {
  const entry = async (service: string, account: string) => {
    const k = (await import('@napi-rs/keyring')) as Keyring & { default?: Keyring };
    return (k.default ?? k).AsyncEntry.withTarget(`${service}/${account}`, service, account);
  };
  return {
    async read(service, account) {
      const bytes = await (await entry(service, account)).getSecret();
      return bytes ? Buffer.from(bytes).toString('utf8') : null;
    },
    remove: async (service, account) => (await entry(service, account)).deleteCredential(),
  };
}

const SECRETS = 'org.freedesktop.secrets';
const SERVICE_PATH = '/org/freedesktop/secrets';

type DbusNext = typeof import('dbus-next');
type SecretService = {
  OpenSession(algorithm: string, input: unknown): Promise<[unknown, string]>;
  SearchItems(attributes: Record<string, string>): Promise<[string[], string[]]>;
  GetSecrets(items: string[], session: string): Promise<Record<string, [string, Buffer, Buffer, string]>>;
};

function secretServiceReader(): LegacyReader {
  /** Runs `fn` on a fresh session-bus connection, closed afterwards; null where there is no bus. */
  const withService = async <T>(fn: (dbus: DbusNext, bus: import('dbus-next').MessageBus, svc: SecretService, items: string[]) => Promise<T>, service: string, account: string): Promise<T | null> => {
    if (!process.env.DBUS_SESSION_BUS_ADDRESS && !process.env.XDG_RUNTIME_DIR) return null;
    const m = (await import('dbus-next')) as DbusNext & { default?: DbusNext };
    const dbus = m.default ?? m;
    let bus: import('dbus-next').MessageBus;
    try {
      bus = dbus.sessionBus();
    } catch {
      return null;
    }
    // A bus that cannot be reached reports it as an event; without a listener it would throw.
    // A Secret Service that never answers is given up on after a while.
    let timer: NodeJS.Timeout | undefined;
    const failed = new Promise<never>((_, reject) => {
      bus.on('error', reject);
      timer = setTimeout(() => reject(new Error('the Secret Service did not answer')), 10_000);
    });
    try {
      const work = (async () => {
        const svc = (await bus.getProxyObject(SECRETS, SERVICE_PATH)).getInterface('org.freedesktop.Secret.Service') as unknown as SecretService;
        // Unlocked items only: keytar's items live in the same collection as the new ones, so a
        // locked collection is unlocked by the new store's own read first.
        const [unlocked] = await svc.SearchItems({ service, account });
        return fn(dbus, bus, svc, unlocked);
      })();
      return await Promise.race([work, failed]);
    } finally {
      clearTimeout(timer);
      bus.disconnect();
    }
  };
  return {
    read: async (service, account) =>
      (await withService(
        async (dbus, _bus, svc, items) => {
          if (items.length === 0) return null;
          const [, session] = await svc.OpenSession('plain', new dbus.Variant('s', ''));
          const secrets = await svc.GetSecrets(items.slice(0, 1), session);
          const secret = secrets[items[0]!];
          return secret ? Buffer.from(secret[2]).toString('utf8') : null;
        },
        service,
        account,
      )) ?? null,
    remove: async (service, account) =>
      (await withService(
        async (_dbus, bus, _svc, items) => {
          for (const path of items) {
            const item = (await bus.getProxyObject(SECRETS, path)).getInterface('org.freedesktop.Secret.Item') as unknown as { Delete(): Promise<string> };
            await item.Delete();
          }
          return items.length > 0;
        },
        service,
        account,
      )) ?? false,
  };
}
