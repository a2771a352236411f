/**
 * A badge scanned anywhere signs its worker in, whatever has the focus and whichever screen is
 * open: scanCapture.ts and the Station screen's scan box ask here before a scan goes to a screen
 * or the scan line. A badge is a code the station issues (BADGE_PREFIX), or any code a worker was
 * registered with (Settings → Operators: a card the warehouse already uses). Command barcodes are
 * not badges: they are left to the commands.
 */
import { readDeskCode } from '../../../shared/scan/deskCodes';
import { normaliseScan } from '../../../shared/scan/normaliseScan';
import { namedAsShipment } from '../scan/deskCommand';
import { useOperators } from '../state/operatorsStore';
import { useSettings } from '../state/settingsStore';

/** True when `code` is a badge: it went to the sign-in and must go nowhere else. */
export function takeBadgeScan(code: string): boolean {
  const affixes = useSettings.getState().settings?.scanner;
  const desk = readDeskCode(code, affixes);
  const n = normaliseScan(code, affixes);
  const registered = n.ok && useOperators.getState().operators.some((o) => o.badge === n.code);
  if (desk?.kind !== 'badge' && !registered) return false;
  // A badge that is also a parcel's key (a card with the number an e-shop gave an order) is named,
  // and signs nobody in or out.
  void namedAsShipment(code, 'unknown').then((named) => {
    if (!named) void useOperators.getState().signInBadge(code);
  });
  return true;
}
