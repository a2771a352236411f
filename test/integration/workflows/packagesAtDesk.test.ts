/**
 * Packages at the desk through the real station core (createStation, its RPC as a page calls it) on a
 * real sandbox over HTTP and a real TCP listener as the label printer (virtualZplPrinter). What a
 * worker would check, judged from the service's and the printer's side:
 * - a parcel split into two boxes is updated at the service (two packages, the weights typed with a
 *   decimal comma), closed, and one label per package comes out (counted at the printer);
 * - a box too heavy for the chosen transport is refused before anything is closed: the shipment at
 *   the service is unchanged and still prepared, nothing printed;
 * - sides (spec: conditional in a delivery, "always required" in the transport search): the search
 *   is made only with sides the worker typed or the service held, never with sides made up for a
 *   box nobody measured (such a box goes to the service without sides, which judges it against the
 *   delivery type itself); where the carrier wants sides, a box without them is refused by name
 *   before anything is sent; typed sides are rated (a light but big box is refused by the search).
 *   What was sent is read from a real HTTP proxy between the station and the sandbox;
 * - another program's change meanwhile (spec "PUT": If-Match, 412) is refused with nothing sent and
 *   nothing lost: the other change stays, and a second send puts the worker's boxes on it.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore } from '../../../electron/auth/keychain';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../../../electron/printing/virtualZplPrinter';
import { createStation, type Station } from '../../../electron/station';
import type { MethodName, ParamsOf, ResultOf } from '../../../shared/contract';
import { printerSettings } from '../../../shared/contract/printing';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { startFlakyProxy, type FlakyProxy } from '../../support/flakyProxy';
import { memoryLogger } from '../../support/memoryLogger';
import { labelsBeforeMarker } from '../../support/printMarker';
import { insertShipments, orderItem, sandboxToken } from '../../support/sandboxShipments';
import { waitFor } from '../printing/printingTestKit';

/** Spec "States and transitions": 0 prepared. */
const PREPARED = 0;

let sb: Sandbox;
let proxy: FlakyProxy;
let printer: VirtualZplPrinter;
let token: string;
let station: Station;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'station-packages-'));

class Refused extends Error {
  constructor(
    readonly code: string,
    readonly details: unknown,
  ) {
    super(code);
  }
}
async function call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
  const r = await station.rpc.dispatch(method, params);
  if (!r.ok) throw new Refused(r.error.code, r.error.details);
  return r.value as ResultOf<M>;
}
const refusalOf = (p: Promise<unknown>) =>
  p.then(
    () => 'not refused',
    (err: unknown) => (err instanceof Refused ? err.code : String(err)),
  );

interface ServiceDelivery {
  deliveryId: number;
  deliveryState: number;
  ticketNote: string | null;
  packages: { weight: number; barcode: string | null; length: number | null }[];
}
/** The shipment as the service holds it (JSON: weights are numbers with a decimal point, spec "Common conventions" 5). */
async function atService(deliveryId: number): Promise<ServiceDelivery> {
  const res = await fetch(`${sb.url}/api/v3/deliveries?deliveryId=${deliveryId}`, {
    headers: { accept: 'application/json', authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { data: ServiceDelivery[] };
  return body.data[0]!;
}

/** Every label that came out of the printer so far (a marker label queued now comes out after them). */
const printedSoFar = () => labelsBeforeMarker(printer, (j) => station.printing.queue.enqueue(j), 'desk');

const logged = (scanId: number) => station.deps.repos.scanLog.get(scanId)?.outcome;

type SentPackage = { weight: unknown; length?: unknown; width?: unknown; height?: unknown };
/** The packages of the requests to `path` the station sent since request number `from` (the proxy's count). */
function sentSince(from: number, method: string, path: string): SentPackage[][] {
  return proxy.seen.flatMap((line, i) => {
    if (i < from || !line.startsWith(`${method} ${path}`) || !proxy.bodies[i]) return [];
    const body = JSON.parse(proxy.bodies[i]) as { deliveries: { packages: SentPackage[] }[] };
    return body.deliveries.map((d) => d.packages);
  });
}
/** Transport searches (GET with a body, or POST with X-HTTP-Method-Override: spec "GET /api/v3/transports"). */
const searchesSince = (from: number) => [
  ...sentSince(from, 'GET', '/api/v3/transports'),
  ...sentSince(from, 'POST', '/api/v3/transports'),
];
const sidesOf = (packages: SentPackage[]) => packages.map((p) => [p.length, p.width, p.height]);

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  proxy = await startFlakyProxy(sb.url);
  token = await sandboxToken(sb);
  printer = await startVirtualZplPrinter();
  station = await createStation({
    dataDir,
    host: 'web',
    version: 'test',
    log: memoryLogger(),
    // The station reaches the sandbox through the proxy, which keeps what it was sent.
    sandbox: { url: proxy.url, demo: sb.demo },
    secrets: createMemorySecretStore(),
    printWaitMs: 300,
    healthIntervalMs: 60_000,
  });
  await call('printing.printers.save', {
    id: 'desk',
    name: 'Desk Zebra',
    connection: { kind: 'zpl-tcp', host: printer.host, port: printer.port },
    settings: printerSettings.parse({ hostStatus: true }),
  });
  await call('printing.routes.set', {
    carriers: {},
    defaultRoute: { format: 'zpl', printerId: 'desk' },
    protocolPrinterId: null,
  });
  await call('shipments.sync', {});
}, 60_000);
afterAll(async () => {
  await station?.close();
  await printer?.close();
  await proxy?.close();
  await sb?.close();
});

describe('packages at the desk', () => {
  it('splits a one-box parcel into two, updates it at the service, closes it and prints one label per package', async () => {
    const before = (await printedSoFar()).length;
    const mark = proxy.seen.length;
    // ORD-1001: National Post to the door, one package of 2.3 kg, to Jana Nováková.
    const parcel = await call('packages.open', { code: 'ORD-1001' });
    expect(parcel).toMatchObject({ recipientName: expect.stringContaining('Nováková'), agent: 'NP' });
    expect(parcel.packages).toHaveLength(1);
    expect(parcel.dimensionsRequired).toBe(false);

    const sent = await call('packages.close', {
      deliveryId: parcel.deliveryId,
      packages: [
        { weight: '1.4', length: null, width: null, height: null },
        { weight: '0.95', length: 30, width: 20, height: 15 },
      ],
    });
    await waitFor(() => logged(sent.scanId) === 'printed', 20_000);

    const s = await atService(parcel.deliveryId);
    expect(s.deliveryState).not.toBe(PREPARED);
    expect(s.packages.map((p) => p.weight)).toEqual([1.4, 0.95]);
    expect(s.packages[0]!.length).toBeNull();
    expect(s.packages[1]!.length).toBe(30);
    // Box 1 was not measured: no transport search (it needs every box's sides), none made up, and
    // the update carries only the sides typed (spec "Delivery: request fields": conditional).
    expect(searchesSince(mark)).toEqual([]);
    expect(sentSince(mark, 'PUT', '/api/v3/deliveries')).toEqual([
      [{ weight: 1.4 }, { weight: 0.95, length: 30, width: 20, height: 15 }],
    ]);
    const printed = (await printedSoFar()).slice(before);
    // One label per package, each carrying its own package barcode.
    expect(printed).toHaveLength(2);
    for (const p of s.packages) expect(printed.filter((l) => l.zpl.includes(p.barcode!))).toHaveLength(1);
  });

  it('refuses a box too heavy for the chosen transport before anything is closed: unchanged at the service, nothing printed', async () => {
    const before = (await printedSoFar()).length;
    const mark = proxy.seen.length;
    // ORD-1003: National Post to a post office, which takes packages up to 20 kg (the sandbox's catalogue).
    const parcel = await call('packages.open', { code: 'ORD-1003' });
    const was = await atService(parcel.deliveryId);
    const refused = await call('packages.close', {
      deliveryId: parcel.deliveryId,
      packages: [
        { weight: '1.2', length: null, width: null, height: null },
        { weight: '25.5', length: null, width: null, height: null },
      ],
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Refused);
    // Not measured, so not searched: the service's own check of the update refused it, in its words.
    expect(refused).toMatchObject({
      code: 'transport_refuses',
      details: { agent: 'NP', deliveryType: 'NP-POST', serviceMessage: expect.stringContaining('20 kg') },
    });
    expect(searchesSince(mark)).toEqual([]);
    const now = await atService(parcel.deliveryId);
    expect(now.deliveryState).toBe(PREPARED);
    expect(now.packages).toEqual(was.packages);
    expect((await printedSoFar()).length).toBe(before);

    // The worker takes the heavy box out: the same opening sends, closes and prints one label.
    const sent = await call('packages.close', {
      deliveryId: parcel.deliveryId,
      packages: [{ weight: '1.2', length: null, width: null, height: null }],
    });
    await waitFor(() => logged(sent.scanId) === 'printed', 20_000);
    expect((await printedSoFar()).length).toBe(before + 1);
  });

  it('where the carrier wants sides, a box without them is refused by name before anything is sent; no side is made up', async () => {
    const mark = proxy.seen.length;
    // ORD-1005: PPR private parcel, one box of 3.4 kg measured 40×30×20 (PPR-PRIVATE wants sides).
    const parcel = await call('packages.open', { code: 'ORD-1005' });
    expect(parcel.dimensionsRequired).toBe(true);
    const was = await atService(parcel.deliveryId);
    const refused = await call('packages.close', {
      deliveryId: parcel.deliveryId,
      packages: [
        { weight: '2.4', length: 40, width: 30, height: 20 },
        { weight: '1.1', length: null, width: null, height: null },
      ],
    }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'packages_invalid', details: { problems: ['2:sides_missing'] } });
    // The only search was the opening's, with the sides the service holds.
    expect(searchesSince(mark).map(sidesOf)).toEqual([[[40, 30, 20]]]);
    expect(sentSince(mark, 'PUT', '/api/v3/deliveries')).toEqual([]);
    expect(await atService(parcel.deliveryId)).toEqual(was);
    await call('packages.leave', { deliveryId: parcel.deliveryId });
  });

  it('typed sides are rated by the transport search: a light box too big for its carrier is refused, nothing sent', async () => {
    const mark = proxy.seen.length;
    // ORD-1004: PPR business parcel of 12 kg.
    const parcel = await call('packages.open', { code: 'ORD-1004' });
    const was = await atService(parcel.deliveryId);
    const boxes = [
      { weight: '2', length: 40, width: 30, height: 20 },
      { weight: '2', length: 150, width: 120, height: 100 },
    ];
    expect(await refusalOf(call('packages.close', { deliveryId: parcel.deliveryId, packages: boxes }))).toBe(
      'transport_refuses',
    );
    expect(searchesSince(mark).map(sidesOf)).toEqual([
      [
        [40, 30, 20],
        [150, 120, 100],
      ],
    ]);
    expect(sentSince(mark, 'PUT', '/api/v3/deliveries')).toEqual([]);
    expect(await atService(parcel.deliveryId)).toEqual(was);
    await call('packages.leave', { deliveryId: parcel.deliveryId });
  });

  it('a change by another program meanwhile (412) sends nothing and loses nothing; sent again, the boxes go on the new data', async () => {
    const [id] = await insertShipments(sb, token, 1, 'SKLAD-');
    await call('shipments.sync', {});
    const parcel = await call('packages.open', { code: 'SKLAD-1' });
    expect(parcel.deliveryId).toBe(id);

    // An e-shop changes the note on the label meanwhile (spec "PUT" without If-Match).
    const res = await fetch(`${sb.url}/api/v3/deliveries`, {
      method: 'PUT',
      headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        deliveries: [{ ...orderItem('SKLAD-1'), deliveryId: id, ticketNote: 'Křehké: sklo' }],
      }),
    });
    expect(res.status).toBe(200);

    const boxes = [
      { weight: '1.1', length: null, width: null, height: null },
      { weight: '1.2', length: null, width: null, height: null },
      { weight: '0.5', length: null, width: null, height: null },
    ];
    expect(await refusalOf(call('packages.close', { deliveryId: id!, packages: boxes }))).toBe('packages_changed');
    const between = await atService(id!);
    expect(between.deliveryState).toBe(PREPARED);
    expect(between.ticketNote).toBe('Křehké: sklo');
    expect(between.packages.map((p) => p.weight)).toEqual([2.3]);

    const sent = await call('packages.close', { deliveryId: id!, packages: boxes });
    await waitFor(() => logged(sent.scanId) === 'printed', 20_000);
    const after = await atService(id!);
    expect(after.ticketNote).toBe('Křehké: sklo');
    expect(after.packages.map((p) => p.weight)).toEqual([1.1, 1.2, 0.5]);
  });

  it('refuses a closed parcel, an empty box, and packages never opened', async () => {
    expect(await refusalOf(call('packages.open', { code: 'ORD-1001' }))).toBe('packages_not_prepared');
    const parcel = await call('packages.open', { code: 'ORD-1004' });
    expect(
      await refusalOf(
        call('packages.close', {
          deliveryId: parcel.deliveryId,
          packages: [{ weight: null, length: null, width: null, height: null }],
        }),
      ),
    ).toBe('packages_invalid');
    await call('packages.leave', { deliveryId: parcel.deliveryId });
    expect(
      await refusalOf(
        call('packages.close', {
          deliveryId: parcel.deliveryId,
          packages: [{ weight: '1', length: null, width: null, height: null }],
        }),
      ),
    ).toBe('packages_not_open');
    expect((await atService(parcel.deliveryId)).deliveryState).toBe(PREPARED);
  });
});
