/**
 * USB HID point-of-sale scales (HID usage page 0x8D "Scales", HID Point of Sale Usage Tables 1.02):
 * Dymo M5/M10/M25/S100/S180/S250/S400, Stamps.com 5 lb/35 lb, Mettler Toledo PS-USB, Fairbanks
 * SCB-R9000, Elane/USPS, Pitney Bowes 397-B and other class-compliant postal scales.
 *
 * They send the Scale Data Report (usage 0x32), report id 3, six bytes:
 *
 *   [0] report id 3
 *   [1] status: the index of a Scale Status usage (0x70 + n): 1 fault, 2 stable at centre of
 *       zero, 3 in motion, 4 weight stable, 5 under zero, 6 over weight limit, 7 requires
 *       calibration, 8 requires rezeroing
 *   [2] unit: the index of a Weight Unit usage (0x50 + n): 1 mg, 2 g, 3 kg, 4 carat, 5 tael,
 *       6 grain, 7 pennyweight, 8 metric ton, 9 avoir ton, 10 troy ounce, 11 ounce, 12 pound
 *   [3] data scaling: a signed exponent (0xFF = -1: the weight is in tenths of the unit)
 *   [4..5] data weight: unsigned 16-bit, little-endian
 *
 * The OS may hand the report with or without its id byte (node-hid on Windows keeps it, hidraw
 * too; some stacks drop it): both are read.
 */
import type { ScaleReading } from './reading';
import { shiftDecimal } from '../../shared/decimal';
import { toKg, type WeightUnit } from './weight';

export const HID_SCALE_USAGE_PAGE = 0x8d;
const HID_SCALE_DATA_REPORT = 3;

const UNITS: Record<number, WeightUnit> = { 1: 'mg', 2: 'g', 3: 'kg', 11: 'oz', 12: 'lb' };

/** One input report -> a reading; null for another report (attributes, status, limits). */
export function parseHidScaleReport(report: Uint8Array): ScaleReading | null {
  let r = report;
  if (r.length >= 6) {
    if (r[0] !== HID_SCALE_DATA_REPORT) return null;
    r = r.subarray(1);
  } else if (r.length !== 5) return null;
  const status = r[0]!;
  const unitCode = r[1]!;
  const exponent = (r[2]! << 24) >> 24; // signed byte
  const raw = r[3]! | (r[4]! << 8);
  switch (status) {
    case 1:
      return { state: 'fault', code: 'hid_fault', message: 'The scale reports a fault.' };
    case 5:
      return { state: 'underload' };
    case 6:
      return { state: 'overload' };
    case 7:
      return { state: 'fault', code: 'hid_calibrate', message: 'The scale needs calibrating.' };
    case 8:
      return {
        state: 'fault',
        code: 'hid_rezero',
        message: 'The scale needs zeroing: empty it and press its zero key.',
      };
    case 2:
    case 3:
    case 4:
      break;
    default:
      return { state: 'fault', code: 'hid_status', message: `The scale sent an unknown status (${status}).` };
  }
  const unit = UNITS[unitCode];
  // A scale at zero often reports unit 0 or any unit: zero is zero.
  if (status === 2) return { state: 'stable', value: '0', unit: unit ?? 'kg', kg: '0' };
  if (!unit)
    return {
      state: 'fault',
      code: 'hid_unit',
      message: `The scale weighs in a unit the station does not take (HID unit ${unitCode}).`,
    };
  const value = shiftDecimal(String(raw), exponent);
  if (status === 3) return { state: 'motion', value, unit };
  return { state: 'stable', value, unit, kg: toKg(value, unit) };
}
