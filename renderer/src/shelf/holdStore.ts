/**
 * The problem shelf on the page: the hold question (Ctrl+H on the Station screen, or a hold command
 * barcode: one key per reason), the armed hold (the next parcel scanned is held instead of closed),
 * and the shelf's parcels as the core keeps them (followed through `shelf.changed`).
 *
 * A hold arms first and takes the next scan: the scan closes the parcel within a second, so the
 * worker who sees a problem says so before scanning, and nothing reaches the service.
 */
import { create } from 'zustand';
import type { HeldParcel, HoldWhy } from '../../../shared/contract/shelf';
import { rpc, useConnection } from '../rpc/transport';

interface Asking {
  /** A new question each time (the dialog is a new one, its keys fresh). */
  id: number;
  /** `other`: the command barcode of "another reason" asks only for the words. */
  other: boolean;
  answer(why: HoldWhy | null): void;
}

interface HoldState {
  asking: Asking | null;
  /** The reason the next parcel scanned is held for; null: the next scan closes as usual. */
  armed: HoldWhy | null;
  /** The parcels on the shelf, oldest first; null until loaded. */
  parcels: HeldParcel[] | null;
  count: number;
}

let asked = 0;
export const useHold = create<HoldState>(() => ({ asking: null, armed: null, parcels: null, count: 0 }));

/** Asks why (the dialog); resolves with the reason, or null when the worker cancelled. */
function askHoldReason(other = false): Promise<HoldWhy | null> {
  useHold.getState().asking?.answer(null);
  return new Promise((resolve) => {
    const asking: Asking = {
      id: ++asked,
      other,
      answer(why) {
        if (useHold.getState().asking === asking) useHold.setState({ asking: null });
        resolve(why);
      },
    };
    useHold.setState({ asking });
  });
}

/** The next parcel scanned is held for `why` (null: not any more). */
export const armHold = (why: HoldWhy | null) => useHold.setState({ armed: why });

/** Ctrl+H: asks why, then arms the hold. */
export async function askAndArm(other = false): Promise<HoldWhy | null> {
  const why = await askHoldReason(other);
  if (why) armHold(why);
  return why;
}

/**
 * The armed hold, taken by the scan that comes now (it is used once): the scan goes to the shelf
 * instead of the scan line. Null when none is armed.
 */
export function takeArmedHold(): HoldWhy | null {
  const why = useHold.getState().armed;
  if (why) armHold(null);
  return why;
}

/** The shelf's parcels again (its screen, after a change the core told). */
export async function loadShelf(): Promise<void> {
  const r = await rpc.request('shelf.list', {});
  if (r.ok) useHold.setState({ parcels: r.value.parcels, count: r.value.parcels.length });
}

rpc.on('shelf.changed', ({ count }) => {
  useHold.setState({ count });
  // The screen lists them: it follows; elsewhere the count is enough.
  if (useHold.getState().parcels !== null) void loadShelf();
});
useConnection.subscribe((s, prev) => {
  if (s.connected && !prev.connected) void loadShelf();
});
