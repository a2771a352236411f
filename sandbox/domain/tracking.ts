/**
 * Tracking after closing (spec "GET /api/v3/deliveries/traces"; the transitions from state 1
 * onward are "not shown" in the spec, so this is the sandbox's documented, deterministic model,
 * driven only by the clock passed in):
 *
 * - The carrier picks the parcel up at `sentAt` (set by closing: next working day 14:00 Prague):
 *   state 1 -> 2, trace "picked up"; 3 hours later "at the sorting centre".
 * - Delivery day D = pick-up day + the delivery type's minimum transit working days.
 *   Address or collection-place recipient: delivered D 10:00 -> state 3. Same-day types (transit
 *   0): sorting 1 h and delivery 3 h after the pick-up.
 *   Pick-up-point recipient: ready at the point D 08:00 (state 2), collected D 16:00 -> state 5.
 * - Magic recipient surname RETURN: address: delivery fails D 10:00 (state 2), returned to the
 *   sender the next working day 10:00 -> state 4. Pick-up point: ready D 08:00, not collected by
 *   the 3rd working day after D 18:00, returned the 4th working day 10:00 -> state 6.
 * - The service checks the carrier every full hour after closing (closed + 1 h, + 2 h, ...) and
 *   stops at the first check after the final event. `lastChecked` is the latest check (null
 *   before the first one); traces and state are what that check saw, so traces are empty until
 *   the pick-up has been seen.
 * Trace texts are Czech or English (the `lang` argument, default English).
 */
import type { Lang, Msg } from '../i18n';
import { carrierOf, deliveryTypeOf } from './catalogue';
import { STATE, STATE_NAMES } from './delivery';
import { addHours, addWorkingDays, atPragueTime, formatTimestamp, pragueDate } from './time';
import type { StoredDelivery, TrackingResult } from './types';

const m = (en: string, cs: string): Msg => ({ en, cs });
const HOUR = 3_600_000;

export interface TrackingEvent {
  at: Date;
  state: number;
  text: Msg;
}

/** Every event of a closed shipment's journey, in time order. */
export function timeline(d: StoredDelivery): TrackingEvent[] {
  if (d.closed === null || d.sentAt === null) return [];
  const sent = new Date(Date.parse(d.sentAt));
  const carrier = carrierOf(d.agent);
  const type = carrier ? deliveryTypeOf(carrier, d.deliveryType) : undefined;
  const transit = type?.transitDays.min ?? 1;
  const pickUpDay = pragueDate(sent);
  const day = transit === 0 ? pickUpDay : addWorkingDays(pickUpDay, transit);
  const name = carrier?.name ?? d.agent;
  const returned = d.finalState === 'returned';
  const events: TrackingEvent[] = [
    { at: sent, state: STATE.sent, text: m(`Parcel picked up by ${name}`, `Zásilka převzata dopravcem ${name}`) },
    {
      at: addHours(sent, transit === 0 ? 1 : 3),
      state: STATE.sent,
      text: m('Parcel at the sorting centre', 'Zásilka v třídicím centru'),
    },
  ];
  if (d.recipient.type === 'pickUpPlace') {
    const point = d.recipient.pickUpPlace ?? '';
    events.push({
      at: atPragueTime(day, 8),
      state: STATE.sent,
      text: m(
        `Parcel ready for collection at pick-up point ${point}`,
        `Zásilka připravena k vyzvednutí na výdejním místě ${point}`,
      ),
    });
    if (returned) {
      events.push({
        at: atPragueTime(addWorkingDays(day, 3), 18),
        state: STATE.sent,
        text: m('Parcel not collected within the storage period', 'Zásilka nebyla vyzvednuta v úložní době'),
      });
      events.push({
        at: atPragueTime(addWorkingDays(day, 4), 10),
        state: STATE.returnedPoint,
        text: m('Parcel returned to the sender', 'Zásilka vrácena odesílateli'),
      });
    } else {
      events.push({
        at: atPragueTime(day, 16),
        state: STATE.deliveredPoint,
        text: m('Parcel collected by the recipient', 'Zásilka vyzvednuta příjemcem'),
      });
    }
    return events;
  }
  const deliveryAt = transit === 0 ? addHours(sent, 3) : atPragueTime(day, 10);
  if (returned) {
    events.push({
      at: deliveryAt,
      state: STATE.sent,
      text: m(
        'Delivery failed: recipient not found; returning to the sender',
        'Doručení se nezdařilo: příjemce nezastižen; vracíme odesílateli',
      ),
    });
    events.push({
      at: atPragueTime(addWorkingDays(pragueDate(deliveryAt), 1), 10),
      state: STATE.returned,
      text: m('Parcel returned to the sender', 'Zásilka vrácena odesílateli'),
    });
  } else {
    events.push({ at: deliveryAt, state: STATE.delivered, text: m('Parcel delivered', 'Zásilka doručena') });
  }
  return events;
}

/** The latest hourly check at or before now (null before the first), capped after the final event. */
function lastCheck(d: StoredDelivery, events: TrackingEvent[], now: Date): Date | null {
  if (d.closed === null) return null;
  const closed = Date.parse(d.closed);
  let k = Math.floor((now.getTime() - closed) / HOUR);
  const final = events.at(-1);
  if (final) k = Math.min(k, Math.ceil((final.at.getTime() - closed) / HOUR));
  return k >= 1 ? new Date(closed + k * HOUR) : null;
}

export function trackingOf(d: StoredDelivery, now: Date, lang: Lang = 'en'): TrackingResult {
  if (d.closed === null)
    return { state: d.deliveryState, stateName: d.deliveryStateName, lastChecked: null, traces: [] };
  const events = timeline(d);
  const checked = lastCheck(d, events, now);
  const seen = checked === null ? [] : events.filter((e) => e.at.getTime() <= checked.getTime());
  const state = seen.at(-1)?.state ?? STATE.closed;
  return {
    state,
    stateName: STATE_NAMES[state]!,
    lastChecked: checked === null ? null : formatTimestamp(checked),
    traces: seen.map((e) => ({ date: formatTimestamp(e.at), text: e.text[lang] })),
  };
}

/** Moves a closed shipment's state along the clock; returns it unchanged when nothing moved. */
export function advanceDelivery(d: StoredDelivery, now: Date): StoredDelivery {
  if (d.closed === null || d.deliveryState === STATE.cancelled) return d;
  const { state } = trackingOf(d, now);
  if (state === d.deliveryState) return d;
  return { ...d, deliveryState: state, deliveryStateName: STATE_NAMES[state]!, version: d.version + 1 };
}
