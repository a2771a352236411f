/**
 * The scale protocols, line by line and byte by byte. MT-SICS answers as the MT-SICS reference
 * manual writes them; continuous lines as A&D and CAS indicators send them. HID reports are
 * written here byte by byte from the HID Point of Sale Usage Tables (usage page 0x8D, Scale Data
 * Report, report id 3) — no virtual HID device exists on this machine (node-hid loads, but there
 * is no uhid device to open), so the parser is tested on the reports a scale sends.
 */
import { describe, expect, it } from 'vitest';
import { parseContinuous } from '../../../electron/scale/continuousOutput';
import { parseHidScaleReport } from '../../../electron/scale/hidPos';
import { parseMtSics } from '../../../electron/scale/mtSics';

describe('MT-SICS answers (Mettler Toledo PS/PBA/ICS/BBA scales, MS/ML/XS balances)', () => {
  it('S S is a stable weight; the weight is kept digit for digit', () => {
    expect(parseMtSics('S S      1.234 kg\r')).toEqual({ state: 'stable', value: '1.234', unit: 'kg', kg: '1.234' });
    expect(parseMtSics('S S     1250.0 g')).toEqual({ state: 'stable', value: '1250.0', unit: 'g', kg: '1.25' });
    expect(parseMtSics('S S      3.50 lb')).toEqual({ state: 'stable', value: '3.50', unit: 'lb', kg: '1.587573295' });
  });
  it('S D (dynamic) is motion, never a weight to use', () => {
    expect(parseMtSics('S D      1.230 kg')).toEqual({ state: 'motion', value: '1.230', unit: 'kg' });
  });
  it('overload, underload, busy and the E errors are states', () => {
    expect(parseMtSics('S +')).toEqual({ state: 'overload' });
    expect(parseMtSics('S -')).toEqual({ state: 'underload' });
    expect(parseMtSics('S I')).toMatchObject({ state: 'fault', code: 'mt_sics_busy' });
    expect(parseMtSics('ES')).toMatchObject({ state: 'fault', code: 'mt_sics_es' });
    expect(parseMtSics('ET')).toMatchObject({ state: 'fault', code: 'mt_sics_et' });
    expect(parseMtSics('EL')).toMatchObject({ state: 'fault', code: 'mt_sics_el' });
  });
  it('a weight answer is exactly `S S WeightValue Unit` (operating instructions: "Response S S WeightValue Unit"): anything after the unit, or control bytes, is no weight', () => {
    expect(parseMtSics('S S      8.888 kg #%&\x01\x07')).toMatchObject({ state: 'fault', code: 'mt_sics_unreadable' });
    expect(parseMtSics('S S      8.888 kg #%&')).toMatchObject({ state: 'fault', code: 'mt_sics_unreadable' });
    expect(parseMtSics('S S      8.888 kg\x07')).toMatchObject({ state: 'fault', code: 'mt_sics_unreadable' });
    expect(parseMtSics('S S      8.888 kg\r')).toMatchObject({ state: 'stable', kg: '8.888' });
  });
  it('a garbled weight is a fault, a blank line or an echo nothing', () => {
    expect(parseMtSics('S S   1.2x4 kg')).toMatchObject({ state: 'fault' });
    expect(parseMtSics('S S   1.234 stone')).toMatchObject({ state: 'fault' });
    expect(parseMtSics('')).toBeNull();
    expect(parseMtSics('I4 A "B123456789"')).toBeNull();
  });
});

describe('continuous output (A&D, CAS, XK3190-class indicators)', () => {
  it('ST lines are stable weights, US lines motion', () => {
    expect(parseContinuous('ST,GS,+  1.234kg')).toEqual({ state: 'stable', value: '1.234', unit: 'kg', kg: '1.234' });
    expect(parseContinuous('ST,+00001.234  kg')).toEqual({ state: 'stable', value: '1.234', unit: 'kg', kg: '1.234' });
    expect(parseContinuous('ST,NT,+  0850 g')).toEqual({ state: 'stable', value: '850', unit: 'g', kg: '0.85' });
    expect(parseContinuous('US,GS,+  1.230kg')).toEqual({ state: 'motion', value: '1.230', unit: 'kg' });
  });
  it('OL is overload, a negative stable weight under zero, a tare line no weight', () => {
    expect(parseContinuous('OL,GS,+  9999 kg')).toEqual({ state: 'overload' });
    expect(parseContinuous('ST,GS,-  0.020kg')).toEqual({ state: 'underload' });
    expect(parseContinuous('ST,TR,+  0.100kg')).toBeNull();
    expect(parseContinuous('hello')).toBeNull();
  });
});

describe('HID POS scale reports (usage page 0x8D), byte by byte', () => {
  // [report id 3, status, unit, exponent (signed), weight low byte, weight high byte]
  it('status 4 (Weight Stable), unit 2 (gram), exponent 0: 0x0190 = 400 g', () => {
    expect(parseHidScaleReport(Uint8Array.of(0x03, 0x04, 0x02, 0x00, 0x90, 0x01))).toEqual({
      state: 'stable',
      value: '400',
      unit: 'g',
      kg: '0.4',
    });
  });
  it('unit 11 (ounce), exponent 0xFF (-1): 0x00A3 = 163 tenths = 16.3 oz, converted exactly', () => {
    // 16.3 oz × 0.028349523125 kg/oz = 0.4620972269375 kg
    expect(parseHidScaleReport(Uint8Array.of(0x03, 0x04, 0x0b, 0xff, 0xa3, 0x00))).toEqual({
      state: 'stable',
      value: '16.3',
      unit: 'oz',
      kg: '0.4620972269375',
    });
  });
  it('unit 12 (pound), exponent 0xFE (-2): 0x04D2 = 1234 → 12.34 lb', () => {
    expect(parseHidScaleReport(Uint8Array.of(0x03, 0x04, 0x0c, 0xfe, 0xd2, 0x04))).toMatchObject({
      state: 'stable',
      value: '12.34',
      unit: 'lb',
      kg: '5.5973298458',
    });
  });
  it('unit 3 (kilogram), exponent 0xFD (-3): 0x1388 = 5000 → 5 kg', () => {
    expect(parseHidScaleReport(Uint8Array.of(0x03, 0x04, 0x03, 0xfd, 0x88, 0x13))).toEqual({
      state: 'stable',
      value: '5',
      unit: 'kg',
      kg: '5',
    });
  });
  it('status 2 (Stable at Center of Zero) is zero; status 3 (In Motion) is motion', () => {
    expect(parseHidScaleReport(Uint8Array.of(0x03, 0x02, 0x0b, 0xff, 0x00, 0x00))).toEqual({
      state: 'stable',
      value: '0',
      unit: 'oz',
      kg: '0',
    });
    expect(parseHidScaleReport(Uint8Array.of(0x03, 0x03, 0x02, 0x00, 0x64, 0x00))).toEqual({
      state: 'motion',
      value: '100',
      unit: 'g',
    });
  });
  it('fault, under zero, over the limit, calibration and rezeroing are states, never a weight', () => {
    expect(parseHidScaleReport(Uint8Array.of(0x03, 0x01, 0x02, 0x00, 0x00, 0x00))).toMatchObject({
      state: 'fault',
      code: 'hid_fault',
    });
    expect(parseHidScaleReport(Uint8Array.of(0x03, 0x05, 0x02, 0x00, 0x05, 0x00))).toEqual({ state: 'underload' });
    expect(parseHidScaleReport(Uint8Array.of(0x03, 0x06, 0x02, 0x00, 0xff, 0xff))).toEqual({ state: 'overload' });
    expect(parseHidScaleReport(Uint8Array.of(0x03, 0x07, 0x02, 0x00, 0x00, 0x00))).toMatchObject({
      state: 'fault',
      code: 'hid_calibrate',
    });
    expect(parseHidScaleReport(Uint8Array.of(0x03, 0x08, 0x02, 0x00, 0x00, 0x00))).toMatchObject({
      state: 'fault',
      code: 'hid_rezero',
    });
  });
  it('a report without its id byte reads the same; other reports and units are not weights', () => {
    expect(parseHidScaleReport(Uint8Array.of(0x04, 0x02, 0x00, 0x90, 0x01))).toEqual({
      state: 'stable',
      value: '400',
      unit: 'g',
      kg: '0.4',
    });
    expect(parseHidScaleReport(Uint8Array.of(0x04, 0x01, 0x00, 0x00, 0x00, 0x00))).toBeNull();
    expect(parseHidScaleReport(Uint8Array.of(0x03, 0x04, 0x04, 0x00, 0x10, 0x00))).toMatchObject({
      state: 'fault',
      code: 'hid_unit',
    });
  });
});
