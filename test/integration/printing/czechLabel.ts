/** A service label with Czech diacritics in every field it has. */
import type { LabelData } from '../../../sandbox/documents/index';

/** A label with Czech diacritics in every field it has (COD, note, pick-up place, contact). */
export function czechLabel(agent: { code: string; name: string }, barcode: string): LabelData {
  return {
    deliveryId: 4242,
    agent,
    deliveryNumber: 'ČÍSLO-42',
    packageIndex: 1,
    packageCount: 2,
    barcode,
    weight: '2.35',
    sender: { name: 'Žluťoučký kůň s.r.o.', lines: ['Dlouhá 12', '110 00 Praha 1', 'Česko'] },
    recipient: {
      name: 'Karel Černý',
      lines: ['Dlouhá 12', '602 00 Brno-střed', 'Česká republika'],
      contactPerson: 'Šárka Řeháčková',
      phone: '+420 777 123 456',
      pickUpPlace: 'Pošta Brno 2, Nádražní',
    },
    cod: { amount: '1234.50', currency: 'CZK' },
    ticketNote: 'Křehké – neházet, ďábelské ódy',
    created: new Date('2025-03-04T10:20:00Z'),
    deliveryTypeName: 'Doručení na adresu – ČR',
  };
}
