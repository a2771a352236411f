/**
 * "Reset demo data" (Settings → Accounts, demo company only): the built-in sandbox seeds its demo
 * shipments again through its own test control (sandbox README, `POST /_sandbox/reset` with
 * `{ "seed": "demo" }`, gated by the station's per-launch secret), and the station forgets what it
 * cached of the demo company (shipments, labels, protocols, sync cursors), so
 * ORD-1001 … are prepared again everywhere. The scan log and the print queue stay: they are what
 * the worker did, not the service's data. The reset wipes the sandbox's tokens too, so the demo
 * company logs in again with a fresh manual-mode token, as at start-up.
 */
import type { Logger } from '../rpc/rpcServer';
import type { AccountCacheRepo } from '../store/accountCacheRepo';
import { StationError } from '../base/stationError';
import type { Accounts } from './accounts';
import { loginDemoAccount, type DemoSandbox } from './demoAccount';

export async function resetDemoData(o: {
  accountCache: AccountCacheRepo;
  accounts: Accounts;
  sandbox: DemoSandbox;
  demoAccountId: string | null;
  log: Logger;
}): Promise<void> {
  const active = o.accounts.active();
  if (!o.demoAccountId || active?.id !== o.demoAccountId) {
    throw new StationError(
      'not_demo_account',
      'Only the demo company on the built-in sandbox can be reset. Make it the active company first.',
    );
  }
  const res = await fetch(`${o.sandbox.url}/_sandbox/reset`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(o.sandbox.adminSecret ? { 'x-sandbox-admin-secret': o.sandbox.adminSecret } : {}),
    },
    body: JSON.stringify({ seed: 'demo' }),
    signal: AbortSignal.timeout(20_000),
  });
  if (!res.ok) throw new StationError('demo_reset_failed', `The built-in sandbox did not reset (HTTP ${res.status}).`);
  o.accountCache.forget(o.demoAccountId);
  await loginDemoAccount(o.accounts, o.demoAccountId, o.sandbox);
  o.log.info('demo data reset', { accountId: o.demoAccountId });
}
