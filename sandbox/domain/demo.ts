/**
 * The demo seed: collection places (active and inactive, with and without
 * collection types) and insert items covering every carrier, party type, implicit-service and
 * magic-value case the station meets. Every item passes `validateDeliveries` with `demoPlaces()`
 * (a unit test proves it). Item order is stable: ORD-1001 is item 0, and so on.
 */
import type { CollectionPlaceRecord } from './types';

export function demoPlaces(): CollectionPlaceRecord[] {
  return [
    {
      identificator: 'WH-PRAHA',
      name: 'Demo Shop s.r.o. - sklad Praha',
      email: 'sklad.praha@example.cz',
      phone: '+420 222 111 000',
      contactPerson: 'Petr Svoboda',
      state: 'CZ',
      city: 'Praha 10',
      street: 'Průmyslová 1472/11',
      postalCode: '10200',
      active: true,
      // ShopPoint does not distinguish collection shipments, so no type for SHP anywhere.
      collectionTypes: { NP: 'svoz', PPR: 'pickup', RGX: 'pickup', BOX: 'courier', CCR: 'courier' },
    },
    {
      identificator: 'WH-BRNO',
      name: 'Demo Shop s.r.o. - sklad Brno',
      email: 'sklad.brno@example.cz',
      phone: '+420 533 000 111',
      contactPerson: 'Lucie Dvořáková',
      state: 'CZ',
      city: 'Brno',
      street: 'Vídeňská 55',
      postalCode: '63900',
      active: true,
      collectionTypes: { PPR: 'pickup', RGX: 'pickup' },
    },
    {
      identificator: 'SHOP-OSTRAVA',
      name: 'Demo Shop - prodejna Ostrava',
      email: 'ostrava@example.cz',
      phone: '+420 596 000 222',
      contactPerson: 'Tomáš Král',
      state: 'CZ',
      city: 'Ostrava',
      street: 'Nádražní 12',
      postalCode: '70200',
      active: true,
      // No collection type: behaves like an ordinary address (spec "Party type rules" 5).
      collectionTypes: {},
    },
    {
      identificator: 'OLD-PLZEN',
      name: 'Demo Shop - bývalý sklad Plzeň',
      email: 'plzen@example.cz',
      phone: '+420 377 000 333',
      contactPerson: 'Jana Malá',
      state: 'CZ',
      city: 'Plzeň',
      street: 'Skladová 3',
      postalCode: '32600',
      active: false,
      collectionTypes: { NP: 'svoz' },
    },
  ];
}

const fromPlace = (id: string) => ({ type: 'collectionPlace', collectionPlace: id });

function person(surname: string, firstname: string | undefined, extra: Record<string, unknown> = {}) {
  return {
    type: 'address',
    ...(firstname ? { firstname } : {}),
    surname,
    email: `${(firstname ?? surname)
      .toLowerCase()
      .normalize('NFD')
      .replace(/[^a-z]/g, '')}@example.cz`,
    phone: '+420 601 234 567',
    address: { street: 'Dlouhá 12', city: 'Praha 1', postalCode: '11000', state: 'CZ' },
    ...extra,
  };
}

const pkg = (weight: number | string, dims?: [number, number, number]) =>
  dims ? { weight, length: dims[0], width: dims[1], height: dims[2] } : { weight };

export function demoDeliveries(): unknown[] {
  const base = { value: 1500, valueCurrency: 'CZK' };
  const items: Array<Record<string, unknown>> = [
    // NP, collection shipment, e-mail advice.
    {
      ...base,
      agent: 'NP',
      deliveryType: 'NP-DOOR',
      sender: fromPlace('WH-PRAHA'),
      recipient: person('Nováková', 'Jana'),
      packages: [pkg(2.3)],
      extraServices: [{ code: 'email_advice_unload', arguments: { email: 'jana@example.cz' } }],
      ticketNote: 'Křehké',
    },
    // NP, three packages, cash on delivery.
    {
      ...base,
      value: 4200.5,
      agent: 'NP',
      deliveryType: 'NP-DOOR',
      sender: fromPlace('WH-PRAHA'),
      recipient: person('Procházka', 'Karel'),
      packages: [pkg('1,5'), pkg(4), pkg(7.25)],
      cod: 4200.5,
      codCurrency: 'CZK',
      variableSymbol: '20241002',
    },
    // NP to a post office (pick-up place).
    {
      ...base,
      agent: 'NP',
      deliveryType: 'NP-POST',
      sender: fromPlace('WH-PRAHA'),
      recipient: {
        type: 'pickUpPlace',
        pickUpPlace: '11000',
        firstname: 'Eva',
        surname: 'Černá',
        phone: '+420 602 345 678',
      },
      packages: [pkg(1.2)],
      extraServices: [{ code: 'sms_advice_unload', arguments: { phone: '+420 602 345 678' } }],
    },
    // PPR business parcel with COD and guaranteed delivery.
    {
      ...base,
      agent: 'PPR',
      deliveryType: 'PPR-BUSINESS',
      sender: fromPlace('WH-PRAHA'),
      recipient: person('ACME a.s.', undefined, { contactPerson: 'Pavel Horák' }),
      packages: [pkg(12)],
      cod: 999,
      codCurrency: 'CZK',
      variableSymbol: '1004',
      extraServices: [{ code: 'guaranteed_24' }],
    },
    // PPR private parcel: dimensions and phone required.
    {
      ...base,
      agent: 'PPR',
      deliveryType: 'PPR-PRIVATE',
      sender: fromPlace('WH-BRNO'),
      recipient: person('Veselý', 'Martin'),
      packages: [pkg(3.4, [40, 30, 20])],
      extraServices: [{ code: 'sms_service' }],
    },
    // PPR back shipment: customer's address -> our collection place (back_delivery implied).
    {
      ...base,
      value: 800,
      agent: 'PPR',
      deliveryType: 'PPR-BUSINESS',
      sender: person('Marková', 'Alena'),
      recipient: fromPlace('WH-PRAHA'),
      packages: [pkg(2)],
      ticketNote: 'Reklamace',
    },
    // PPR direct shipment: address -> address (direct_delivery implied).
    {
      ...base,
      agent: 'PPR',
      deliveryType: 'PPR-BUSINESS',
      sender: person('Demo Shop s.r.o.', undefined, { contactPerson: 'Petr Svoboda' }),
      recipient: person('Kučerová', 'Hana', {
        address: { street: 'Hlavní', streetNumber: '5', city: 'Olomouc', postalCode: '77900', state: 'CZ' },
      }),
      packages: [pkg(5)],
    },
    // RGX regional parcel from Brno with addressee-only.
    {
      ...base,
      agent: 'RGX',
      deliveryType: 'RGX-STD',
      sender: fromPlace('WH-BRNO'),
      recipient: person('Pokorný', 'Jiří', {
        address: { street: 'Masarykova 20', city: 'Zlín', postalCode: '76001', state: 'CZ' },
      }),
      packages: [pkg(8, [60, 40, 40])],
      extraServices: [{ code: 'addressee_only' }],
    },
    // RGX from a place without a collection type: behaves like an address -> direct_delivery.
    {
      ...base,
      agent: 'RGX',
      deliveryType: 'RGX-STD',
      sender: fromPlace('SHOP-OSTRAVA'),
      recipient: person('Němec', 'Ondřej'),
      packages: [pkg(4, [30, 30, 30])],
    },
    // BOX parcel locker with COD.
    {
      ...base,
      agent: 'BOX',
      deliveryType: 'BOX-LOCKER',
      sender: fromPlace('WH-PRAHA'),
      recipient: {
        type: 'pickUpPlace',
        pickUpPlace: 'BOX-1234',
        firstname: 'Tereza',
        surname: 'Benešová',
        phone: '+420603456789',
        email: 'tereza@example.cz',
      },
      packages: [pkg(1.8, [35, 25, 10])],
      cod: 650,
      codCurrency: 'CZK',
      variableSymbol: '1010',
    },
    // BOX home delivery.
    {
      ...base,
      agent: 'BOX',
      deliveryType: 'BOX-HOME',
      sender: fromPlace('WH-PRAHA'),
      recipient: person('Fiala', 'Roman'),
      packages: [pkg(9.5)],
    },
    // SHP pick-up point (no collection distinction: nothing implied).
    {
      ...base,
      agent: 'SHP',
      deliveryType: 'SHP-POINT',
      sender: fromPlace('WH-PRAHA'),
      recipient: {
        type: 'pickUpPlace',
        pickUpPlace: 'SHP-0042',
        surname: 'Zelenková',
        firstname: 'Monika',
        phone: '+420 604 567 890',
      },
      packages: [pkg(0.75)],
      extraServices: [{ code: 'email_advice_unload', arguments: { email: 'monika@example.cz' } }],
    },
    // SHP home delivery from an address: still nothing implied (no direct service at SHP).
    {
      ...base,
      agent: 'SHP',
      deliveryType: 'SHP-HOME',
      sender: person('Demo Shop s.r.o.', undefined),
      recipient: person('Růžička', 'David'),
      packages: [pkg(2.2)],
    },
    // CCR same-day courier (no ZPL, unpaid).
    {
      ...base,
      agent: 'CCR',
      deliveryType: 'CCR-SAMEDAY',
      sender: fromPlace('WH-PRAHA'),
      recipient: person('Sýkora', 'Filip'),
      packages: [pkg(6, [50, 40, 30])],
    },
    // Magic: the carrier rejects the close (recipient surname REJECT).
    {
      ...base,
      agent: 'NP',
      deliveryType: 'NP-DOOR',
      sender: fromPlace('WH-PRAHA'),
      recipient: person('REJECT', 'Test'),
      packages: [pkg(1)],
    },
    // Magic: the carrier rejects the close (postal code 00000).
    {
      ...base,
      agent: 'PPR',
      deliveryType: 'PPR-BUSINESS',
      sender: fromPlace('WH-PRAHA'),
      recipient: person('Testová', 'Adresa', {
        address: { street: 'Neznámá 1', city: 'Nikde', postalCode: '00000', state: 'CZ' },
      }),
      packages: [pkg(1)],
    },
    // Magic: the pick-up point is closed (BOX-9999).
    {
      ...base,
      agent: 'BOX',
      deliveryType: 'BOX-LOCKER',
      sender: fromPlace('WH-PRAHA'),
      recipient: { type: 'pickUpPlace', pickUpPlace: 'BOX-9999', surname: 'Zavřený', phone: '+420605678901' },
      packages: [pkg(1, [20, 20, 20])],
    },
    // Magic: the parcel comes back (recipient surname RETURN).
    {
      ...base,
      agent: 'RGX',
      deliveryType: 'RGX-STD',
      sender: fromPlace('WH-BRNO'),
      recipient: person('RETURN', 'Test'),
      packages: [pkg(2, [20, 20, 20])],
    },
    // NP abroad (Slovakia) on a chosen day, EUR value.
    {
      value: 120,
      valueCurrency: 'EUR',
      agent: 'NP',
      deliveryType: 'NP-DOOR',
      sender: fromPlace('WH-PRAHA'),
      recipient: person('Kováčová', 'Zuzana', {
        address: { street: 'Obchodná 7', city: 'Bratislava', postalCode: '81106', state: 'SK' },
      }),
      packages: [pkg(3)],
      extraServices: [{ code: 'day_definite', arguments: { date: '2030-06-03' } }],
    },
  ];
  return items.map((item, i) => ({ ...item, externalId: `ORD-${1001 + i}` }));
}
