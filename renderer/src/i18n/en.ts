/**
 * The catalogues, joined from one module per screen area (messages/*.ts) so screens are written in
 * parallel without touching one file. A key is `area.name`; two areas never share one.
 */
import { accounts } from './messages/accounts';
import { audit } from './messages/audit';
import { batch } from './messages/batch';
import { commands } from './messages/commands';
import { common } from './messages/common';
import { endOfDay } from './messages/endOfDay';
import { errors } from './messages/errors';
import { firstRun } from './messages/firstRun';
import { newShipment } from './messages/newShipment';
import { operators } from './messages/operators';
import { printers } from './messages/printers';
import { queue } from './messages/queue';
import { reasons } from './messages/reasons';
import { retention } from './messages/retention';
import { scale } from './messages/scale';
import { settings } from './messages/settings';
import { shipments } from './messages/shipments';
import { station } from './messages/station';
import { statistics } from './messages/statistics';
import { tracking } from './messages/tracking';
import { metrics } from './messages/metrics';
import { camera } from './messages/camera';
import { shelf } from './messages/shelf';
import { packages } from './messages/packages';

const areas = [
  common,
  station,
  batch,
  shipments,
  queue,
  endOfDay,
  tracking,
  settings,
  accounts,
  printers,
  firstRun,
  newShipment,
  reasons,
  errors,
  scale,
  audit,
  statistics,
  operators,
  commands,
  retention,
  metrics,
  camera,
  shelf,
  packages,
] as const;
type Area = (typeof areas)[number];
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

export type Messages = UnionToIntersection<Area['en']>;
export type MessageKey = keyof Messages;

function join(lang: 'en' | 'cs'): Record<MessageKey, string> {
  const out: Record<string, string> = {};
  for (const area of areas) {
    for (const [k, v] of Object.entries(area[lang])) {
      if (k in out) throw new Error(`message key defined twice: ${k}`);
      out[k] = v;
    }
  }
  return out;
}

export const en = join('en');
export const cs = join('cs');
