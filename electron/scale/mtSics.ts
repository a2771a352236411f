/**
 * Mettler Toledo MT-SICS (Standard Interface Command Set), level 0/1 — the commands every MT-SICS
 * device answers: Mettler Toledo PS30/PS60/PS90 and PBA220/PBA430 shipping and bench scales,
 * the ICS4xx/ICS6xx terminals, BBA bench scales, and the MS, ML, MX, XS and XP balances.
 *
 * Of the two weight commands — `S` (the scale answers once it settled) and `SI` (immediate: the
 * weight now, stable or not) — the station polls `SI` (CR LF) several times a second, so the live
 * display moves, and takes a weight only from a stable `S S` answer. The parser reads the answers
 * of both, one line each:
 *
 *   S S      1.234 kg   stable weight
 *   S D      1.230 kg   dynamic (still moving; SI only)
 *   S +                 overload (above the range)
 *   S -                 underload (below zero range)
 *   S I                 command understood but not executable now (busy: taring, zeroing)
 *   ES / ET / EL        syntax error / transmission error / logical error (command unknown here)
 *
 * The weight field is right-aligned in a fixed width and the unit follows after a space; the
 * parser reads by tokens, not columns, as terminals pad differently. A weight answer is exactly
 * `S S WeightValue Unit` (the MT-SICS reference manual, "Format of responses with weight value";
 * the operating instructions' "S – Send stable weight value": "Response S S WeightValue Unit"):
 * four fields, printable ASCII, nothing after the unit. A line with more (`S S 8.888 kg #%&` and
 * control bytes: line noise, a wrong baud rate) is not a weight, however readable its start: the
 * station would close a parcel with a number the scale may never have sent.
 */
import { toDecimal } from '../../shared/decimal';
import type { ScaleReading } from './reading';
import { toKg, unitOf } from './weight';

/** The command for the weight now, stable or not (polled for the live display; a settled `S S` answer counts). */
export const MT_SICS_IMMEDIATE = 'SI\r\n';

const ERRORS: Record<string, string> = {
  ES: 'The scale did not understand the command (MT-SICS syntax error).',
  ET: 'The scale received garbled characters (MT-SICS transmission error): check the baud rate and cable.',
  EL: 'The scale cannot run this command (MT-SICS logical error).',
};

/** One answer line -> a reading; null for a line that is no weight answer (an echo, a blank). */
export function parseMtSics(line: string): ScaleReading | null {
  const t = line.trim();
  if (!t) return null;
  // Only printable ASCII (MT-SICS answers are ASCII text; CR LF ends the line and is trimmed above).
  if (!/^[\x20-\x7e]+$/.test(t)) return unreadable(t);
  if (t in ERRORS) return { state: 'fault', code: `mt_sics_${t.toLowerCase()}`, message: ERRORS[t]! };
  const parts = t.split(/\s+/);
  if (parts[0] !== 'S' && parts[0] !== 'SI') return null;
  const status = parts[1];
  switch (status) {
    case '+':
      return { state: 'overload' };
    case '-':
      return { state: 'underload' };
    case 'I':
      return {
        state: 'fault',
        code: 'mt_sics_busy',
        message: 'The scale is busy (taring or zeroing) and gives no weight now.',
      };
    case 'S':
    case 'D': {
      const value = toDecimal(parts[2] ?? '');
      const unit = unitOf(parts[3] ?? '');
      if (value === null || unit === null || parts.length !== 4) return unreadable(t);
      if (status === 'D') return { state: 'motion', value, unit };
      return { state: 'stable', value, unit, kg: toKg(value, unit) };
    }
    default:
      return unreadable(t);
  }
}

function unreadable(t: string): ScaleReading {
  // The line as text a person can read in the log and on the screen: control bytes as \xNN.
  const shown = t.replace(/[^\x20-\x7e]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return { state: 'fault', code: 'mt_sics_unreadable', message: `The scale's answer could not be read: "${shown}".` };
}
