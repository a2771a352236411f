/**
 * Continuous output ("stream" mode): the scale sends a line with the weight many times a second,
 * unasked. The common header format — stability, then an optional gross/net field, then the
 * signed weight and its unit — is what A&D (FX-i, FZ-i, GF, GX, EK, SJ), CAS (CI-series
 * indicators, SW, ER), Ohaus Defender/Ranger (in "ST,GS" mode) and most XK3190-class indicators
 * (Yaohua, Keli) send:
 *
 *   ST,GS,+  1.234kg     stable, gross
 *   ST,+00001.234  kg    stable (A&D: no gross/net field)
 *   US,NT,+  1.230kg     unstable, net
 *   OL,GS,+  9999 kg     overload (also "OL,+99999999 kg")
 *
 * ST = stable, US = unstable, OL = overload; GS/GW = gross, NT/NW = net, TR/TW = tare (a tare line
 * is no parcel weight: skipped).
 */
import { toDecimal } from '../../shared/decimal';
import type { ScaleReading } from './reading';
import { toKg, unitOf } from './weight';

const LINE = /^(ST|US|OL|QT)\s*,\s*(?:(GS|GW|NT|NW|TR|TW)\s*,\s*)?([+-]?)\s*([0-9.,]+)?\s*([a-zA-Z]*)\s*$/;

export function parseContinuous(line: string): ScaleReading | null {
  // eslint-disable-next-line no-control-regex -- a scale's continuous output may frame each line with STX and ETX
  const m = LINE.exec(line.replace(/[\x02\x03]/g, '').trim());
  if (!m) return null;
  const [, head, kind, sign, digits, unitText] = m;
  if (head === 'OL') return sign === '-' ? { state: 'underload' } : { state: 'overload' };
  if (kind === 'TR' || kind === 'TW') return null;
  const value = digits ? toDecimal(`${sign === '-' ? '-' : ''}${digits}`) : null;
  const unit = unitOf(unitText ?? '');
  if (value === null || unit === null)
    return {
      state: 'fault',
      code: 'stream_unreadable',
      message: `The scale's line could not be read: "${line.trim()}".`,
    };
  if (head === 'US') return { state: 'motion', value, unit };
  if (value.startsWith('-')) return { state: 'underload' };
  return { state: 'stable', value, unit, kg: toKg(value, unit) };
}
