/**
 * First run: with no account set up, the station works for the built-in sandbox's
 * demo company at once. The demo client's id is public; the sandbox the station embeds gets a
 * client secret and password made anew at every launch (electron/demo/embeddedSandbox.ts), handed over
 * in process, so the public ones printed on its root page log nobody in. The secret still goes to
 * the keychain like any other, afresh at every start. The login is the spec's manual
 * mode ("Access to resources" 4): a refresh token the sandbox's test controls hand out, provisioned
 * afresh at every start so a reset sandbox never leaves the demo logged out. The sandbox the
 * station embeds gates those controls by a per-launch secret (`adminSecret`), which only this
 * process knows; a sandbox given from outside (tests) may have open controls.
 */
import type { Logger } from '../rpc/rpcServer';
import type { SettingsRepo } from '../store/settingsRepo';
import type { Accounts } from './accounts';

export interface DemoSandbox {
  url: string;
  demo: {
    clientId: string;
    clientSecret: string;
    redirectUri: string;
    username: string;
    password: string;
    companyName: string;
    scope: string;
  };
  /** The secret the sandbox's test controls require (sent as x-sandbox-admin-secret), if any. */
  adminSecret?: string;
}

export const DEMO_ACCOUNT_SETTING = 'accounts.demoAccountId';

async function demoRefreshToken(sb: DemoSandbox): Promise<string> {
  const res = await fetch(`${sb.url}/_sandbox/tokens`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(sb.adminSecret ? { 'x-sandbox-admin-secret': sb.adminSecret } : {}),
    },
    body: JSON.stringify({ clientId: sb.demo.clientId, username: sb.demo.username, scope: sb.demo.scope }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json().catch(() => null)) as { refresh_token?: unknown } | null;
  if (!res.ok || typeof body?.refresh_token !== 'string')
    throw new Error(`the sandbox gave no demo login (HTTP ${res.status})`);
  return body.refresh_token;
}

/** Logs the demo company in with a fresh manual-mode token (at start-up, and after a demo reset). */
export async function loginDemoAccount(accounts: Accounts, id: string, sandbox: DemoSandbox): Promise<void> {
  // The secret is public; stored again in case the keychain was cleared (or is memory only).
  await accounts.setClientSecret(id, sandbox.demo.clientSecret);
  await accounts.loginWithRefreshToken(id, await demoRefreshToken(sandbox));
}

/** The demo account's id: created when the station has no account, logged in when it is the demo one. */
export async function ensureDemoAccount(o: {
  accounts: Accounts;
  settings: SettingsRepo;
  sandbox: DemoSandbox;
  log: Logger;
}): Promise<string | null> {
  let id = o.settings.get<string>(DEMO_ACCOUNT_SETTING) ?? null;
  if (id && !o.accounts.get(id)) id = null;
  if (!id) {
    if (o.accounts.list().length > 0) return null;
    const redirect = new URL(o.sandbox.demo.redirectUri);
    const a = await o.accounts.add({
      name: o.sandbox.demo.companyName,
      environment: 'sandbox',
      clientId: o.sandbox.demo.clientId,
      clientSecret: o.sandbox.demo.clientSecret,
      redirectPort: Number(redirect.port),
      redirectPath: redirect.pathname,
      scopes: o.sandbox.demo.scope.split(' '),
    });
    id = a.id;
    o.settings.set(DEMO_ACCOUNT_SETTING, id);
    o.log.info('demo account set up on the built-in sandbox', { accountId: id });
  }
  try {
    await loginDemoAccount(o.accounts, id, o.sandbox);
  } catch (err) {
    o.log.warn('the demo account could not log in to the built-in sandbox', { error: (err as Error).message });
  }
  return id;
}
