/**
 * zod schemas of the service's answers, written from the spec. Lenient where the spec says types
 * are informative (numbers as strings, decimal comma, empty arguments as []), strict where a
 * misreading would do harm: ids are positive integers and states are the spec's state ids.
 * These schemas ARE the station's model of the service's answers: the types the client returns
 * (Delivery, Transport, ...) are their outputs (types.ts), so the two cannot drift.
 */
import { z } from 'zod';
import { toDecimal, toInteger } from '../../shared/decimal';
import { DELIVERY_STATES, type DeliveryState, type ExtraService } from './types';

const id = z.number().int().positive();

const decimal = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const d = toDecimal(v);
  if (d === null) {
    ctx.addIssue({ code: 'custom', message: `not a decimal number: ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return d;
});

/** Optional decimal: absent, null or "" is null. */
const decimalOrNull = z.union([z.number(), z.string(), z.null(), z.undefined()]).transform((v, ctx) => {
  if (v === null || v === undefined || v === '') return null;
  const d = toDecimal(v);
  if (d === null) {
    ctx.addIssue({ code: 'custom', message: `not a decimal number: ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return d;
});

/** Optional integer (dimensions, source): absent, null or "" is null; "12" is 12. */
const intOrNull = z.union([z.number(), z.string(), z.null(), z.undefined()]).transform((v, ctx) => {
  if (v === null || v === undefined || v === '') return null;
  const n = toInteger(v);
  if (n === null) {
    ctx.addIssue({ code: 'custom', message: `not an integer: ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return n;
});

/** Text that may come as a number (phone, variable symbol, postal code). */
const text = z.union([z.string(), z.number()]).transform(String);
const textOrNull = z
  .union([z.string(), z.number(), z.null(), z.undefined()])
  .transform((v) => (v === null || v === undefined ? null : String(v)));

const bool = z
  .union([z.boolean(), z.number(), z.string(), z.null()])
  .transform((v) => v === true || v === 1 || v === '1' || v === 'true');

const deliveryState = z
  .number()
  .int()
  .refine((n): n is DeliveryState => (DELIVERY_STATES as readonly number[]).includes(n), {
    message: 'unknown delivery state',
  })
  .transform((n) => n);

const extraService = z.object({
  code: text,
  // "Empty arguments in JSON are an empty array" (spec "Delivery: response fields").
  arguments: z
    .union([z.array(z.unknown()), z.record(z.string(), z.unknown()), z.null(), z.undefined()])
    .transform((a): Record<string, string> | undefined => {
      if (!a || Array.isArray(a)) return undefined;
      return Object.fromEntries(
        Object.entries(a).map(([k, v]) => [
          k,
          v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v),
        ]),
      );
    }),
});

const extraServices = z
  .array(extraService)
  .nullish()
  .transform((list): ExtraService[] =>
    (list ?? []).map((s) => (s.arguments ? { code: s.code, arguments: s.arguments } : { code: s.code })),
  );

const partyType = z.enum(['address', 'collectionPlace', 'pickUpPlace']);

const addressFields = z.object({
  street: textOrNull.optional(),
  streetNumber: textOrNull.optional(),
  city: textOrNull.optional(),
  postalCode: textOrNull.optional(),
  state: textOrNull.optional(),
});

const address = addressFields.transform(
  (a) =>
    Object.fromEntries(Object.entries(a).filter(([, v]) => v !== null && v !== undefined)) as Partial<
      Record<'street' | 'streetNumber' | 'city' | 'postalCode' | 'state', string>
    >,
);

const partyFields = z.object({
  type: partyType.optional(),
  address: z
    .union([address, z.null(), z.array(z.never())])
    .optional()
    .transform((a) => (a && !Array.isArray(a) ? a : undefined)),
  collectionPlace: textOrNull.optional(),
  pickUpPlace: textOrNull.optional(),
  firstname: textOrNull.optional(),
  surname: textOrNull.optional(),
  contactPerson: textOrNull.optional(),
  email: textOrNull.optional(),
  phone: textOrNull.optional(),
  name: textOrNull.optional(),
  street: textOrNull.optional(),
  city: textOrNull.optional(),
  postalCode: textOrNull.optional(),
  state: textOrNull.optional(),
});
type PartyFields = z.output<typeof partyFields>;
/**
 * A party as the service returns it: after creation a collection place is expanded (its name,
 * street, ...), after closing it is reduced (spec "Delivery: response fields", observed). Keys the
 * answer left out are absent; a null place reference is dropped.
 */
type PartyOut = Omit<PartyFields, 'address' | 'collectionPlace' | 'pickUpPlace'> & {
  address?: NonNullable<PartyFields['address']>;
  collectionPlace?: string;
  pickUpPlace?: string;
};
const party = partyFields.transform((p): PartyOut => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p))
    if (v !== undefined && !(v === null && (k === 'collectionPlace' || k === 'pickUpPlace'))) out[k] = v;
  return out;
});

const pkg = z.object({
  weight: decimal,
  length: intOrNull,
  width: intOrNull,
  height: intOrNull,
  barcode: textOrNull,
});

const deliveryShape = {
  deliveryId: id,
  deliveryNumber: textOrNull,
  deliveryState: deliveryState,
  deliveryStateName: z.string(),
  source: intOrNull,
  sourceName: textOrNull,
  created: z.string(),
  closed: textOrNull.transform((v) => (v === '' ? null : v)),
  agent: text,
  deliveryType: text,
  value: decimal,
  valueCurrency: z.string(),
  cod: decimalOrNull,
  codCurrency: textOrNull.transform((v) => (v === '' ? null : v)),
  variableSymbol: textOrNull,
  externalId: textOrNull,
  ticketNote: textOrNull,
  extraServices,
  packages: z.array(pkg),
  recipient: party,
  sender: party,
};

export const delivery = z.object(deliveryShape);

/**
 * The delivery's objects, innermost first. zod compiles an object's checks into a function the
 * first time it parses an object, and each nested object compiles at its own first parse: the
 * first shipment read after a start compiled all five in one turn (10-20 ms, the longest block of
 * a first sync). Parsing `{}` compiles an object's checks as well (it fails at once, before any
 * field's schema runs): the client does so one object a turn before its first list of deliveries
 * (client.ts warmUp).
 */
export const deliveryObjects: readonly z.ZodType[] = [pkg, addressFields, extraService, partyFields, delivery];
/** A search with `fields`: only the requested keys, each still checked. */
export const deliveryPart = z.object(deliveryShape).partial();

/** Envelope of every response (spec "Common conventions" 2). */
export const envelope = z.object({
  code: z.union([z.number(), z.string()]).optional(),
  status: z.string().optional(),
  message: z.unknown().optional(),
  data: z.unknown().optional(),
  errors: z.unknown().optional(),
});

export const collectionOrder = z.object({ agent: text, scheduled: z.string(), collectionPlace: text });

export const closeData = z.object({
  collectionOrders: z
    .array(collectionOrder)
    .nullish()
    .transform((v) => v ?? []),
  deliveries: z.array(delivery),
});

const dateOrNull = z.union([z.string(), z.null(), z.undefined()]).transform((v) => (v ? v : null));

const transport = z.object({
  agent: z.object({ code: text, name: text }),
  deliveryType: z.object({
    code: text,
    name: text,
    phoneRequired: bool.optional().transform((v) => v ?? false),
    dimensionsRequired: bool.optional().transform((v) => v ?? false),
  }),
  deliveryTime: z
    .object({
      pickUpFrom: dateOrNull,
      pickUpTo: dateOrNull,
      minDeliveryFrom: dateOrNull,
      minDeliveryTo: dateOrNull,
      maxDeliveryFrom: dateOrNull,
      maxDeliveryTo: dateOrNull,
    })
    .nullish()
    .transform(
      (v) =>
        v ?? {
          pickUpFrom: null,
          pickUpTo: null,
          minDeliveryFrom: null,
          minDeliveryTo: null,
          maxDeliveryFrom: null,
          maxDeliveryTo: null,
        },
    ),
  insurance: z
    .object({ description: textOrNull.transform((v) => v ?? '') })
    .nullish()
    .transform((v) => v ?? null),
  extraServices: z
    .array(
      z.object({
        code: text,
        name: textOrNull.transform((v) => v ?? ''),
        description: textOrNull.transform((v) => v ?? ''),
        implicit: bool.optional().transform((v) => v ?? false),
        bans: z
          .array(text)
          .nullish()
          .transform((v) => v ?? []),
        arguments: z
          .array(
            z.object({
              name: textOrNull.transform((v) => v ?? ''),
              identifier: text,
              example: textOrNull.transform((v) => v ?? ''),
            }),
          )
          .nullish()
          .transform((v) => v ?? []),
        price: z
          .object({ total: decimal, currency: z.string() })
          .nullish()
          .transform((v) => v ?? null),
      }),
    )
    .nullish()
    .transform((v) => v ?? []),
  price: z
    .object({
      base: decimalOrNull,
      total: decimal,
      currency: z.string(),
      fees: z
        .array(z.object({ categoryName: textOrNull.transform((v) => v ?? ''), category: intOrNull, fee: decimal }))
        .nullish()
        .transform((v) => v ?? []),
    })
    .nullish()
    .transform((v) => v ?? null),
});

export const transportResults = z.array(
  z.object({ delivery: z.number().int().nonnegative(), transports: z.array(transport) }),
);

/** MIME base64 (spec "Common conventions" 8): may contain line breaks. */
export const base64Pdf = z.string().transform((s, ctx) => {
  const clean = s.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) {
    ctx.addIssue({ code: 'custom', message: 'not base64' });
    return z.NEVER;
  }
  return Buffer.from(clean, 'base64');
});

const ticket = z.object({ created: dateOrNull, size: intOrNull.optional(), contents: base64Pdf });
/** "PDF labels (one item in data)": accepted as an object or an array of them. */
export const tickets = z.union([ticket, z.array(ticket)]).transform((t) => (Array.isArray(t) ? t : [t]));

export const zplItems = z.array(z.object({ deliveryId: id, zplCodes: z.array(z.string()) }));

export const traceItems = z.array(
  z.object({
    deliveryId: id,
    lastChecked: dateOrNull,
    traces: z
      .array(z.object({ date: z.string(), text: text }))
      .nullish()
      .transform((v) => v ?? []),
  }),
);

export const collectionProtocol = z.object({
  collectionProtocolId: id,
  agent: text,
  collectionPlace: text,
  protocol: base64Pdf,
  created: z.string(),
  deliveries: z.array(id),
});

export const collectionPlaces = z.array(
  z.object({
    // A place without its id cannot be chosen or matched: the whole answer is refused.
    identificator: text.refine((s) => s.trim() !== '', { message: 'a collection place without an identificator' }),
    name: text,
    email: textOrNull,
    phone: textOrNull,
    contactPerson: textOrNull,
    state: text,
    city: text,
    street: text,
    postalCode: text,
  }),
);

/** Token endpoint answer (spec "Flow" 6). */
export const tokenResponse = z.object({
  access_token: z.string().min(1),
  expires_in: z.union([z.number(), z.string()]).transform((v) => toInteger(v) ?? 3600),
  token_type: z.string().optional(),
  scope: z.string().optional(),
  refresh_token: z.string().min(1).optional(),
});
