/**
 * Closing shipments (spec "PATCH /api/v3/deliveries", "States and transitions" 0 -> 1, rules of
 * the sequence 1, "Limits": one carrier and one collection place per close request).
 *
 * - Rules of closing, all checked and all reported (422): no shipment closed or cancelled; one
 *   carrier; one collection place (the sender's collection place; shipments sent from an
 *   address count as "no collection place", so they close only with other address senders).
 * - The carrier then checks the data: the magic values of sandbox/domain/README.md make it
 *   reject the whole request (422, the carrier's messages per shipment); nothing is closed.
 * - Each shipment gets its carrier number (format per carrier, from the service's serial), a
 *   barcode per package (carrier number + 3-digit package index: unique and Code-128-safe
 *   ASCII), `closed`, state 1, and the moment the carrier picks it up (`sentAt`: the next
 *   working day at 14:00 Prague time).
 * - A pick-up is ordered (collectionOrders) when the sender is a collection place with a
 *   collection type for the carrier: scheduled for the next working day.
 */
import type { Msg } from '../i18n';
import { MAGIC, carrierOf } from './catalogue';
import { STATE, STATE_NAMES } from './delivery';
import { hasCollectionType } from './parties';
import { atPragueTime, formatTimestamp, nextWorkingDay } from './time';
import type { CollectionOrder, CollectionPlaceRecord, DomainResult, FieldError, StoredDelivery } from './types';

const m = (en: string, cs: string): Msg => ({ en, cs });

/** Hour (Prague) at which carriers pick parcels up on the scheduled day. */
export const PICK_UP_HOUR = 14;

function serial(raw: string, width: number): string {
  const digits = raw.replace(/\D/g, '') || '0';
  return (BigInt(digits) % 10n ** BigInt(width)).toString().padStart(width, '0');
}

/** UPU S10 check digit for 8 serial digits. */
export function s10CheckDigit(eight: string): number {
  const weights = [8, 6, 4, 2, 3, 5, 9, 7];
  const sum = [...eight].reduce((acc, ch, i) => acc + Number(ch) * weights[i]!, 0);
  const check = 11 - (sum % 11);
  return check === 10 ? 0 : check === 11 ? 5 : check;
}

/** The carrier's shipment number for a serial (formats in sandbox/domain/README.md). */
export function formatCarrierNumber(agent: string, rawSerial: string): string {
  switch (agent) {
    case 'NP': {
      const s = serial(rawSerial, 8);
      return `DR${s}${s10CheckDigit(s)}CZ`;
    }
    case 'PPR':
      return `40${serial(rawSerial, 9)}`;
    case 'RGX':
      return `RGX${serial(rawSerial, 10)}`;
    case 'BOX':
      return `BP${serial(rawSerial, 10)}`;
    case 'SHP':
      return `SP${serial(rawSerial, 9)}`;
    default:
      return `${agent.slice(0, 2).toUpperCase()}${serial(rawSerial, 8)}`;
  }
}

export function packageBarcode(deliveryNumber: string, index: number): string {
  return `${deliveryNumber}${String(index + 1).padStart(3, '0')}`;
}

const same = (a: string | null | undefined, b: string) => (a ?? '').trim().toUpperCase() === b;

/** The carrier's own checks (documented magic values); each problem is a FieldError. */
export function carrierRejections(d: StoredDelivery, at: string): FieldError[] {
  const out: FieldError[] = [];
  const name = carrierOf(d.agent)?.name ?? d.agent;
  if (same(d.recipient.surname, MAGIC.rejectSurname)) {
    out.push({
      field: `${at}.recipient.surname`,
      value: d.recipient.surname,
      message: m(
        `${name}: the recipient was refused by the carrier (blocked addressee).`,
        `${name}: dopravce příjemce odmítl (blokovaný adresát).`,
      ),
    });
  }
  if (d.recipient.address && same(d.recipient.address.postalCode, MAGIC.rejectPostalCode)) {
    out.push({
      field: `${at}.recipient.address.postalCode`,
      value: d.recipient.address.postalCode,
      message: m(
        `${name}: postal code ${d.recipient.address.postalCode} does not exist.`,
        `${name}: PSČ ${d.recipient.address.postalCode} neexistuje.`,
      ),
    });
  }
  if (d.recipient.pickUpPlace && MAGIC.closedPickUpPlace.test(d.recipient.pickUpPlace)) {
    out.push({
      field: `${at}.recipient.pickUpPlace`,
      value: d.recipient.pickUpPlace,
      message: m(
        `${name}: pick-up point ${d.recipient.pickUpPlace} is closed.`,
        `${name}: výdejní místo ${d.recipient.pickUpPlace} je zavřené.`,
      ),
    });
  }
  return out;
}

export interface CloseContext {
  now: Date;
  places: CollectionPlaceRecord[];
  /** A fresh serial for the carrier (digits), persisted by the service. */
  nextCarrierNumber(agent: string): string;
  /** Test control: the carrier rejects every shipment of this request. */
  forceCarrierReject?: boolean;
}

export function closeDeliveries(
  ds: StoredDelivery[],
  ctx: CloseContext,
): DomainResult<{ closed: StoredDelivery[]; collectionOrders: CollectionOrder[] }> {
  if (ds.length === 0) {
    return {
      ok: false,
      status: 422,
      errors: [
        {
          field: 'deliveries',
          value: [],
          message: m('Give at least one shipment to close.', 'Zadejte alespoň jednu zásilku k uzavření.'),
        },
      ],
    };
  }
  const errors: FieldError[] = [];
  const first = ds[0]!;
  const placeKey = (d: StoredDelivery) => (d.sender.type === 'collectionPlace' ? d.sender.collectionPlace : null);
  ds.forEach((d, i) => {
    if (d.deliveryState === STATE.cancelled) {
      errors.push({
        field: `[${i}].deliveryId`,
        value: d.deliveryId,
        message: m(
          `Shipment ${d.deliveryId} is cancelled and cannot be closed.`,
          `Zásilku ${d.deliveryId} nelze uzavřít, je zrušená.`,
        ),
      });
    } else if (d.deliveryState !== STATE.prepared) {
      errors.push({
        field: `[${i}].deliveryId`,
        value: d.deliveryId,
        message: m(`Shipment ${d.deliveryId} is already closed.`, `Zásilka ${d.deliveryId} je už uzavřená.`),
      });
    }
    if (d.agent !== first.agent) {
      errors.push({
        field: `[${i}].agent`,
        value: d.agent,
        message: m(
          `All shipments of one close must have one carrier (${first.agent}, not ${d.agent}).`,
          `Všechny uzavírané zásilky musí mít jednoho dopravce (${first.agent}, ne ${d.agent}).`,
        ),
      });
    }
    if (placeKey(d) !== placeKey(first)) {
      const a = placeKey(first) ?? 'an address';
      const b = placeKey(d) ?? 'an address';
      errors.push({
        field: `[${i}].sender.collectionPlace`,
        value: placeKey(d),
        message: m(
          `All shipments of one close must share one collection place (${a}, not ${b}).`,
          `Všechny uzavírané zásilky musí mít jedno svozové místo (${placeKey(first) ?? 'adresa'}, ne ${placeKey(d) ?? 'adresa'}).`,
        ),
      });
    }
  });
  if (errors.length)
    return {
      ok: false,
      status: 422,
      message: m('The shipments cannot be closed together.', 'Zásilky nelze uzavřít společně.'),
      errors,
    };

  const rejected = ds.flatMap((d, i) =>
    ctx.forceCarrierReject
      ? [
          {
            field: `[${i}].deliveryId`,
            value: d.deliveryId,
            message: m(
              `${carrierOf(d.agent)?.name ?? d.agent}: the carrier's system refused the data (simulated failure).`,
              `${carrierOf(d.agent)?.name ?? d.agent}: systém dopravce data odmítl (simulovaná chyba).`,
            ),
          },
        ]
      : carrierRejections(d, `[${i}]`),
  );
  // Said of the close: one shipment or several (an English or Czech plural slip reads as a bug).
  const whole =
    ds.length === 1
      ? m('The carrier rejected the shipment.', 'Dopravce zásilku odmítl.')
      : m('The carrier rejected the shipments.', 'Dopravce zásilky odmítl.');
  if (rejected.length) return { ok: false, status: 422, message: whole, errors: rejected };

  const closedAt = formatTimestamp(ctx.now);
  const pickUpDay = nextWorkingDay(ctx.now);
  const sentAt = formatTimestamp(atPragueTime(pickUpDay, PICK_UP_HOUR));
  const closed = ds.map((d): StoredDelivery => {
    const deliveryNumber = formatCarrierNumber(d.agent, ctx.nextCarrierNumber(d.agent));
    return {
      ...d,
      deliveryNumber,
      deliveryState: STATE.closed,
      deliveryStateName: STATE_NAMES[STATE.closed]!,
      closed: closedAt,
      packages: d.packages.map((p, k) => ({ ...p, barcode: packageBarcode(deliveryNumber, k) })),
      sentAt,
      finalState: same(d.recipient.surname, MAGIC.returnSurname) ? 'returned' : 'delivered',
      version: d.version + 1,
    };
  });
  const place = placeKey(first);
  const collectionOrders: CollectionOrder[] =
    place !== null && hasCollectionType(ctx.places, place, first.agent)
      ? [{ agent: first.agent, scheduled: pickUpDay, collectionPlace: place }]
      : [];
  return { ok: true, value: { closed, collectionOrders } };
}
