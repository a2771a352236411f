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
import type { Db } from '../store/sqlite';
import { StationError } from '../base/stationError';
import type { Accounts } from './accounts';
import { loginDemoAccount, type DemoSandbox } from './demoAccount';

/**
 * Tables of the service's data the station caches per account; child tables go by ON DELETE
 * CASCADE. Collection places stay: the seed makes the same ones again, and New shipment needs them.
 */
const CACHED_PER_ACCOUNT = [
  'shipment_packages',
  'shipments',
  'sync_pages',
  'sync_state',
  'label_checks',
  'label_documents',
  'collection_protocols',
  'pickup_orders',
  'protocol_elsewhere_shipments',
  'batch_items',
] as const;

export function forgetAccountCache(db: Db, accountId: string): void {
  const present = new Set(db.prepare<[], { name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table'`).all().map((r) => r.name));
  db.transaction(() => {
    for (const table of CACHED_PER_ACCOUNT) {
      if (!present.has(table)) continue;
      const hasAccount = db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`).all().some((c) => c.name === 'account_id');
      if (hasAccount) db.prepare(`DELETE FROM ${table} WHERE account_id = ?`).run(accountId);
    }
  })();
}

export async function resetDemoData(o: { db: Db; accounts: Accounts; sandbox: DemoSandbox; demoAccountId: string | null; log: Logger }): Promise<void> {
  const active = o.accounts.active();
  if (!o.demoAccountId || active?.id !== o.demoAccountId) {
    throw new StationError('not_demo_account', 'Only the demo company on the built-in sandbox can be reset. Make it the active company first.');
  }
  const res = await fetch(`${o.sandbox.url}/_sandbox/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(o.sandbox.adminSecret ? { 'x-sandbox-admin-secret': o.sandbox.adminSecret } : {}) },
    body: JSON.stringify({ seed: 'demo' }),
    signal: AbortSignal.timeout(20_000),
  });
  if (!res.ok) throw new StationError('demo_reset_failed', `The built-in sandbox did not reset (HTTP ${res.status}).`);
  forgetAccountCache(o.db, o.demoAccountId);
  await loginDemoAccount(o.accounts, o.demoAccountId, o.sandbox);
  o.log.info('demo data reset', { accountId: o.demoAccountId });
}
