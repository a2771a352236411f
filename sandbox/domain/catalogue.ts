/**
 * The sandbox's carrier catalogue. The spec leaves the lists of carrier codes, delivery type
 * codes and extra service codes "not shown" (spec "Delivery: request fields"); this is the
 * sandbox's concrete, invented choice (names are fictional, not real companies). Documented for
 * people in sandbox/domain/README.md — keep both in step.
 *
 * | Code | Name           | Kind (spec "GET .../zpl")       | ZPL sizes (default)   | Collection distinction | Prices  |
 * |------|----------------|----------------------------------|-----------------------|------------------------|---------|
 * | NP   | National Post  | national postal operator         | 10x17 (10x17)         | yes                    | paid    |
 * | PPR  | ParcelPro      | parcel courier                   | 10x5, 10x17 (10x5)    | yes                    | paid    |
 * | RGX  | RegioExpress   | regional courier                 | 10x15 (10x15)         | yes                    | paid    |
 * | BOX  | BoxPoint       | pick-up-point operator (lockers) | 10x17 (10x17)         | yes                    | paid    |
 * | SHP  | ShopPoint      | pick-up-point operator (shops)   | 10x17 (10x17)         | NO: no back/direct     | paid    |
 * | CCR  | CityCourier    | same-day city courier            | none (PDF only)       | yes                    | unpaid (contract prices: no `price`) |
 *
 * Implicit services (spec "Party type rules" 4-5) are applied in parties.ts. Prices are in
 * haléře (CZK minor units); `priceMinor: null` means an unpaid service (no `price` element).
 */
import type { Msg } from '../i18n';
import type { Catalogue, CarrierDef, DeliveryTypeDef, ExtraServiceDef, MagicValue } from './types';

const m = (en: string, cs: string): Msg => ({ en, cs });

/** Extra services as the station meets them; carriers pick codes and set their own prices. */
const SERVICES: Record<string, Omit<ExtraServiceDef, 'priceMinor'>> = {
  email_advice_unload: {
    code: 'email_advice_unload',
    name: m('E-mail advice of delivery', 'E-mailové avízo doručení'),
    description: m('The recipient gets an e-mail on the day of delivery.', 'Příjemce dostane v den doručení e-mail.'),
    arguments: [
      { name: m('E-mail', 'E-mail'), identifier: 'email', example: 'jana.novakova@example.cz', kind: 'email' },
    ],
    bans: [],
    implicitOnly: false,
  },
  sms_advice_unload: {
    code: 'sms_advice_unload',
    name: m('SMS advice of delivery', 'SMS avízo doručení'),
    description: m('The recipient gets a text message on the day of delivery.', 'Příjemce dostane v den doručení SMS.'),
    arguments: [{ name: m('Phone', 'Telefon'), identifier: 'phone', example: '+420601234567', kind: 'phone' }],
    bans: [],
    implicitOnly: false,
  },
  cod: {
    code: 'cod',
    name: m('Cash on delivery', 'Dobírka'),
    description: m(
      'The carrier collects the cod amount from the recipient. Added automatically when cod is given.',
      'Dopravce vybere od příjemce částku dobírky. Přidává se automaticky, je-li zadána dobírka.',
    ),
    arguments: [],
    bans: ['back_delivery'],
    implicitOnly: true,
  },
  direct_delivery: {
    code: 'direct_delivery',
    name: m('Direct shipment', 'Přímá zásilka'),
    description: m(
      'Transport between two addresses outside your collection place. Added automatically when sender and recipient are addresses.',
      'Přeprava mezi dvěma adresami mimo vaše svozové místo. Přidává se automaticky, jsou-li odesílatel i příjemce adresy.',
    ),
    arguments: [],
    bans: ['back_delivery'],
    implicitOnly: true,
  },
  back_delivery: {
    code: 'back_delivery',
    name: m('Back shipment', 'Zpětná zásilka'),
    description: m(
      'Transport from an address back to your collection place. Added automatically when the recipient is your collection place.',
      'Přeprava z adresy zpět na vaše svozové místo. Přidává se automaticky, je-li příjemcem vaše svozové místo.',
    ),
    arguments: [],
    bans: ['cod', 'direct_delivery'],
    implicitOnly: true,
  },
  guaranteed_24: {
    code: 'guaranteed_24',
    name: m('Guaranteed delivery within 24 hours', 'Garantované doručení do 24 hodin'),
    description: m(
      'Delivered within 24 hours of the pick-up or the price is refunded.',
      'Doručení do 24 hodin od svozu, jinak vrácení ceny.',
    ),
    arguments: [],
    bans: ['day_definite'],
    implicitOnly: false,
  },
  addressee_only: {
    code: 'addressee_only',
    name: m('Addressee only', 'Do vlastních rukou'),
    description: m(
      'Handed only to the recipient in person after an ID check.',
      'Předání pouze příjemci osobně po kontrole dokladu.',
    ),
    arguments: [],
    bans: [],
    implicitOnly: false,
  },
  day_definite: {
    code: 'day_definite',
    name: m('Delivery on a chosen day', 'Doručení v určený den'),
    description: m(
      'Delivered on the working day given in the argument.',
      'Doručení v pracovní den zadaný v argumentu.',
    ),
    arguments: [
      { name: m('Delivery date', 'Datum doručení'), identifier: 'date', example: '2024-06-03', kind: 'date' },
    ],
    bans: ['guaranteed_24'],
    implicitOnly: false,
  },
  sms_service: {
    code: 'sms_service',
    name: m('SMS notification', 'SMS notifikace'),
    description: m(
      "Text messages to the recipient's phone about the parcel's progress.",
      'SMS zprávy na telefon příjemce o průběhu přepravy.',
    ),
    arguments: [],
    bans: [],
    implicitOnly: false,
  },
};

/** A carrier's services: code -> price in haléře (null = unpaid). */
function services(prices: Record<string, number | null>): ExtraServiceDef[] {
  return Object.entries(prices).map(([code, priceMinor]) => {
    const base = SERVICES[code];
    if (!base) throw new Error(`catalogue: unknown service ${code}`);
    return { ...base, priceMinor };
  });
}

const kc = (crowns: number) => Math.round(crowns * 100);

function type(
  t: Omit<DeliveryTypeDef, 'pickUpPlace' | 'foreignSurchargeMinor' | 'timeWindows'> & Partial<DeliveryTypeDef>,
): DeliveryTypeDef {
  return { pickUpPlace: null, foreignSurchargeMinor: {}, timeWindows: true, ...t };
}

const NP: CarrierDef = {
  code: 'NP',
  name: 'National Post',
  zpl: { sizes: ['10x17'], default: '10x17' },
  distinguishesCollection: true,
  insurance: m('Insured up to 50,000 CZK of the declared value.', 'Pojištěno do 50 000 Kč deklarované hodnoty.'),
  numberFormat: 'UPU S10: "DR" + 8 digits + check digit + "CZ" (e.g. DR00000001 5CZ without the space)',
  volumetricDivisor: 6000,
  fuelSurchargePermille: 0,
  tollMinor: 0,
  unpaid: false,
  extraServices: services({
    email_advice_unload: null,
    sms_advice_unload: kc(3),
    cod: kc(35),
    direct_delivery: kc(15),
    back_delivery: kc(25),
    addressee_only: kc(30),
    day_definite: kc(40),
    guaranteed_24: kc(50),
  }),
  deliveryTypes: [
    type({
      code: 'NP-DOOR',
      name: m('Parcel to the door', 'Balík do ruky'),
      phoneRequired: false,
      dimensionsRequired: false,
      recipientTypes: ['address', 'collectionPlace'],
      countries: ['CZ', 'SK'],
      maxWeightGrams: 30_000,
      maxSideCm: 240,
      extraServices: [
        'email_advice_unload',
        'sms_advice_unload',
        'cod',
        'direct_delivery',
        'back_delivery',
        'addressee_only',
        'day_definite',
        'guaranteed_24',
      ],
      bands: [
        { upToGrams: 2_000, priceMinor: kc(119) },
        { upToGrams: 5_000, priceMinor: kc(139) },
        { upToGrams: 10_000, priceMinor: kc(169) },
        { upToGrams: 20_000, priceMinor: kc(219) },
        { upToGrams: 30_000, priceMinor: kc(289) },
      ],
      foreignSurchargeMinor: { SK: kc(150) },
      transitDays: { min: 1, max: 2 },
      timeWindows: false,
    }),
    type({
      code: 'NP-POST',
      name: m('Parcel to a post office', 'Balík na poštu'),
      phoneRequired: true,
      dimensionsRequired: false,
      recipientTypes: ['pickUpPlace'],
      countries: ['CZ'],
      maxWeightGrams: 20_000,
      maxSideCm: 150,
      pickUpPlace: { pattern: /^\d{5}$/, example: '11000' },
      extraServices: ['email_advice_unload', 'sms_advice_unload', 'cod', 'direct_delivery'],
      bands: [
        { upToGrams: 2_000, priceMinor: kc(99) },
        { upToGrams: 5_000, priceMinor: kc(115) },
        { upToGrams: 10_000, priceMinor: kc(135) },
        { upToGrams: 20_000, priceMinor: kc(175) },
      ],
      transitDays: { min: 1, max: 2 },
      timeWindows: false,
    }),
  ],
};

const PPR: CarrierDef = {
  code: 'PPR',
  name: 'ParcelPro',
  zpl: { sizes: ['10x5', '10x17'], default: '10x5' },
  distinguishesCollection: true,
  insurance: m('Insured up to 100,000 CZK of the declared value.', 'Pojištěno do 100 000 Kč deklarované hodnoty.'),
  numberFormat: '"40" + 9 digits (11 digits, e.g. 40000000001)',
  volumetricDivisor: 5000,
  fuelSurchargePermille: 125,
  tollMinor: kc(4.5),
  unpaid: false,
  extraServices: services({
    email_advice_unload: null,
    sms_advice_unload: null,
    cod: kc(29),
    direct_delivery: kc(19),
    back_delivery: kc(35),
    guaranteed_24: kc(60),
    sms_service: kc(5),
  }),
  deliveryTypes: [
    type({
      code: 'PPR-BUSINESS',
      name: m('Business parcel', 'Firemní balík'),
      phoneRequired: false,
      dimensionsRequired: false,
      recipientTypes: ['address', 'collectionPlace'],
      countries: ['CZ', 'SK', 'PL', 'DE'],
      maxWeightGrams: 31_500,
      maxSideCm: 200,
      extraServices: [
        'email_advice_unload',
        'sms_advice_unload',
        'cod',
        'direct_delivery',
        'back_delivery',
        'guaranteed_24',
      ],
      bands: [
        { upToGrams: 1_000, priceMinor: kc(89) },
        { upToGrams: 3_000, priceMinor: kc(99) },
        { upToGrams: 5_000, priceMinor: kc(109) },
        { upToGrams: 10_000, priceMinor: kc(129) },
        { upToGrams: 15_000, priceMinor: kc(149) },
        { upToGrams: 20_000, priceMinor: kc(169) },
        { upToGrams: 31_500, priceMinor: kc(229) },
      ],
      foreignSurchargeMinor: { SK: kc(120), PL: kc(180), DE: kc(250) },
      transitDays: { min: 1, max: 1 },
    }),
    type({
      code: 'PPR-PRIVATE',
      name: m('Private parcel', 'Soukromý balík'),
      phoneRequired: true,
      dimensionsRequired: true,
      recipientTypes: ['address'],
      countries: ['CZ', 'SK'],
      maxWeightGrams: 31_500,
      maxSideCm: 200,
      extraServices: ['email_advice_unload', 'sms_advice_unload', 'cod', 'direct_delivery', 'sms_service'],
      bands: [
        { upToGrams: 1_000, priceMinor: kc(99) },
        { upToGrams: 5_000, priceMinor: kc(119) },
        { upToGrams: 10_000, priceMinor: kc(139) },
        { upToGrams: 31_500, priceMinor: kc(199) },
      ],
      foreignSurchargeMinor: { SK: kc(120) },
      transitDays: { min: 1, max: 2 },
    }),
  ],
};

const RGX: CarrierDef = {
  code: 'RGX',
  name: 'RegioExpress',
  zpl: { sizes: ['10x15'], default: '10x15' },
  distinguishesCollection: true,
  insurance: m('Insured up to 30,000 CZK of the declared value.', 'Pojištěno do 30 000 Kč deklarované hodnoty.'),
  numberFormat: '"RGX" + 10 digits (e.g. RGX0000000001)',
  volumetricDivisor: 4000,
  fuelSurchargePermille: 80,
  tollMinor: kc(2),
  unpaid: false,
  extraServices: services({
    cod: kc(25),
    direct_delivery: kc(10),
    back_delivery: kc(20),
    addressee_only: kc(25),
    sms_service: null,
  }),
  deliveryTypes: [
    type({
      code: 'RGX-STD',
      name: m('Regional parcel', 'Regionální balík'),
      phoneRequired: true,
      dimensionsRequired: true,
      recipientTypes: ['address', 'collectionPlace'],
      countries: ['CZ'],
      maxWeightGrams: 50_000,
      maxSideCm: 300,
      extraServices: ['cod', 'direct_delivery', 'back_delivery', 'addressee_only', 'sms_service'],
      bands: [
        { upToGrams: 5_000, priceMinor: kc(79) },
        { upToGrams: 15_000, priceMinor: kc(99) },
        { upToGrams: 30_000, priceMinor: kc(139) },
        { upToGrams: 50_000, priceMinor: kc(199) },
      ],
      transitDays: { min: 1, max: 1 },
    }),
  ],
};

const BOX: CarrierDef = {
  code: 'BOX',
  name: 'BoxPoint',
  zpl: { sizes: ['10x17'], default: '10x17' },
  distinguishesCollection: true,
  insurance: m('Insured up to 20,000 CZK of the declared value.', 'Pojištěno do 20 000 Kč deklarované hodnoty.'),
  numberFormat: '"BP" + 10 digits (e.g. BP0000000001)',
  volumetricDivisor: 6000,
  fuelSurchargePermille: 50,
  tollMinor: 0,
  unpaid: false,
  extraServices: services({
    email_advice_unload: null,
    cod: kc(20),
    direct_delivery: kc(12),
    back_delivery: kc(18),
  }),
  deliveryTypes: [
    type({
      code: 'BOX-LOCKER',
      name: m('Parcel locker', 'Výdejní box'),
      phoneRequired: true,
      dimensionsRequired: true,
      recipientTypes: ['pickUpPlace'],
      countries: ['CZ', 'SK'],
      maxWeightGrams: 15_000,
      maxSideCm: 60,
      pickUpPlace: { pattern: /^BOX-\d{4}$/, example: 'BOX-1234' },
      extraServices: ['email_advice_unload', 'cod', 'direct_delivery'],
      bands: [
        { upToGrams: 5_000, priceMinor: kc(65) },
        { upToGrams: 15_000, priceMinor: kc(85) },
      ],
      transitDays: { min: 1, max: 2 },
    }),
    type({
      code: 'BOX-HOME',
      name: m('Home delivery', 'Doručení na adresu'),
      phoneRequired: true,
      dimensionsRequired: false,
      recipientTypes: ['address', 'collectionPlace'],
      countries: ['CZ'],
      maxWeightGrams: 30_000,
      maxSideCm: 150,
      extraServices: ['email_advice_unload', 'cod', 'direct_delivery', 'back_delivery'],
      bands: [
        { upToGrams: 5_000, priceMinor: kc(95) },
        { upToGrams: 30_000, priceMinor: kc(125) },
      ],
      transitDays: { min: 1, max: 2 },
    }),
  ],
};

const SHP: CarrierDef = {
  code: 'SHP',
  name: 'ShopPoint',
  zpl: { sizes: ['10x17'], default: '10x17' },
  // Parcels are handed in at any ShopPoint shop: no collection/non-collection distinction,
  // hence no back or direct shipment services at all (spec "Party type rules" 5).
  distinguishesCollection: false,
  insurance: m('Insured up to 10,000 CZK of the declared value.', 'Pojištěno do 10 000 Kč deklarované hodnoty.'),
  numberFormat: '"SP" + 9 digits (e.g. SP000000001)',
  volumetricDivisor: 6000,
  fuelSurchargePermille: 0,
  tollMinor: 0,
  unpaid: false,
  extraServices: services({
    email_advice_unload: null,
    sms_advice_unload: kc(2),
    cod: kc(18),
  }),
  deliveryTypes: [
    type({
      code: 'SHP-POINT',
      name: m('Pick-up point', 'Výdejní místo'),
      phoneRequired: true,
      dimensionsRequired: false,
      recipientTypes: ['pickUpPlace'],
      countries: ['CZ', 'SK'],
      maxWeightGrams: 10_000,
      maxSideCm: 70,
      pickUpPlace: { pattern: /^SHP-\d{4}$/, example: 'SHP-0042' },
      extraServices: ['email_advice_unload', 'sms_advice_unload', 'cod'],
      bands: [
        { upToGrams: 5_000, priceMinor: kc(59) },
        { upToGrams: 10_000, priceMinor: kc(79) },
      ],
      foreignSurchargeMinor: { SK: kc(40) },
      transitDays: { min: 1, max: 3 },
      timeWindows: false,
    }),
    type({
      code: 'SHP-HOME',
      name: m('Home delivery', 'Doručení domů'),
      phoneRequired: true,
      dimensionsRequired: false,
      recipientTypes: ['address'],
      countries: ['CZ'],
      maxWeightGrams: 10_000,
      maxSideCm: 70,
      extraServices: ['email_advice_unload', 'sms_advice_unload', 'cod'],
      bands: [{ upToGrams: 10_000, priceMinor: kc(99) }],
      transitDays: { min: 1, max: 3 },
      timeWindows: false,
    }),
  ],
};

const CCR: CarrierDef = {
  code: 'CCR',
  name: 'CityCourier',
  zpl: null, // PDF labels only: GET .../zpl answers 404 "ZPL label not found"
  distinguishesCollection: true,
  insurance: m(
    'Insured up to 5,000 CZK; more by separate contract.',
    'Pojištěno do 5 000 Kč; více dle zvláštní smlouvy.',
  ),
  numberFormat: '"CC" + 8 digits (e.g. CC00000001)',
  volumetricDivisor: 5000,
  fuelSurchargePermille: 0,
  tollMinor: 0,
  // Priced by the company's own contract with the courier: transport search shows no price.
  unpaid: true,
  extraServices: services({
    direct_delivery: null,
    back_delivery: null,
    addressee_only: null,
  }),
  deliveryTypes: [
    type({
      code: 'CCR-SAMEDAY',
      name: m('Same-day delivery', 'Doručení v den svozu'),
      phoneRequired: true,
      dimensionsRequired: true,
      recipientTypes: ['address', 'collectionPlace'],
      countries: ['CZ'],
      maxWeightGrams: 25_000,
      maxSideCm: 120,
      extraServices: ['direct_delivery', 'back_delivery', 'addressee_only'],
      bands: [{ upToGrams: 25_000, priceMinor: 0 }],
      transitDays: { min: 0, max: 0 },
    }),
  ],
};

/** Documented magic values (sandbox/domain/README.md "Magic values"). */
export const MAGIC = {
  rejectSurname: 'REJECT',
  rejectPostalCode: '00000',
  /** A pick-up place identifier whose digits are all 9 (99999, BOX-9999, SHP-9999) is closed. */
  closedPickUpPlace: /^(?:[A-Z]+-)?9{4,5}$/,
  returnSurname: 'RETURN',
} as const;

const magicValues: MagicValue[] = [
  {
    field: 'recipient.surname',
    value: MAGIC.rejectSurname,
    effect: m(
      'The carrier rejects the close (422): recipient refused by the carrier.',
      'Dopravce odmítne uzavření (422): příjemce dopravce odmítl.',
    ),
  },
  {
    field: 'recipient.address.postalCode',
    value: MAGIC.rejectPostalCode,
    effect: m(
      'The carrier rejects the close (422): unknown postal code.',
      'Dopravce odmítne uzavření (422): neznámé PSČ.',
    ),
  },
  {
    field: 'recipient.pickUpPlace',
    value: '99999 / BOX-9999 / SHP-9999',
    effect: m(
      'The carrier rejects the close (422): the pick-up point is closed.',
      'Dopravce odmítne uzavření (422): výdejní místo je zavřené.',
    ),
  },
  {
    field: 'recipient.surname',
    value: MAGIC.returnSurname,
    effect: m(
      'Closing succeeds; the parcel is later returned to the sender (state 4, or 6 from a pick-up point).',
      'Uzavření projde; zásilka se později vrátí odesílateli (stav 4, z výdejního místa 6).',
    ),
  },
];

export const catalogue: Catalogue = { carriers: [NP, PPR, RGX, BOX, SHP, CCR], magicValues };

export function carrierOf(code: string): CarrierDef | undefined {
  return catalogue.carriers.find((c) => c.code === code);
}

export function deliveryTypeOf(carrier: CarrierDef, code: string): DeliveryTypeDef | undefined {
  return carrier.deliveryTypes.find((t) => t.code === code);
}

export function serviceOf(carrier: CarrierDef, code: string): ExtraServiceDef | undefined {
  return carrier.extraServices.find((s) => s.code === code);
}
