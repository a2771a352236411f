/**
 * Turns one delivery record of the service (spec "Delivery: response fields") into the station's
 * cached shipment. Lenient where the spec says types are informative (numbers as strings, decimal
 * comma, absent optional fields, `[]` for empty arguments); strict where it matters: a record
 * without a positive integer deliveryId or an integer deliveryState is refused, because storing
 * it would corrupt lookups and state decisions.
 */
import type { ShipmentParty, ShipmentPackage } from '../../shared/contract/shipments';
import type { ShipmentRecord } from '../store/shipmentsRepo';
import { toDecimalString } from './decimal';

export type DeliveryParseResult = { ok: true; record: ShipmentRecord } | { ok: false; message: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function str(v: unknown): string | null {
  if (typeof v === 'string') return v === '' ? null : v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

function int(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : NaN;
  return Number.isSafeInteger(n) ? n : null;
}

function party(v: unknown): ShipmentParty {
  const p = isObj(v) ? v : {};
  const a = isObj(p.address) ? p.address : null;
  // A collection-place sender may be shown expanded with its address fields at the top level.
  const flatAddress = !a && (p.street !== undefined || p.city !== undefined) ? p : null;
  const addr = a ?? flatAddress;
  return {
    type: str(p.type),
    collectionPlace: str(p.collectionPlace),
    pickUpPlace: str(p.pickUpPlace),
    name: str(p.name),
    firstname: str(p.firstname),
    surname: str(p.surname),
    contactPerson: str(p.contactPerson),
    email: str(p.email),
    phone: str(p.phone),
    address: addr
      ? {
          street: str(addr.street),
          streetNumber: str(addr.streetNumber),
          city: str(addr.city),
          postalCode: str(addr.postalCode),
          state: str(addr.state),
        }
      : null,
  };
}

function packages(v: unknown): ShipmentPackage[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isObj).map((p) => ({
    barcode: str(p.barcode),
    weight: toDecimalString(p.weight),
    length: int(p.length),
    width: int(p.width),
    height: int(p.height),
  }));
}

function extraServices(v: unknown): ShipmentRecord['extraServices'] {
  if (!Array.isArray(v)) return [];
  return v.filter(isObj).flatMap((s) => {
    const code = str(s.code);
    if (!code) return [];
    const args: Record<string, string> = {};
    if (isObj(s.arguments)) for (const [k, val] of Object.entries(s.arguments)) args[k] = str(val) ?? '';
    return [{ code, arguments: args }];
  });
}

export function shipmentFromDelivery(raw: unknown, etag?: string | null): DeliveryParseResult {
  if (!isObj(raw)) return { ok: false, message: 'A delivery record is not an object.' };
  const deliveryId = int(raw.deliveryId);
  if (deliveryId === null || deliveryId <= 0) return { ok: false, message: `A delivery record has no valid deliveryId (${JSON.stringify(raw.deliveryId)}).` };
  const state = int(raw.deliveryState);
  if (state === null) return { ok: false, message: `Delivery ${deliveryId} has no valid deliveryState (${JSON.stringify(raw.deliveryState)}).` };
  const sender = party(raw.sender);
  const record: ShipmentRecord = {
    deliveryId,
    externalId: str(raw.externalId),
    deliveryNumber: str(raw.deliveryNumber),
    state,
    stateName: str(raw.deliveryStateName),
    agent: str(raw.agent),
    deliveryType: str(raw.deliveryType),
    collectionPlace: sender.collectionPlace,
    recipient: party(raw.recipient),
    sender,
    value: toDecimalString(raw.value),
    valueCurrency: str(raw.valueCurrency),
    cod: toDecimalString(raw.cod),
    codCurrency: str(raw.codCurrency),
    variableSymbol: str(raw.variableSymbol),
    ticketNote: str(raw.ticketNote),
    packages: packages(raw.packages),
    extraServices: extraServices(raw.extraServices),
    source: int(raw.source),
    sourceName: str(raw.sourceName),
    created: str(raw.created),
    closed: str(raw.closed),
  };
  if (etag !== undefined) record.etag = etag;
  return { ok: true, record };
}
