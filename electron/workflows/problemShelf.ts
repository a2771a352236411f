/**
 * The problem shelf: a parcel the worker cannot send as it is (an item missing, damaged, a wrong
 * address, something else) is held instead of closed. A hold sends nothing to the service; it is
 * committed (store/shelfRepo.ts) before the worker is told, so a kill loses no hold they saw.
 *
 * What a hold does to the parcel's scans: one still waiting in line (for the service, a login, its
 * turn) ends `held` in the hold's commit, so the lane never closes it; one the lane works on now, or
 * whose close is on its way or done, is not held (the worker waits for its outcome). A later scan of
 * a held parcel closes nothing: the lane asks (runScan.ts, `on_shelf`), Enter closes it through
 * the lane as any scan (`shelf.close`), and a close of the shipment by this station, from any path,
 * takes it off the shelf (closeAndPrint.ts). A supervisor may release a parcel without closing it.
 */
import type { HeldParcel, HoldWhy } from '../../shared/contract/shelf';
import { isClosedState, shipmentStates } from '../../shared/contract/shipments';
import { readsAsDeskCode } from '../../shared/scan/deskCodes';
import { normaliseScan } from '../../shared/scan/normaliseScan';
import { StationError } from '../base/stationError';
import type { Handlers } from '../rpc/rpcServer';
import type { HoldRow } from '../store/shelfRepo';
import { toSummary } from '../store/shipmentsRepo';
import type { ScanToClose } from './scanToClose';
import type { WorkflowDeps } from './workflowDeps';

export interface ProblemShelfDeps {
  deps: WorkflowDeps;
  lane: Pick<ScanToClose, 'working' | 'endHeld' | 'heldTold' | 'closeHeld'>;
  /** Whether a registered operator may release parcels (Settings → Operators). */
  isSupervisor(operatorId: number): boolean;
  /** The shelf changed: its count, for the pages (`shelf.changed`). */
  changed(count: number): void;
}

/** A hold as the shelf's screen and the scan's question show it: the cached shipment's recipient and carrier. */
export function heldParcelOf(deps: Pick<WorkflowDeps, 'repos'>, h: HoldRow): HeldParcel {
  const s = h.deliveryId === null ? null : deps.repos.shipments.get(h.accountId, h.deliveryId);
  return {
    holdId: h.holdId,
    code: h.code,
    deliveryId: h.deliveryId,
    recipientName: s ? toSummary(s).recipientName : null,
    carrier: s?.agent ?? null,
    reason: h.reason,
    note: h.note,
    heldAt: h.heldAt,
    desk: h.desk,
    heldBy: h.operatorId === null ? null : { id: h.operatorId, name: h.operatorName ?? `#${h.operatorId}` },
  };
}

export function createProblemShelf(o: ProblemShelfDeps) {
  const { deps } = o;
  const shelf = deps.repos.shelf;
  const now = () => deps.clock.now();

  function accountId(): string {
    const s = deps.session();
    if (!s) throw new StationError('login_required', 'The station is not logged in to the service. Log in again.');
    return s.accountId;
  }

  const list = (): HeldParcel[] => {
    const s = deps.session();
    return s ? shelf.onShelf(s.accountId).map((h) => heldParcelOf(deps, h)) : [];
  };
  const tell = (account: string) => o.changed(shelf.count(account));

  /** The cached shipment a code names, when it names exactly one; refused when it cannot be held. */
  function shipmentOf(code: string): number | null {
    const found = deps.lookupCached(code);
    if (found?.kind !== 'found') return null; // not cached (or several): held by its code
    const s = found.shipment;
    if (isClosedState(s.state))
      throw new StationError('hold_closed', 'This parcel is closed already; its label is printed or on its way.');
    if (s.state === shipmentStates.cancelled) throw new StationError('cancelled', 'This shipment is cancelled.');
    return s.deliveryId;
  }

  function hold(raw: string, why: HoldWhy): HeldParcel {
    const account = accountId();
    const affixes = deps.scannerAffixes?.();
    if (readsAsDeskCode(raw, affixes))
      throw new StationError('desk_code_not_parcel', 'This is a desk code (a badge or a command), not a parcel.');
    const n = normaliseScan(raw, affixes);
    if (!n.ok) throw new StationError('invalid_params', n.message);
    const code = n.code;
    const deliveryId = shipmentOf(code);
    if (shelf.ofParcel(account, deliveryId, code))
      throw new StationError('already_on_shelf', 'This parcel is on the problem shelf already.');
    // Its scans in line (made while logged out, too: they would run for this company).
    const inLine = deps.repos.journal
      .unfinishedScans()
      .filter(
        (e) =>
          (e.accountId === account || e.accountId === '') &&
          (e.code === code || (deliveryId !== null && e.deliveryId === deliveryId)),
      );
    const working = o.lane.working();
    if (inLine.some((e) => e.id === working || (e.step !== 'received' && e.step !== 'resolved')))
      throw new StationError(
        'hold_in_flight',
        'This parcel cannot be held now: its scan is being worked on or its close is on its way. Wait for its outcome.',
      );
    const at = now();
    const holdId = shelf.hold(
      {
        accountId: account,
        code,
        deliveryId,
        reason: why.code,
        note: why.code === 'other' ? (why.note ?? null) : null,
      },
      at,
      () => o.lane.endHeld(inLine, at),
    );
    o.lane.heldTold(inLine, deliveryId);
    tell(account);
    return heldParcelOf(deps, shelf.get(holdId)!);
  }

  function release(holdId: number): HeldParcel[] {
    const account = accountId();
    const who = deps.desk.who().operator;
    if (!who || !o.isSupervisor(who.id))
      throw new StationError('not_supervisor', 'Only a supervisor can release a parcel from the shelf.');
    const h = shelf.get(holdId);
    if (!h || h.accountId !== account || !shelf.release(holdId, now()))
      throw new StationError('hold_not_found', 'This parcel is no longer on the problem shelf.');
    tell(account);
    return list();
  }

  /**
   * Enter on a held parcel's question: its close goes through the lane as a new scan of it (its own
   * number in the scan log); null when it left the shelf meanwhile.
   */
  function close(holdId: number): { scanId: number } | null {
    const account = accountId();
    const h = shelf.get(holdId);
    if (!h || h.accountId !== account || h.deliveryId === null) return null;
    return { scanId: o.lane.closeHeld({ accountId: account, code: h.code, deliveryId: h.deliveryId }) };
  }

  const handlers: Pick<Handlers, 'shelf.list' | 'shelf.hold' | 'shelf.release' | 'shelf.close'> = {
    'shelf.list': () => ({ parcels: list() }),
    'shelf.hold': ({ code, why }) => ({ parcel: hold(code, why) }),
    'shelf.release': ({ holdId }) => ({ parcels: release(holdId) }),
    'shelf.close': ({ holdId }) => close(holdId),
  };
  return { hold, release, close, list, handlers };
}
