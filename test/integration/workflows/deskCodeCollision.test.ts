/**
 * No shipment key can be taken for a command barcode or a badge: none begins with the desk codes'
 * prefix `!LS-`. Checked over every key the service issues (the demo seed's and shipments closed
 * now: deliveryId, deliveryNumber, package barcodes, externalId) and the spec's own format of
 * `deliveryId` (an integer: digits only, spec "Delivery: response fields"); the one key an e-shop
 * chooses itself, externalId, is refused by the station's New shipment (the core, before anything
 * is sent to the service).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddressBookRepo } from '../../../electron/store/addressBookRepo';
import { createNewShipment } from '../../../electron/workflows/newShipment';
import { createDeskCommands } from '../../../electron/workflows/deskCommands';
import { createSyncStateRepo } from '../../../electron/store/syncStateRepo';
import { syncShipments } from '../../../electron/sync/syncShipments';
import { shipmentSourceFromClient } from '../../../electron/sync/shipmentSourceFromClient';
import { shipmentDraft } from '../../../shared/contract/newShipment';
import { readDeskCode } from '../../../shared/scan/deskCodes';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { shipment } from '../api/support';
import { startRig, type Rig } from './workflowRig';

/** Written out, not imported: the prefix the command sheet prints and a scanner types. */
const PREFIX = '!LS-';

let sb: Sandbox;
let rig: Rig;
beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  rig = await startRig(sb);
});
afterAll(async () => {
  await rig?.close();
  await sb?.close();
});

function keysOf(d: {
  deliveryId: number;
  deliveryNumber?: string | null;
  externalId?: string | null;
  packages: { barcode?: string | null }[];
}) {
  return [String(d.deliveryId), d.deliveryNumber, d.externalId, ...d.packages.map((p) => p.barcode)].filter(
    (k): k is string => typeof k === 'string' && k !== '',
  );
}

describe('desk codes never collide with shipment keys', () => {
  it('every key of the seeded shipments and of shipments closed now is read as a parcel, none begins with the prefix', async () => {
    // Closed now: a deliveryNumber and package barcodes issued by the carrier of each seeded kind.
    const inserted = await rig.session.client.insertDeliveries([
      shipment(),
      shipment({ packages: [{ weight: '1' }, { weight: '2' }] }),
    ]);
    for (const d of inserted) expect((await rig.workflows.scanToClose.scan(d.externalId!)).kind).toBe('printed');
    const all = [];
    for await (const page of rig.session.client.pageDeliveries({})) all.push(...page);
    expect(all.length).toBeGreaterThan(15);
    const closed = all.filter((d) => d.deliveryNumber);
    expect(closed.length).toBeGreaterThanOrEqual(2);
    const keys = all.flatMap(keysOf);
    expect(keys.length).toBeGreaterThan(all.length * 2);
    for (const k of keys) {
      expect(k.toUpperCase().startsWith(PREFIX), k).toBe(false);
      expect(readDeskCode(k), k).toBeNull();
    }
    // The spec's deliveryId is an integer: digits only, never a "!".
    for (const d of all) expect(String(d.deliveryId)).toMatch(/^\d+$/);
  });

  it('New shipment refuses an order number (externalId) that reads as a desk code, as a scan reads it, and sends nothing', async () => {
    const ns = createNewShipment({ deps: rig.deps, addressBook: createAddressBookRepo(rig.db), printWaitMs: 8000 });
    const count = async () => {
      let n = 0;
      for await (const page of rig.session.client.pageDeliveries({})) n += page.length;
      return n;
    };
    const before = await count();
    // A scan drops an AIM symbology identifier (`]C1`: GS1-128) and control characters first
    // (shared/scan/normaliseScan.ts), so these are read as `!LS-SIGN_OUT` and `!LS-X` at the desk.
    for (const externalId of ['!LS-REPRINT_LAST', '!ls-ord-1', '  !LS-OP-7', ']C1!LS-SIGN_OUT', '\u0002!LS-X\u0003']) {
      const r = await ns.insert(
        shipmentDraft.parse({
          sender: { type: 'collectionPlace', collectionPlace: 'WH-PRAHA' },
          recipient: {
            type: 'address',
            firstname: 'Jana',
            surname: 'Nováková',
            phone: '+420 601 234 567',
            address: { street: 'Dlouhá 12', city: 'Praha 1', postalCode: '11000', state: 'CZ' },
          },
          value: '1500',
          valueCurrency: 'CZK',
          packages: [{ weight: '2', length: '30', width: '20', height: '10' }],
          agent: 'NP',
          deliveryType: 'NP-DOOR',
          externalId,
        }),
        { phoneRequired: false, dimensionsRequired: false },
        false,
      );
      expect(r.kind, externalId).toBe('invalid');
      if (r.kind !== 'invalid') continue;
      expect(r.fieldErrors).toEqual([
        expect.objectContaining({
          field: 'externalId',
          code: 'deskCodePrefix',
          message: expect.stringContaining('!LS-'),
        }),
      ]);
    }
    expect(await count()).toBe(before);
  });

  it('the shipments sync brings shipments made elsewhere whose order number reads as a desk code; they are named to the worker, the others are not', async () => {
    // Another client of the account (an e-shop) chooses its own externalId (spec "Delivery:
    // request fields": "Client's own identifier"); the station's New shipment is not in the way.
    const odd = ['!LS-SIGN_OUT', ']C1!ls-reprint_last', '\u0002!LS-OP-Šárka\u0003', '  !LS-CLOSE_ALL'];
    const plain = ['ORD-Žluťoučký-1', '!ORD-2', ']C1ORD-3', 'LS-SIGN_OUT'];
    const made = await rig.session.client.insertDeliveries(
      [...odd, ...plain].map((externalId) =>
        shipment({
          externalId,
          recipient: {
            type: 'address',
            firstname: 'Šárka',
            surname: 'Dvořáková',
            phone: '+420 602 111 222',
            address: { street: 'Křižíkova 5', city: 'Brno', postalCode: '60200', state: 'CZ' },
          },
        }),
      ),
    );
    // In the order sent (the sandbox trims the surrounding spaces of an externalId).
    const oddIds = made.slice(0, odd.length).map((d) => d.deliveryId);
    const accountId = rig.deps.session()!.accountId;
    const synced = await syncShipments({
      accountId,
      source: shipmentSourceFromClient(rig.session.client),
      shipments: rig.deps.repos.shipments,
      syncState: createSyncStateRepo(rig.db),
      now: () => new Date(),
    });
    expect(synced.phase).toBe('done');
    const desk = createDeskCommands({ deps: rig.deps, language: () => 'cs' });
    const named = (await desk.handlers['commands.deskCodeShipments']({})).shipments;
    expect(named.map((n) => n.deliveryId).sort()).toEqual([...oddIds].sort());
    for (const n of named) {
      expect(n).toMatchObject({ key: 'externalId', recipientName: expect.stringContaining('Dvořáková') });
      expect(odd.map((c) => c.trim())).toContain(n.code);
    }
    // What a scan of such a label meets at the desk: the same shipment, named instead of acted on.
    expect(desk.shipmentReadAs('!LS-SIGN_OUT')?.deliveryId).toBe(oddIds[0]);
  });
});
