import { methods, type MethodSpec } from '../../shared/contract';
/**
 * Operators at the desk: the workers a desk admin registers (a name, a badge, a PIN kept only as a
 * salted hash), signing in by badge or PIN, signing out (the button, the sign-out command barcode,
 * the worker's own badge, the desk's idle time), and the desk's rules for scans (a desk code is
 * never a parcel; with "sign-in required", nobody signed in means no scan is taken).
 *
 * Who is signed in lives in deskOperator.ts (the journal and the desk actions read it from there);
 * this module decides who may sign in and records every sign-in, sign-out and refusal as a desk
 * action, with how it happened in its reason code (shared/contract/operators.ts signWays).
 */
import type { StationSettings } from '../../shared/contract/accounts';
import type { DeskWho, OperatorSave, OperatorView, SignWay } from '../../shared/contract/operators';
import { readDeskCode } from '../../shared/scan/deskCodes';
import { normaliseScan, type ScannerAffixes } from '../../shared/scan/normaliseScan';
import type { Clock } from '../base/clock';
import { StationError } from '../base/stationError';
import type { Handlers } from '../rpc/rpcServer';
import type { DeskActionsRepo } from '../store/deskActionsRepo';
import type { OperatorsRepo } from '../store/operatorsRepo';
import type { DeskOperator } from './deskOperator';
import { hashPin, pinMatches } from './pinHash';

/** Wrong PINs in a row before a worker must wait, and how long. */
const PIN_TRIES = 5;
const PIN_LOCK_MS = 30_000;

/** The methods that take a parcel's scan: refused for a desk code, and while a required sign-in is missing. */
const SCAN_METHODS = new Set(['scan.submit', 'batch.collect']);

export interface OperatorDeps {
  repo: OperatorsRepo;
  desk: DeskOperator;
  deskActions: DeskActionsRepo;
  clock: Clock;
  deskSettings(): StationSettings['desk'];
  scannerAffixes(): ScannerAffixes;
  emitList(list: OperatorView[]): void;
}

type OperatorHandlers = Pick<
  Handlers,
  | 'operators.who'
  | 'operators.list'
  | 'operators.save'
  | 'operators.remove'
  | 'operators.signInBadge'
  | 'operators.signInPin'
  | 'operators.signOut'
>;

export function createOperators(d: OperatorDeps) {
  const now = () => d.clock.now();
  /** The registered badges, to know a badge among scans without a query per scan. */
  let badges = new Set<string>();
  const listChanged = () => {
    const list = d.repo.list();
    badges = new Set(list.flatMap((o) => (o.badge ? [o.badge] : [])));
    d.emitList(list);
    return list;
  };
  badges = new Set(d.repo.list().flatMap((o) => (o.badge ? [o.badge] : [])));

  /** The last scan or action of the desk: the idle time counts from it. */
  let lastActivity = now();

  const codeOf = (raw: string) => {
    const n = normaliseScan(raw, d.scannerAffixes());
    return n.ok ? n.code : raw.trim();
  };

  function signOut(way: SignWay): DeskWho {
    if (!d.desk.who().operator) return d.desk.who();
    // Recorded first: the row names the worker who leaves.
    d.deskActions.record({ action: 'sign_out', at: now(), reasonCode: way });
    d.desk.signOut();
    return d.desk.who();
  }

  /** Signs `op` in, in place of whoever was signed in (their sign-out is recorded with the same way). */
  function signIn(op: OperatorView, way: SignWay): DeskWho {
    const before = d.desk.who().operator;
    if (before) d.deskActions.record({ action: 'sign_out', at: now(), reasonCode: way });
    d.desk.signIn({ id: op.id, name: op.name });
    d.deskActions.record({ action: 'sign_in', at: now(), reasonCode: way });
    lastActivity = now();
    return d.desk.who();
  }

  function refused(code: 'badge_unknown' | 'pin_wrong' | 'pin_locked', note: string | null): void {
    // The refusal names what was tried (a badge's code, the chosen worker), never a PIN.
    d.deskActions.record({ action: 'sign_in_refused', at: now(), reasonCode: code, note });
  }

  /** The worker's wait after too many wrong PINs, in whole seconds, or 0 when they may try. */
  function secondsLocked(id: number): number {
    const until = d.repo.pinTriesOf(id).lockedUntil;
    return until ? Math.max(0, Math.ceil((until.getTime() - now().getTime()) / 1000)) : 0;
  }

  function lockedRefusal(op: OperatorView, seconds: number): StationError {
    refused('pin_locked', op.name);
    return new StationError('pin_locked', `Too many wrong PINs: wait ${seconds} s before you try again.`, { seconds });
  }

  /**
   * Five wrong PINs in a row (README "Operators") make that worker wait PIN_LOCK_MS. The count is the
   * worker's, kept in the database (a restart keeps it), and any sign-in of theirs (PIN or badge)
   * ends the row. It is read and written after the hash check's await, in one synchronous turn, so
   * guesses sent side by side are counted one by one and those that finish after the lock are refused
   * as locked.
   */
  async function signInPin(operatorId: number, pin: string): Promise<DeskWho> {
    const op = d.repo.get(operatorId);
    if (!op) throw new StationError('operator_not_found', 'This worker is no longer registered at the station.');
    const before = secondsLocked(op.id);
    if (before > 0) throw lockedRefusal(op, before);
    const hash = d.repo.pinHashOf(op.id);
    const right = hash !== null && (await pinMatches(pin, hash));
    const after = secondsLocked(op.id);
    if (after > 0) throw lockedRefusal(op, after);
    if (right) {
      d.repo.setPinTries(op.id, { wrongInRow: 0, lockedUntil: null });
      return signIn(op, 'pin');
    }
    const wrongInRow = d.repo.pinTriesOf(op.id).wrongInRow + 1;
    if (wrongInRow >= PIN_TRIES) {
      d.repo.setPinTries(op.id, { wrongInRow: 0, lockedUntil: new Date(now().getTime() + PIN_LOCK_MS) });
      throw lockedRefusal(op, PIN_LOCK_MS / 1000);
    }
    d.repo.setPinTries(op.id, { wrongInRow, lockedUntil: null });
    refused('pin_wrong', op.name);
    throw new StationError('pin_wrong', 'Wrong PIN. Nobody was signed out.');
  }

  function signInBadge(raw: string): DeskWho {
    const code = codeOf(raw);
    const op = d.repo.findByBadge(code);
    if (!op) {
      refused('badge_unknown', code.slice(0, 200));
      throw new StationError('badge_unknown', 'Unknown badge: no worker has it. Nobody was signed out.');
    }
    // The signed-in worker's own badge signs them out; anyone else's switches to them.
    if (d.desk.who().operator?.id === op.id) return signOut('badge');
    // Their own badge proves who they are: a row of wrong PINs typed before it ends here.
    d.repo.setPinTries(op.id, { wrongInRow: 0, lockedUntil: null });
    return signIn(op, 'badge');
  }

  async function save(p: OperatorSave): Promise<OperatorView> {
    const badge = p.badge === null ? null : codeOf(p.badge) || null;
    if (badge) {
      const desk = readDeskCode(badge);
      if (desk && desk.kind !== 'badge')
        throw new StationError('badge_is_desk_code', 'This code is one of the station’s command barcodes.');
      const holder = d.repo.findByBadge(badge);
      if (holder && holder.id !== p.id) throw new StationError('badge_taken', 'Another worker already has this badge.');
    }
    const existing = p.id === undefined ? null : d.repo.get(p.id);
    if (p.id !== undefined && !existing)
      throw new StationError('operator_not_found', 'This worker is no longer registered at the station.');
    const willHavePin = p.pin === undefined ? (existing?.hasPin ?? false) : p.pin !== null;
    if (!badge && !willHavePin)
      throw new StationError(
        'operator_needs_badge_or_pin',
        'Give the worker a badge or a PIN (or both): without one they cannot sign in.',
      );
    const pinHash = typeof p.pin === 'string' ? await hashPin(p.pin) : p.pin;
    let id: number;
    if (existing) {
      id = existing.id;
      d.repo.edit(id, {
        name: p.name,
        badge,
        ...(pinHash !== undefined ? { pinHash } : {}),
        ...(p.supervisor !== undefined ? { supervisor: p.supervisor } : {}),
      });
      // The signed-in worker renamed: the top bar shows the new name.
      if (d.desk.who().operator?.id === id && existing.name !== p.name) d.desk.signIn({ id, name: p.name });
    } else {
      id = d.repo.add({ name: p.name, badge, pinHash: pinHash ?? null, supervisor: p.supervisor ?? false }, now());
    }
    listChanged();
    return d.repo.get(id)!;
  }

  function remove(id: number): OperatorView[] {
    if (d.desk.who().operator?.id === id) signOut('removed');
    if (!d.repo.remove(id, now()))
      throw new StationError('operator_not_found', 'This worker is no longer registered at the station.');
    return listChanged();
  }

  /** Why a scanned code is not taken as a parcel, or null: it is a desk code (a badge or a command). */
  function deskCodeRefusal(raw: string): StationError | null {
    const code = codeOf(raw);
    if (readDeskCode(code) || badges.has(code))
      return new StationError(
        'desk_code_not_parcel',
        'This is a desk code (a badge or a command), not a parcel: it was not taken as a scan.',
      );
    return null;
  }

  /** A worker's work while the desk requires a sign-in and nobody is signed in: refused before anything is kept. */
  function signInRefusal(): StationError | null {
    if (d.deskSettings().signInRequired && !d.desk.who().operator)
      return new StationError(
        'sign_in_required',
        'Sign in first: this desk requires a sign-in before parcels are scanned, printed or cancelled.',
      );
    return null;
  }

  const handlers: OperatorHandlers = {
    'operators.who': () => d.desk.who(),
    'operators.list': () => d.repo.list(),
    'operators.save': (p) => save(p),
    'operators.remove': ({ id }) => remove(id),
    'operators.signInBadge': ({ code }) => signInBadge(code),
    'operators.signInPin': ({ operatorId, pin }) => signInPin(operatorId, pin),
    'operators.signOut': ({ way }) => signOut(way ?? 'manual'),
  };

  return {
    handlers,
    /**
     * Every handler of the station as the desk sees it: a scan of a desk code, or a worker's work
     * (marked `work` in the contract) while a required sign-in is missing, is refused before anything
     * is journaled; every call that is the worker's action restarts the idle time.
     */
    guard(all: Handlers): Handlers {
      const out: Record<string, (p: unknown) => unknown> = {};
      for (const [method, fn] of Object.entries(all) as [string, (p: unknown) => unknown][]) {
        const scans = SCAN_METHODS.has(method);
        const spec = (methods as Record<string, MethodSpec>)[method];
        // A page following the core (a method marked `reads` in the contract) is not the worker acting.
        const acts = !spec?.reads && !method.startsWith('operators.');
        out[method] = (p) => {
          const refusal =
            (scans ? deskCodeRefusal((p as { code: string }).code) : null) ?? (spec?.work ? signInRefusal() : null);
          if (refusal) throw refusal;
          if (acts) lastActivity = now();
          return fn(p);
        };
      }
      return out as Handlers;
    },
    /** Signs the worker out once the desk's idle time passed without a scan or an action (called every second). */
    checkIdle(): void {
      const minutes = d.deskSettings().idleMinutes;
      if (minutes > 0 && d.desk.who().operator && now().getTime() - lastActivity.getTime() >= minutes * 60_000)
        signOut('idle');
    },
  };
}
