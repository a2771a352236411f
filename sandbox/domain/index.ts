/**
 * The sandbox domain: pure functions over plain objects (no HTTP, no storage, time passed in).
 * Every message is a `Msg` ({en, cs}) from sandbox/i18n.ts; `DomainResult` failures default to
 * HTTP 422. Decimals (weights, money) are exact decimal strings in stored records and JS numbers
 * only in presented output. Timestamps are ISO 8601 with the Europe/Prague numeric offset.
 *
 * What the HTTP layer (sandbox/routes/) may rely on, with these precisions:
 * - `closeDeliveries` ctx.nextCarrierNumber(agent) returns a fresh serial for that carrier
 *   (decimal digits, e.g. "1", "2", ...; persisted by the service); the domain formats it into the
 *   carrier's shipment number. ctx.forceCarrierReject (optional) makes the carrier reject
 *   (the /_sandbox/faults `carrierReject` control).
 * - `searchTransports` and `trackingOf` take an optional language (default 'en') because their
 *   output holds carrier texts as plain strings.
 * - `advanceDelivery(d, now)` moves a closed shipment along (states 1 -> 2 -> 3/4/5/6) by the
 *   clock; the service calls it before presenting/searching so `deliveryState` is current.
 * - `presentPlace` gives the spec "Collection place" record (without sandbox-only fields).
 * - `replaceDelivery` / `cancelDelivery` take an optional ctx.index so their errors carry "[i]".
 * - `parseBoolean` reads `closed` of PATCH items ("1", "0", "", true, "true").
 * - DomainResult failures carry status 422 unless stated; `message` is the envelope message.
 * The catalogue, magic values and pricing are documented in sandbox/domain/README.md.
 */
export type * from './types';
export { validateDeliveries } from './validate';
export {
  createDelivery,
  replaceDelivery,
  cancelDelivery,
  presentDelivery,
  presentPlace,
  STATE_NAMES,
  STATE,
  DELIVERY_FIELDS,
} from './delivery';
export { parseSearch, FILTER_KEYS } from './search';
export type { SearchFilter } from './search';
export { closeDeliveries, formatCarrierNumber, packageBarcode } from './close';
export type { CloseContext } from './close';
export { catalogue, carrierOf, MAGIC } from './catalogue';
export { demoPlaces, demoDeliveries } from './demo';
export { searchTransports } from './transports';
export { trackingOf, advanceDelivery } from './tracking';
export { formatTimestamp } from './time';

import { INVALID, readBool } from './coerce';
/** Booleans of requests: true/false, 1/0, "1"/"0", "true"/"false", "" (false); null when unreadable or absent. */
export function parseBoolean(v: unknown): boolean | null {
  const b = readBool(v);
  return b === undefined || b === INVALID ? null : b;
}
