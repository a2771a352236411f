import { describe, expect, test } from 'vitest';
import { cancelDelivery, closeDeliveries, createDelivery, demoDeliveries, formatCarrierNumber } from '../../domain';
import type { StoredDelivery } from '../../domain';
import { NOW, item, places, stored, valid } from './fixtures';

function counter() {
  const n: Record<string, number> = {};
  return (agent: string) => String((n[agent] = (n[agent] ?? 0) + 1));
}
const close = (ds: StoredDelivery[], now = NOW, extra: { forceCarrierReject?: boolean } = {}) =>
  closeDeliveries(ds, { now, places, nextCarrierNumber: counter(), ...extra });

const address = item().recipient as Record<string, unknown>;

describe('spec "PATCH /api/v3/deliveries": closing', () => {
  test('fills deliveryNumber, package barcodes, closed and moves to state 1', () => {
    const r = close([stored({ packages: [{ weight: 1 }, { weight: 2 }, { weight: 3 }] })]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const [d] = r.value.closed;
    expect(d).toMatchObject({
      deliveryState: 1,
      deliveryStateName: 'Neodeslaná',
      closed: '2024-05-02T10:00:00+02:00',
      deliveryNumber: 'DR000000014CZ',
    });
    expect(d!.packages.map((p) => p.barcode)).toEqual(['DR000000014CZ001', 'DR000000014CZ002', 'DR000000014CZ003']);
  });
  test('package barcodes are unique and Code-128-safe ASCII across carriers', () => {
    const next = counter();
    const inputs = valid(demoDeliveries());
    const barcodes = inputs.flatMap((input, i) => {
      const d = createDelivery(
        { ...input, packages: [...input.packages, ...input.packages] },
        { deliveryId: i + 1, now: NOW },
      );
      const r = closeDeliveries([d], { now: NOW, places, nextCarrierNumber: next });
      return r.ok ? r.value.closed[0]!.packages.map((p) => p.barcode!) : [];
    });
    expect(barcodes.length).toBeGreaterThan(30);
    expect(new Set(barcodes).size).toBe(barcodes.length);
    for (const b of barcodes) expect(b).toMatch(/^[0-9A-Z]+$/);
  });
  test('carrier number formats (sandbox catalogue): S10 with check digit for NP, prefixes for the others', () => {
    expect(formatCarrierNumber('NP', '12345678')).toBe('DR123456785CZ'); // UPU S10 check digit of 12345678 is 5
    expect(formatCarrierNumber('PPR', '7')).toBe('40000000007');
    expect(formatCarrierNumber('RGX', '7')).toBe('RGX0000000007');
    expect(formatCarrierNumber('BOX', '7')).toBe('BP0000000007');
    expect(formatCarrierNumber('SHP', '7')).toBe('SP000000007');
    expect(formatCarrierNumber('CCR', '7')).toBe('CC00000007');
  });
  test('a pick-up is ordered for a collection-place sender with a collection type: next working day', () => {
    const r = close([stored(), stored({}, 2)]);
    expect(r.ok && r.value.collectionOrders).toEqual([
      { agent: 'NP', scheduled: '2024-05-03', collectionPlace: 'WH-PRAHA' },
    ]);
    // Closed on Friday 3 May 2024: Monday 6 May is next.
    const friday = close([stored()], new Date('2024-05-03T12:00:00Z'));
    expect(friday.ok && friday.value.collectionOrders[0]!.scheduled).toBe('2024-05-06');
    // Tuesday 7 May 2024: 8 May is a public holiday, so Thursday 9 May.
    const holiday = close([stored()], new Date('2024-05-07T12:00:00Z'));
    expect(holiday.ok && holiday.value.collectionOrders[0]!.scheduled).toBe('2024-05-09');
  });
  test('no pick-up order for an address sender or a place without a collection type', () => {
    const a = close([stored({ sender: address })]);
    expect(a.ok && a.value.collectionOrders).toEqual([]);
    const b = close([stored({ sender: { type: 'collectionPlace', collectionPlace: 'SHOP-OSTRAVA' } })]);
    expect(b.ok && b.value.collectionOrders).toEqual([]);
  });
});

describe('spec "PATCH": rules of closing (422 with errors)', () => {
  test('rule 1: closed and cancelled shipments cannot be closed again', () => {
    const first = close([stored()]);
    const cancelled = cancelDelivery(stored({}, 2));
    if (!first.ok || !cancelled.ok) throw new Error('setup');
    const r = close([stored({}, 3), first.value.closed[0]!, cancelled.value]);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.status).toBe(422);
      expect(r.errors.map((e) => e.field)).toEqual(['[1].deliveryId', '[2].deliveryId']);
      expect(r.errors[1]!.message.en).toMatch(/cancelled/);
    }
  });
  test('all shipments share one carrier', () => {
    const r = close([stored(), stored({ agent: 'PPR', deliveryType: 'PPR-BUSINESS' }, 2)]);
    expect(!r.ok && r.errors.map((e) => e.field)).toEqual(['[1].agent']);
  });
  test('all shipments share one collection place', () => {
    const r = close([
      stored(),
      stored({ sender: { type: 'collectionPlace', collectionPlace: 'SHOP-OSTRAVA' } }, 2),
      stored({ sender: address }, 3),
    ]);
    expect(!r.ok && r.errors.map((e) => e.field)).toEqual(['[1].sender.collectionPlace', '[2].sender.collectionPlace']);
  });
  test('nothing to close is an error', () => {
    expect(close([]).ok).toBe(false);
  });
});

describe('sandbox magic values: the carrier rejects the close', () => {
  test('recipient surname REJECT: 422 with the carrier message in en and cs; nothing closed', () => {
    const r = close([stored(), stored({ recipient: { ...address, surname: 'REJECT' } }, 2)]);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.status).toBe(422);
      expect(r.message?.en).toBe('The carrier rejected the shipments.');
      expect(r.errors).toEqual([
        {
          field: '[1].recipient.surname',
          value: 'REJECT',
          message: {
            en: 'National Post: the recipient was refused by the carrier (blocked addressee).',
            cs: 'National Post: dopravce příjemce odmítl (blokovaný adresát).',
          },
        },
      ]);
    }
  });
  test('a close of one shipment is said in the singular, in en and cs', () => {
    const r = close([stored({ recipient: { ...address, surname: 'REJECT' } })]);
    expect(!r.ok && r.message).toEqual({ en: 'The carrier rejected the shipment.', cs: 'Dopravce zásilku odmítl.' });
  });
  test('recipient postal code 00000', () => {
    const r = close([
      stored({ recipient: { ...address, address: { street: 'X 1', city: 'Y', postalCode: '00000', state: 'CZ' } } }),
    ]);
    expect(!r.ok && r.errors[0]!.field).toBe('[0].recipient.address.postalCode');
  });
  test('a pick-up point of all nines is closed', () => {
    const r = close([
      stored({
        agent: 'BOX',
        deliveryType: 'BOX-LOCKER',
        packages: [{ weight: 1, length: 10, width: 10, height: 10 }],
        recipient: { type: 'pickUpPlace', pickUpPlace: 'BOX-9999', surname: 'X', phone: '603456789' },
      }),
    ]);
    expect(!r.ok && r.errors[0]!.message.en).toBe('BoxPoint: pick-up point BOX-9999 is closed.');
  });
  test('the carrierReject test control rejects every shipment', () => {
    const r = close([stored()], NOW, { forceCarrierReject: true });
    expect(!r.ok && r.errors[0]!.field).toBe('[0].deliveryId');
  });
});
