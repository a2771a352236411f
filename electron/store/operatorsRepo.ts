/**
 * The workers registered at this station (migration 16, `operators`). A removed worker keeps their
 * row (`removed_at`) so every journal entry and desk action still names them; only the living ones
 * are listed, found by badge and may sign in. The PIN's salted hash is read only by `pinHashOf`,
 * for the check in electron/operators: nothing else returns it.
 */
import type { OperatorView } from '../../shared/contract/operators';
import type { Db } from './database';

interface Row {
  id: number;
  name: string;
  badge: string | null;
  has_pin: 0 | 1;
  supervisor: 0 | 1;
}

const toView = (r: Row): OperatorView => ({
  id: r.id,
  name: r.name,
  badge: r.badge,
  hasPin: r.has_pin === 1,
  supervisor: r.supervisor === 1,
});

const COLUMNS = 'id, name, badge, pin_hash IS NOT NULL AS has_pin, supervisor';

export function createOperatorsRepo(db: Db) {
  const list = db.prepare<[], Row>(
    `SELECT ${COLUMNS} FROM operators WHERE removed_at IS NULL ORDER BY name COLLATE NOCASE, id`,
  );
  const get = db.prepare<[number], Row>(`SELECT ${COLUMNS} FROM operators WHERE id = ? AND removed_at IS NULL`);
  const byBadge = db.prepare<[string], Row>(`SELECT ${COLUMNS} FROM operators WHERE badge = ? AND removed_at IS NULL`);
  const pinHash = db.prepare<[number], { pin_hash: string | null }>(
    'SELECT pin_hash FROM operators WHERE id = ? AND removed_at IS NULL',
  );
  const insert = db.prepare<[string, string | null, string | null, string, number]>(
    'INSERT INTO operators (name, badge, pin_hash, created_at, supervisor) VALUES (?, ?, ?, ?, ?)',
  );
  const setSupervisor = db.prepare<[number, number]>(
    'UPDATE operators SET supervisor = ? WHERE id = ? AND removed_at IS NULL',
  );
  const update = db.prepare<[string, string | null, number]>(
    'UPDATE operators SET name = ?, badge = ? WHERE id = ? AND removed_at IS NULL',
  );
  const setPin = db.prepare<[string | null, number]>(
    'UPDATE operators SET pin_hash = ? WHERE id = ? AND removed_at IS NULL',
  );
  const pinTries = db.prepare<[number], { wrong: number; until: string | null }>(
    'SELECT pin_wrong_in_row AS wrong, pin_locked_until AS until FROM operators WHERE id = ? AND removed_at IS NULL',
  );
  const setPinTries = db.prepare<[number, string | null, number]>(
    'UPDATE operators SET pin_wrong_in_row = ?, pin_locked_until = ? WHERE id = ?',
  );
  const remove = db.prepare<[string, number]>(
    'UPDATE operators SET removed_at = ?, badge = NULL, pin_hash = NULL WHERE id = ? AND removed_at IS NULL',
  );
  return {
    /** The workers who may sign in, by name. */
    list: (): OperatorView[] => list.all().map(toView),
    get: (id: number): OperatorView | null => {
      const r = get.get(id);
      return r ? toView(r) : null;
    },
    findByBadge: (badge: string): OperatorView | null => {
      const r = byBadge.get(badge);
      return r ? toView(r) : null;
    },
    /** The salted hash of the worker's PIN, for the check only; null: no PIN (or no such worker). */
    pinHashOf: (id: number): string | null => pinHash.get(id)?.pin_hash ?? null,
    /**
     * The worker's wrong PINs in a row and until when they must wait (null: no wait), migration 23:
     * kept in the database so a restart does not hand out new guesses.
     */
    pinTriesOf(id: number): { wrongInRow: number; lockedUntil: Date | null } {
      const r = pinTries.get(id);
      return { wrongInRow: r?.wrong ?? 0, lockedUntil: r?.until ? new Date(r.until) : null };
    },
    setPinTries(id: number, t: { wrongInRow: number; lockedUntil: Date | null }): void {
      setPinTries.run(t.wrongInRow, t.lockedUntil?.toISOString() ?? null, id);
    },
    /** Adds a worker; returns their id. */
    add(o: { name: string; badge: string | null; pinHash: string | null; supervisor?: boolean }, at: Date): number {
      return Number(insert.run(o.name, o.badge, o.pinHash, at.toISOString(), o.supervisor ? 1 : 0).lastInsertRowid);
    },
    /**
     * Changes a worker's name and badge, their PIN's hash when `pinHash` is given (null removes the
     * PIN) and whether they are a supervisor when `supervisor` is given, in one commit; false when
     * there is no such worker.
     */
    edit: db.transaction(
      (
        id: number,
        o: { name: string; badge: string | null; pinHash?: string | null; supervisor?: boolean },
      ): boolean => {
        if (update.run(o.name, o.badge, id).changes === 0) return false;
        if (o.pinHash !== undefined) setPin.run(o.pinHash, id);
        if (o.supervisor !== undefined) setSupervisor.run(o.supervisor ? 1 : 0, id);
        return true;
      },
    ),
    /**
     * Removes a worker: they can no longer sign in (badge and PIN hash are dropped, so the badge may
     * be given to someone else); the row and its name stay for the history. False when not there.
     */
    remove: (id: number, at: Date): boolean => remove.run(at.toISOString(), id).changes > 0,
  };
}

export type OperatorsRepo = ReturnType<typeof createOperatorsRepo>;
