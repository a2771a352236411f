/**
 * Shipments by hand against a real sandbox: transport search priced as the spec says,
 * insert (kept prepared, or closed with its label out of the virtual ZPL printer), field errors of
 * the service on the form's fields in English and Czech, edit with If-Match and the 412, and the
 * address book from the cache.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { shipmentDraft, type ShipmentDraftInput } from '../../../shared/contract/newShipment';
import { shipmentStates } from '../../../shared/contract/shipments';
import { startSandbox, type Sandbox } from '../../../sandbox/index';
import { createAddressBookRepo } from '../../../electron/store/addressBookRepo';
import { createNewShipment, type NewShipment } from '../../../electron/workflows/newShipment';
import { clearPrinted, startRig, type Rig } from './workflowRig';

let sb: Sandbox;
let rig: Rig;
let ns: NewShipment;

const draft = (over: Partial<ShipmentDraftInput> = {}) =>
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
    ...over,
  });

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  rig = await startRig(sb);
  ns = createNewShipment({ deps: rig.deps, addressBook: createAddressBookRepo(rig.db), printWaitMs: 8000 });
});
afterAll(async () => {
  await rig?.close();
  await sb?.close();
});
beforeEach(() => {
  clearPrinted(rig);
  rig.session.language.current = 'en';
});

describe('transports.search', () => {
  it('prices the README example: PPR-BUSINESS 2 kg 30x20x10 from WH-PRAHA with COD: total 115.88, final 144.88 (total + implicit cod)', async () => {
    const r = await ns.search(draft({ cod: '500', codCurrency: 'CZK' }));
    expect(r.fieldErrors).toEqual([]);
    const ppr = r.options.find((o) => o.deliveryType.code === 'PPR-BUSINESS')!;
    expect(ppr.price?.total).toBe('115.88');
    expect(ppr.extraServices.find((s) => s.code === 'cod')).toMatchObject({ implicit: true });
    expect(ppr.finalPrice).toEqual({ total: '144.88', currency: 'CZK' });
    // Exactly the lowest final price is marked cheapest, and the earliest delivery fastest.
    const cheapest = r.options.filter((o) => o.cheapest);
    expect(cheapest.length).toBeGreaterThan(0);
    const lowest = Math.min(...r.options.filter((o) => o.finalPrice).map((o) => Number(o.finalPrice!.total)));
    for (const o of cheapest) expect(Number(o.finalPrice!.total)).toBe(lowest);
    expect(r.options.some((o) => o.fastest)).toBe(true);
  });

  it('needs package dimensions (spec "GET /api/v3/transports": always required) and says so on the fields, without asking the service', async () => {
    const r = await ns.search(draft({ packages: [{ weight: '2,5' }] }));
    expect(r.options).toEqual([]);
    expect(r.fieldErrors.map((e) => e.field)).toEqual(['packages.0.length', 'packages.0.width', 'packages.0.height']);
  });
});

describe('shipments.insert', () => {
  it('inserts a shipment to an address with a decimal-comma weight, kept prepared and in the cache', async () => {
    const r = await ns.insert(
      draft({ agent: 'NP', deliveryType: 'NP-DOOR', packages: [{ weight: '2,35' }], externalId: 'DESK-1' }),
      { phoneRequired: false, dimensionsRequired: false },
      false,
    );
    expect(r.kind).toBe('saved');
    if (r.kind !== 'saved') return;
    expect(r.shipment.state).toBe(shipmentStates.prepared);
    expect(r.shipment.packages[0]!.weight).toBe('2.35');
    expect(rig.deps.repos.shipments.get(rig.session.accountId, r.shipment.deliveryId)?.externalId).toBe('DESK-1');
  });

  it('close and print at once: the label with the package barcode comes out of the ZPL printer', async () => {
    const r = await ns.insert(
      draft({ agent: 'NP', deliveryType: 'NP-DOOR' }),
      { phoneRequired: false, dimensionsRequired: false },
      true,
    );
    expect(r.kind).toBe('saved');
    if (r.kind !== 'saved') return;
    expect(r.close).toMatchObject({ closed: true, print: 'printed', error: null });
    const barcode = r.shipment.packages[0]!.barcode!;
    expect(barcode).toMatch(/^DR/);
    expect(rig.printer.printed().some((l) => l.zpl.includes(barcode))).toBe(true);
  });

  it('a required phone (spec "Transport option" phoneRequired) is refused before anything is sent', async () => {
    const d = draft({
      agent: 'PPR',
      deliveryType: 'PPR-PRIVATE',
      recipient: {
        type: 'address',
        surname: 'Novák',
        email: 'n@example.cz',
        address: { street: 'A 1', city: 'Praha', postalCode: '11000', state: 'CZ' },
      },
    });
    const r = await ns.insert(d, { phoneRequired: true, dimensionsRequired: true }, false);
    expect(r).toMatchObject({ kind: 'invalid' });
    if (r.kind === 'invalid') expect(r.fieldErrors.map((e) => e.code)).toEqual(['phoneRequired']);
  });

  it('the service’s 422 errors land on the form’s fields, in Czech when the UI is Czech', async () => {
    rig.session.language.current = 'cs';
    const r = await ns.insert(
      draft({
        agent: 'NP',
        deliveryType: 'NP-DOOR',
        cod: '100',
        codCurrency: 'CZK',
        variableSymbol: 'ABC',
        extraServices: [{ code: 'email_advice_unload', arguments: { email: 'not-an-email' } }],
      }),
      { phoneRequired: false, dimensionsRequired: false },
      false,
    );
    expect(r.kind).toBe('invalid');
    if (r.kind !== 'invalid') return;
    const fields = Object.fromEntries(r.fieldErrors.map((e) => [e.field, e.message]));
    expect(fields.variableSymbol).toMatch(/číslic/);
    expect(fields['extraServices.email_advice_unload.arguments.email']).toBeDefined();
  });
});

describe('shipments.edit', () => {
  it('edits with If-Match from the last read; a concurrent change gives a conflict with the fresh data (spec 412), nothing overwritten', async () => {
    const saved = await ns.insert(
      draft({ agent: 'NP', deliveryType: 'NP-DOOR', ticketNote: 'first' }),
      { phoneRequired: false, dimensionsRequired: false },
      false,
    );
    if (saved.kind !== 'saved') throw new Error('insert failed');
    const id = saved.shipment.deliveryId;
    const opened = await ns.openForEdit(id);
    expect(opened.editable).toBe(true);
    expect(opened.etag).toBeTruthy();
    expect(opened.draft.ticketNote).toBe('first');

    // Another desk edits it meanwhile.
    const other = await ns.openForEdit(id);
    expect(
      (
        await ns.edit(
          id,
          other.etag,
          { ...other.draft, ticketNote: 'from the other desk' },
          { phoneRequired: false, dimensionsRequired: false },
        )
      ).kind,
    ).toBe('saved');

    const mine = await ns.edit(
      id,
      opened.etag,
      { ...opened.draft, ticketNote: 'mine' },
      { phoneRequired: false, dimensionsRequired: false },
    );
    expect(mine.kind).toBe('conflict');
    if (mine.kind !== 'conflict') return;
    expect(mine.draft.ticketNote).toBe('from the other desk');
    expect(rig.deps.repos.shipments.get(rig.session.accountId, id)?.ticketNote).toBe('from the other desk');

    // With the fresh ETag the edit goes through.
    const again = await ns.edit(
      id,
      mine.etag,
      { ...mine.draft, ticketNote: 'mine' },
      { phoneRequired: false, dimensionsRequired: false },
    );
    expect(again.kind).toBe('saved');
    if (again.kind === 'saved') expect(again.shipment.ticketNote).toBe('mine');
  });
});

describe('addressBook.search', () => {
  it('finds recipients used before by name without diacritics, once per person and place', async () => {
    await ns.insert(
      draft({
        agent: 'NP',
        deliveryType: 'NP-DOOR',
        recipient: {
          type: 'address',
          firstname: 'Petr',
          surname: 'Dvořák',
          phone: '+420777111222',
          address: { street: 'Nádražní 5', city: 'Brno', postalCode: '60200', state: 'CZ' },
        },
      }),
      { phoneRequired: false, dimensionsRequired: false },
      false,
    );
    await ns.insert(
      draft({
        agent: 'NP',
        deliveryType: 'NP-DOOR',
        recipient: {
          type: 'address',
          firstname: 'Petr',
          surname: 'Dvořák',
          phone: '+420777111222',
          address: { street: 'Nádražní 5', city: 'Brno', postalCode: '60200', state: 'CZ' },
        },
      }),
      { phoneRequired: false, dimensionsRequired: false },
      false,
    );
    const found = ns.addressBook('dvorak', 10);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      uses: 2,
      party: { surname: 'Dvořák', phone: '+420777111222', address: { city: 'Brno' } },
    });
  });
});
