/**
 * One desk with a scale for the end-to-end scale tests: a real sandbox over HTTP, a virtual MT-SICS
 * scale on a pseudo-terminal pair (socat), the composed station behind its web host with its
 * virtual ZPL printer, calls over the host's WebSocket as the page makes them, and every event the
 * station emits recorded. The scale is set up as Settings → Scale & check would, and the cache
 * holds the demo shipments before the tests start.
 */
import { createMemorySecretStore } from '../../../electron/auth/keychain';
import type { EventName } from '../../../shared/contract';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { openRpcSocket, startHostedStation, type HostedStation } from '../../support/station';
import { waitFor } from '../printing/printingTestKit';
import { startVirtualScale, type VirtualScale } from './virtualScale';

export interface ScaleDesk {
  sb: Sandbox;
  vs: VirtualScale;
  hs: HostedStation;
  events: { name: EventName; payload: unknown }[];
  /** A contract call over the page's socket; throws unless it answered ok. */
  call(method: string, params: unknown): Promise<never>;
  /** The service's own record of a shipment (not the station's cache). */
  atService(code: string): Promise<{
    deliveryId: number;
    deliveryState: unknown;
    packages: { weight: string | number; barcode?: string | null }[];
  }>;
  close(): Promise<void>;
}

/** `askAbovePercent`: the weight check's share (Settings → Scale; the station's default when absent). */
export async function startScaleDesk(o: { verifyLabels: boolean; askAbovePercent?: number }): Promise<ScaleDesk> {
  const sb = await startSandbox({ seed: 'demo' });
  const vs = await startVirtualScale();
  const hs = await startHostedStation({ sandbox: sb, secrets: createMemorySecretStore(), printWaitMs: 3000 });
  const events: ScaleDesk['events'] = [];
  hs.station.rpc.onEvent((name, payload) => events.push({ name, payload }));
  const rpc = await openRpcSocket(hs.host);
  const call = async (method: string, params: unknown) => {
    const m = await rpc.call(method, params);
    if (m.t !== 'reply' || !m.result.ok) throw new Error(`${method} failed: ${JSON.stringify(m)}`);
    return m.result.value as never;
  };
  const atService: ScaleDesk['atService'] = async (code) => {
    const found = await hs.station.deps.session()!.client.searchDeliveries({ filters: { externalId: code } });
    if (found.status !== 'ok') throw new Error('search failed');
    return found.deliveries[0] as never;
  };
  await call('scale.setSettings', {
    kind: 'mt-sics',
    path: vs.stationPath,
    baudRate: 9600,
    toleranceKg: '0.05',
    displayUnit: 'kg',
    waitSeconds: 30,
    verifyLabels: o.verifyLabels,
    ...(o.askAbovePercent ? { askAbovePercent: o.askAbovePercent } : {}),
  });
  await waitFor(
    () =>
      hs.station.shipments.repos.shipments.query(hs.station.accounts.active()!.id, { text: 'ORD-1003', limit: 5 })
        .total > 0,
    15_000,
  );
  return {
    sb,
    vs,
    hs,
    events,
    call,
    atService,
    async close() {
      rpc.ws.close();
      await hs.close();
      await vs.close();
      await sb.close();
    },
  };
}
