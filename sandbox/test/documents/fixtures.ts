/** Label and protocol data shaped like the sandbox's closed demo shipments. */
import type { LabelData } from '../../documents/labelData';
import type { ProtocolData } from '../../documents/protocolPdf';

export const created = new Date('2025-03-05T13:07:00Z');

export function label(overrides: Partial<LabelData> = {}): LabelData {
  return {
    deliveryId: 1001,
    agent: { code: 'CP', name: 'Národní pošta' },
    deliveryNumber: 'DR0012345678M',
    packageIndex: 1,
    packageCount: 1,
    barcode: 'DR0012345678M',
    weight: '2.35',
    sender: { name: 'Eshop Kolečko s.r.o.', lines: ['Skladová 12', '602 00 Brno', 'CZ'] },
    recipient: {
      name: 'Příliš žluťoučký kůň',
      contactPerson: 'Úpěl Ďábelské Ódy',
      lines: ['Šafaříkova 1273/18', '120 00 Praha 2 – Vinohrady', 'CZ'],
      phone: '+420 777 123 456',
    },
    created,
    deliveryTypeName: 'Balík Do ruky',
    ...overrides,
  };
}

/** `count` shipments of `packages` packages each, with distinct barcodes. */
export function shipmentLabels(count: number, packages = 1, base: Partial<LabelData> = {}): LabelData[] {
  const out: LabelData[] = [];
  for (let s = 0; s < count; s++) {
    const deliveryNumber = `DR${String(20000000 + s).padStart(10, '0')}M`;
    for (let p = 1; p <= packages; p++) {
      out.push(
        label({
          deliveryId: 2000 + s,
          deliveryNumber,
          barcode: packages === 1 ? deliveryNumber : `${deliveryNumber.slice(0, -1)}${p}M`,
          packageIndex: p,
          packageCount: packages,
          ...base,
        }),
      );
    }
  }
  return out;
}

export const codLabel = (): LabelData =>
  label({
    deliveryId: 1002,
    agent: { code: 'PPL', name: 'Rychlý kurýr' },
    deliveryNumber: '40512345678',
    barcode: '40512345678',
    packageIndex: 2,
    packageCount: 3,
    weight: '12,5',
    cod: { amount: '1234.5', currency: 'CZK' },
    ticketNote: 'Křehké! Nestohovat. Volat 30 minut předem, zvonek nefunguje – klepat na dveře ve dvoře vlevo.',
    recipient: {
      name: 'Jiří Dvořák',
      lines: ['Nádražní 3', '789 01 Zábřeh', 'CZ'],
      phone: '+420 603 000 111',
      pickUpPlace: 'Z-BOX Zábřeh, Hlavní 5',
    },
    deliveryTypeName: 'Kurýr s dobírkou',
  });

/** A protocol of `count` shipments; every third has 3 packages, every fourth has COD. */
export function protocol(count: number): ProtocolData {
  const rows: ProtocolData['rows'] = [];
  for (let s = 0; s < count; s++) {
    const deliveryNumber = `DR${String(30000000 + s).padStart(10, '0')}M`;
    const packages = s % 3 === 2 ? 3 : 1;
    rows.push({
      deliveryId: 3000 + s,
      deliveryNumber,
      recipientName: s % 2 ? 'Jiří Dvořák' : 'Příliš žluťoučký kůň s.r.o.',
      barcodes: Array.from({ length: packages }, (_, p) =>
        packages === 1 ? deliveryNumber : `${deliveryNumber.slice(0, -1)}${p + 1}M`,
      ),
      ...(s % 4 === 3 ? { cod: { amount: `${100 + s}.5`, currency: 'CZK' } } : {}),
    });
  }
  return {
    collectionProtocolId: 42,
    agent: { code: 'CP', name: 'Národní pošta' },
    collectionPlace: {
      identificator: 'BRNO-01',
      name: 'Sklad Brno – Líšeň',
      lines: ['Skladová 12', '628 00 Brno', 'CZ'],
    },
    created,
    rows,
  };
}
