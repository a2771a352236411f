/**
 * Desk codes: barcodes the station prints for the desk itself — command barcodes (the command
 * sheet) and operators' badges — that a scanner types like any parcel code. They all begin with
 * DESK_CODE_PREFIX, which no shipment key can begin with: the service issues numbers (deliveryId,
 * deliveryNumber) and carrier barcodes of letters and digits, and the station refuses an e-shop's
 * own externalId that begins with it (so a parcel can never be taken for a command).
 *
 * In shared/ because both sides read them: the renderer acts on a command as its key would, wherever
 * the focus is; the core never journals a desk code as a scan and signs in by badge.
 */
import { normaliseScan, type ScannerAffixes } from './normaliseScan';

export const DESK_CODE_PREFIX = '!LS-';

/** What each command barcode does: the key it stands for is named in the command sheet. */
export const deskCommands = [
  'reprint_last',
  'cancel_parcel',
  'batch_toggle',
  'close_all',
  'sign_out',
  'next_package',
  'hold_missing_item',
  'hold_damaged',
  'hold_wrong_address',
  'hold_other',
  'packages_open',
  'package_add',
  'package_remove',
  'package_weigh',
  'packages_split',
  'packages_send',
] as const;
export type DeskCommand = (typeof deskCommands)[number];

/** Badges the station issues: the prefix, then `OP-`, then the badge's own characters. */
export const BADGE_PREFIX = `${DESK_CODE_PREFIX}OP-`;

/** The barcode of a command, e.g. `!LS-REPRINT_LAST`. */
export const commandBarcode = (c: DeskCommand): string => `${DESK_CODE_PREFIX}${c.toUpperCase()}`;

export type DeskCode =
  | { kind: 'command'; command: DeskCommand }
  | { kind: 'badge'; badge: string }
  /** Begins with the prefix but names nothing this station knows (a newer sheet, a misread). */
  | { kind: 'unknown'; code: string };

/**
 * The one rule of what reads as a desk code: a value that, read as a scan is read (control
 * characters, white space, an AIM symbology identifier and the desk scanner's affixes removed),
 * begins with DESK_CODE_PREFIX in any case. The scan acts on such a code instead of looking up a
 * parcel, so New shipment refuses an order number that reads so (`]C1!LS-SIGN_OUT` does: the AIM
 * identifier goes first), and a shipment from the service whose key reads so is named to the
 * worker when scanned, never closed or acted on by it.
 */
export function readsAsDeskCode(value: string, affixes?: ScannerAffixes): boolean {
  const n = normaliseScan(value, affixes);
  return n.ok && n.code.toUpperCase().startsWith(DESK_CODE_PREFIX);
}

/** The desk code a scan is (after the scanner's affixes are removed), or null for a parcel's code. */
export function readDeskCode(raw: string, affixes?: ScannerAffixes): DeskCode | null {
  if (!readsAsDeskCode(raw, affixes)) return null;
  const n = normaliseScan(raw, affixes);
  if (!n.ok) return null;
  if (n.code.startsWith(BADGE_PREFIX) && n.code.length > BADGE_PREFIX.length) return { kind: 'badge', badge: n.code };
  const command = deskCommands.find((c) => commandBarcode(c) === n.code);
  return command ? { kind: 'command', command } : { kind: 'unknown', code: n.code };
}
