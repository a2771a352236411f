/**
 * Closed shipments made through the API (insert + PATCH close), for the label, ZPL and protocol
 * tests: each test gets fresh ones, so tests do not depend on each other's order.
 */
import { expect } from 'vitest';
import type { Sandbox } from '../index';
import { api } from './support';

const recipient = (surname: string) => ({
  type: 'address',
  firstname: 'Jana',
  surname,
  phone: '+420 601 234 567',
  address: { street: 'Dlouhá 12', city: 'Praha 1', postalCode: '11000', state: 'CZ' },
});

export const fromPlace = (collectionPlace: string) => ({ type: 'collectionPlace', collectionPlace });

/** Insert items per carrier; every one closes without a magic value. */
export const items = {
  NP: (packages = 2) => ({
    agent: 'NP',
    deliveryType: 'NP-DOOR',
    value: 1500,
    valueCurrency: 'CZK',
    cod: 1234.5,
    codCurrency: 'CZK',
    variableSymbol: '2024001',
    ticketNote: 'Křehké, nestohovat',
    sender: fromPlace('WH-PRAHA'),
    recipient: recipient('Nováková'),
    packages: Array.from({ length: packages }, (_, i) => ({ weight: i % 2 ? '1,5' : 2.3 })),
  }),
  PPR: (place = 'WH-PRAHA') => ({
    agent: 'PPR',
    deliveryType: 'PPR-BUSINESS',
    value: 800,
    valueCurrency: 'CZK',
    sender: fromPlace(place),
    recipient: recipient('Dvořák'),
    packages: [{ weight: 3 }],
  }),
  RGX: () => ({
    agent: 'RGX',
    deliveryType: 'RGX-STD',
    value: 500,
    valueCurrency: 'CZK',
    sender: fromPlace('WH-PRAHA'),
    recipient: recipient('Pokorný'),
    packages: [{ weight: 4, length: 30, width: 30, height: 30 }],
  }),
  BOX: () => ({
    agent: 'BOX',
    deliveryType: 'BOX-HOME',
    value: 700,
    valueCurrency: 'CZK',
    sender: fromPlace('WH-PRAHA'),
    recipient: recipient('Benešová'),
    packages: [{ weight: '1.8', length: 35, width: 25, height: 10 }],
  }),
  SHP: () => ({
    agent: 'SHP',
    deliveryType: 'SHP-HOME',
    value: 300,
    valueCurrency: 'CZK',
    sender: fromPlace('WH-PRAHA'),
    recipient: recipient('Zelenková'),
    packages: [{ weight: '0.75', length: 20, width: 15, height: 10 }],
  }),
  CCR: () => ({
    agent: 'CCR',
    deliveryType: 'CCR-SAMEDAY',
    value: 500,
    valueCurrency: 'CZK',
    sender: fromPlace('WH-PRAHA'),
    recipient: recipient('Sýkora'),
    packages: [{ weight: 6, length: 50, width: 40, height: 30 }],
  }),
  /** A back shipment: the customer's address -> our place (back_delivery implied). */
  PPRBack: () => ({
    agent: 'PPR',
    deliveryType: 'PPR-BUSINESS',
    value: 800,
    valueCurrency: 'CZK',
    sender: {
      type: 'address',
      firstname: 'Alena',
      surname: 'Marková',
      phone: '+420 777 000 111',
      address: { street: 'Nová 3', city: 'Brno', postalCode: '60200', state: 'CZ' },
    },
    recipient: fromPlace('WH-PRAHA'),
    packages: [{ weight: 2 }],
  }),
};

export interface Made {
  deliveryId: number;
  deliveryNumber: string;
  barcodes: string[];
}

export async function insert(sb: Sandbox, token: string, list: unknown[]): Promise<number[]> {
  const r = await api(sb, 'POST', '/api/v3/deliveries', { token, body: { deliveries: list } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data.map((d: { deliveryId: number }) => d.deliveryId);
}

/** Inserts and closes the items (one carrier, one place per call); returns numbers and barcodes. */
export async function closed(sb: Sandbox, token: string, list: unknown[]): Promise<Made[]> {
  const ids = await insert(sb, token, list);
  const r = await api(sb, 'PATCH', '/api/v3/deliveries', {
    token,
    body: { deliveries: ids.map((deliveryId) => ({ deliveryId, closed: true })) },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.deliveries.map(
    (d: { deliveryId: number; deliveryNumber: string; packages: { barcode: string }[] }) => ({
      deliveryId: d.deliveryId,
      deliveryNumber: d.deliveryNumber,
      barcodes: d.packages.map((p) => p.barcode),
    }),
  );
}

/** MIME base64 (spec "Common conventions" 8): lines of at most 76 characters separated by CRLF. */
export function expectMimeBase64(contents: string): Buffer {
  expect(typeof contents).toBe('string');
  const lines = contents.split('\r\n');
  expect(lines.length).toBeGreaterThan(1);
  for (const line of lines) expect(line).toMatch(/^[A-Za-z0-9+/=]{1,76}$/);
  expect(lines.slice(0, -1).every((l) => l.length === 76)).toBe(true);
  return Buffer.from(lines.join(''), 'base64');
}
