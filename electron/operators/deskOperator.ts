/**
 * Who works at this desk now: the desk's name (Settings) and the operator signed in, if any. The
 * journal stamps each new entry with it and the desk actions repo each action, so "who packed it"
 * is decided once, when the thing happened, and never read back from a later sign-in.
 */
import type { DeskWho, OperatorSummary } from '../../shared/contract/operators';

export interface DeskOperator {
  who(): DeskWho;
  signIn(op: OperatorSummary): void;
  signOut(): void;
  /** Called with the new state after every sign-in and sign-out. */
  onChange(fn: (w: DeskWho) => void): () => void;
}

export function createDeskOperator(desk: () => string): DeskOperator {
  let operator: OperatorSummary | null = null;
  const listeners = new Set<(w: DeskWho) => void>();
  const who = (): DeskWho => ({ desk: desk(), operator });
  const changed = () => listeners.forEach((fn) => fn(who()));
  return {
    who,
    signIn(op) {
      operator = { id: op.id, name: op.name };
      changed();
    },
    signOut() {
      if (!operator) return;
      operator = null;
      changed();
    },
    onChange(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}
