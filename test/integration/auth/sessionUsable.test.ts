/**
 * Scans made while the active company cannot be used wait, and run by themselves once the SAME
 * company logs in again: after a logout, and after the service refused the saved login (its
 * tokens withdrawn at the sandbox, spec Flow 9 invalid_grant). Neither login changes the account's
 * id or address, so nothing may wait on those. The real station core over its RPC, the embedded
 * sandbox over HTTP, and a real TCP listener as the label printer; no manual wake-up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../../../electron/printing/virtualZplPrinter';
import { printerSettings } from '../../../shared/contract/printing';
import { connectRpc, type RpcSocket } from '../../support/rpcSocket';
import { needs } from '../../support/services';
import { startHostedStation, type HostedStation } from '../../support/station';

describe.skipIf(!needs('keychain'))(
  'what waits for the account follows the session’s usable state',
  { timeout: 120_000 },
  () => {
    let printer: VirtualZplPrinter;
    let hs: HostedStation;
    let rpc: RpcSocket;
    let accountId: string;

    /** The sandbox's test controls (open in the test harness). */
    async function control(path: string, body: unknown): Promise<Record<string, unknown>> {
      const res = await fetch(`${hs.station.sandbox.url}/_sandbox/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.ok).toBe(true);
      return (await res.json()) as Record<string, unknown>;
    }

    /** The demo company logs in again the way the service's manual mode gives a login (spec "Access to resources" 4). */
    async function logInAgain(): Promise<void> {
      const d = hs.station.sandbox.demo;
      const grant = await control('tokens', { clientId: d.clientId, username: d.username, scope: d.scope });
      await rpc.call('accounts.loginWithRefreshToken', { accountId, refreshToken: grant.refresh_token as string });
    }

    const usable = async () => (await rpc.call('station.status', {})).session.usable;

    beforeAll(async () => {
      printer = await startVirtualZplPrinter();
      hs = await startHostedStation({ printWaitMs: 30_000 });
      rpc = await connectRpc(hs.host);
      await rpc.call('printing.printers.save', {
        id: 'desk',
        name: 'Stůl Zebra',
        connection: { kind: 'zpl-tcp', host: printer.host, port: printer.port },
        settings: printerSettings.parse({}),
      });
      await rpc.call('printing.routes.set', {
        carriers: {},
        defaultRoute: { format: 'zpl', printerId: 'desk' },
        protocolPrinterId: null,
      });
      accountId = (await rpc.call('accounts.list', {})).find((a) => a.active)!.id;
    });
    afterAll(async () => {
      rpc?.close();
      await hs?.close();
      await printer?.close();
    });

    it('logged out: a scan waits for a login, the status says a login is needed; the same company logs in and it closes and prints', async () => {
      await expect.poll(usable, { timeout: 30_000, interval: 100 }).toBe('usable');
      await rpc.call('accounts.logout', { accountId });
      await expect.poll(usable, { timeout: 10_000, interval: 100 }).toBe('login_needed');

      const waiting = rpc.waitFor('scan.outcome', (o) => o.code === 'ORD-1001', 30_000);
      await rpc.call('scan.submit', { code: 'ORD-1001' });
      expect(await waiting).toMatchObject({ kind: 'service_unreachable', reason: { code: 'login_required' } });
      const before = printer.printed().length;

      const printed = rpc.waitFor('scan.outcome', (o) => o.code === 'ORD-1001' && o.kind === 'printed', 60_000);
      await logInAgain();
      expect(await printed).toMatchObject({ kind: 'printed', shipment: { recipientName: expect.any(String) } });
      expect(printer.printed().length).toBeGreaterThan(before);
      expect(await usable()).toBe('usable');
      expect((await rpc.call('scan.pending', {})).scans).toEqual([]);
    });

    it('the service refuses the saved login (tokens withdrawn): the scan waits; after logging in again it runs', async () => {
      const d = hs.station.sandbox.demo;
      // Every token of the demo company's login is withdrawn: the next call gets 401, the refresh invalid_grant.
      await control('permissions/withdraw', { clientId: d.clientId, username: d.username });

      const waiting = rpc.waitFor('scan.outcome', (o) => o.code === 'ORD-1003', 30_000);
      await rpc.call('scan.submit', { code: 'ORD-1003' });
      const w = await waiting;
      expect(w.kind).toBe('service_unreachable');
      await expect.poll(usable, { timeout: 10_000, interval: 100 }).toBe('login_needed');
      const line = (await rpc.call('scan.pending', {})).scans;
      expect(line.map((p) => p.code)).toEqual(['ORD-1003']);
      expect(line[0]!.reason?.code).toMatch(/login_required/);
      const before = printer.printed().length;

      const printed = rpc.waitFor('scan.outcome', (o) => o.code === 'ORD-1003' && o.kind === 'printed', 60_000);
      await logInAgain();
      await printed;
      expect(printer.printed().length).toBeGreaterThan(before);
      expect(await usable()).toBe('usable');
    });

    it('the password-less login is the demo company’s only: another company is refused with why', async () => {
      const other = await rpc.call('accounts.add', {
        name: 'Pobočka Žižkov',
        environment: 'test',
        baseUrl: 'https://test.example.invalid',
        clientId: 'zizkov',
        clientSecret: 'tajné',
      });
      await expect(rpc.call('accounts.loginDemo', { accountId: other.id })).rejects.toMatchObject({
        code: 'account_not_demo',
      });
      expect((await rpc.call('accounts.list', {})).find((a) => a.id === other.id)?.login.state).toBe('logged-out');
    });
  },
);
