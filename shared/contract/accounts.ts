/**
 * Accounts (companies), their login, and the station's own settings in the RPC contract. Secrets go
 * one way only: the client secret and a pasted refresh token travel from the
 * renderer to the core once and are stored in the OS keychain; nothing here ever returns one.
 */
import { z } from 'zod';

export const environment = z.enum(['sandbox', 'test', 'production']);
export type Environment = z.infer<typeof environment>;

export const loginState = z.discriminatedUnion('state', [
  z.object({ state: z.literal('logged-out') }),
  z.object({ state: z.literal('logged-in') }),
  z.object({ state: z.literal('login_required'), reason: z.string() }),
  /** The browser login is under way: the page at `url` waits for the user. */
  z.object({ state: z.literal('logging-in'), url: z.string() }),
]);
export type LoginStateView = z.infer<typeof loginState>;

export const accountView = z.object({
  id: z.string(),
  name: z.string(),
  environment,
  /** The service address in use (for the sandbox: where the built-in sandbox runs now). */
  baseUrl: z.string().nullable(),
  clientId: z.string(),
  redirectPort: z.number().int(),
  redirectPath: z.string(),
  scopes: z.array(z.string()),
  createdAt: z.string(),
  active: z.boolean(),
  /** The built-in demo account the station set up itself on first run. */
  demo: z.boolean(),
  /** On the sandbox built into this station (not a sandbox run on its own at an address). */
  embedded: z.boolean().default(false),
  login: loginState,
  /** Why the last browser login failed (denied, timed out...), until the next attempt. */
  lastLoginError: z.string().nullable(),
});
export type AccountView = z.infer<typeof accountView>;

const accountId = z.string().min(1).max(100);
const none = z.object({}).strict();

export const newAccount = z
  .object({
    name: z.string().trim().min(1, 'Give the account a name.').max(100),
    environment,
    baseUrl: z.string().trim().max(500).nullable().optional(),
    clientId: z.string().trim().min(1, 'Enter the client id.').max(200),
    clientSecret: z.string().min(1, 'Enter the client secret.').max(500),
    redirectPort: z.number().int().min(1).max(65535).optional(),
    redirectPath: z.string().startsWith('/', 'The redirect path starts with "/".').max(200).optional(),
  })
  .strict();

/**
 * The desk (electron/operators): its name on every journal entry and desk action (null: the
 * computer's host name), whether a worker must sign in before the first scan, and after how many
 * minutes without a scan or an action the worker is signed out (0: never). Defaulted in the
 * settings, as keyGapMs.
 */
const deskSettings = z.object({
  name: z.string().trim().min(1).max(60).nullable(),
  signInRequired: z.boolean(),
  idleMinutes: z.number().int().min(0).max(480),
});

export const stationSettings = z.object({
  /** null: follow the system language (Czech when the system locale is Czech). */
  language: z.enum(['en', 'cs']).nullable(),
  sounds: z.boolean(),
  /** 0-100. */
  volume: z.number().int().min(0).max(100),
  scanner: z.object({
    /** Characters some scanners send before/after the code (stripped before lookup). */
    prefix: z.string().max(20),
    suffix: z.string().max(20),
    /**
     * The longest pause between two keystrokes of one scan, in ms. A keyboard-wedge scanner types a
     * key every few ms, a person rarely faster than every 80 ms: a burst this fast ending with Enter
     * is taken for a scan wherever the focus is (renderer/src/scan/scanCapture.ts). Defaulted, so
     * settings saved before it existed still read.
     */
    keyGapMs: z.number().int().min(5, 'At least 5 ms.').max(100, 'At most 100 ms.').default(35),
  }),
  /** New shipment starts from the sender (collection place) this desk used last. Defaulted, as keyGapMs. */
  newShipment: z.object({ lastSenderPlace: z.string().max(100).nullable() }).default({ lastSenderPlace: null }),
  desk: deskSettings.default({ name: null, signInRequired: false, idleMinutes: 0 }),
});
export type StationSettings = z.infer<typeof stationSettings>;

/**
 * What `settings.set` changes: only the fields given. Without the defaults of the whole settings
 * (zod fills a defaulted field even inside `.partial()`, which put the desk's settings and New
 * shipment's last sender back to their defaults whenever anything else was saved).
 */
const stationSettingsPatch = stationSettings
  .extend({
    newShipment: z.object({ lastSenderPlace: z.string().max(100).nullable() }),
    desk: deskSettings,
  })
  .partial()
  .strict();

export const accountMethods = {
  'accounts.list': { reads: true, params: none, result: z.array(accountView) },
  'accounts.add': { params: newAccount, result: accountView },
  'accounts.remove': { params: z.object({ accountId }).strict(), result: z.array(accountView) },
  'accounts.setActive': { params: z.object({ accountId }).strict(), result: z.array(accountView) },
  /**
   * The OAuth login in the system browser (spec "Authentication", authorization code flow). Answers
   * at once with the login page's address (also pushed as `accounts.changed` with state
   * `logging-in`); the end of the login comes as `accounts.changed`.
   */
  'accounts.loginWithBrowser': { params: z.object({ accountId }).strict(), result: z.object({ url: z.string() }) },
  'accounts.cancelLogin': { params: z.object({ accountId }).strict(), result: z.array(accountView) },
  /** Spec "Access to resources" 4: a refresh token obtained by hand, checked with one refresh before it is kept. */
  'accounts.loginWithRefreshToken': {
    params: z
      .object({ accountId, refreshToken: z.string().trim().min(1, 'Paste the refresh token.').max(500) })
      .strict(),
    result: accountView,
  },
  'accounts.logout': { params: z.object({ accountId }).strict(), result: accountView },
  /**
   * The demo company logs in again the way the station set it up (a manual-mode login from the
   * built-in sandbox, spec "Access to resources" 4): its password is made anew at every launch and
   * known to nobody, so its browser login could not be completed.
   */
  'accounts.loginDemo': { params: z.object({ accountId }).strict(), result: accountView },

  'settings.get': { reads: true, params: none, result: stationSettings },
  'settings.set': { params: stationSettingsPatch, result: stationSettings },
  /**
   * The page's own system language (its browser's or Electron's locale), told on every connection:
   * while the worker has chosen none, the core asks the service for messages in the language the
   * page shows, not in the language of the process it happens to run in.
   */
  'settings.pageLanguage': {
    reads: true,
    params: z.object({ language: z.enum(['en', 'cs']) }).strict(),
    result: z.object({ language: z.enum(['en', 'cs']) }),
  },
};

export const accountEvents = {
  'accounts.changed': z.array(accountView),
  'settings.changed': stationSettings,
};
