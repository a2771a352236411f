/**
 * Who works at this desk (the top bar on every screen) and the registered workers (Settings, the
 * PIN dialog, and the badges a scan is recognised by), kept in step by the core's events on every
 * open page. The page never holds a PIN beyond the call that carries it, and never a PIN's hash.
 */
import { create } from 'zustand';
import type { DeskWho, OperatorView } from '../../../shared/contract/operators';
import { errorTextNow, translate, useLanguage } from '../i18n';
import { rpc } from '../rpc/transport';

/** The answer to the last sign-in or sign-out at this page, shown beside the top bar's name for a while. */
interface SignNotice {
  kind: 'ok' | 'bad';
  text: string;
  /** Bumped on every notice, so the same text twice is shown twice. */
  seq: number;
}

interface OperatorsState {
  who: DeskWho | null;
  operators: OperatorView[];
  notice: SignNotice | null;
  load(): Promise<void>;
  /** A badge scanned anywhere: signs its worker in (or out, their own badge); refused ones say why. */
  signInBadge(code: string): Promise<void>;
  /** Null when signed in; the refusal's text otherwise (the PIN dialog shows it). */
  signInPin(operatorId: number, pin: string): Promise<string | null>;
  signOut(): Promise<void>;
  clearNotice(): void;
}

const tr = (key: Parameters<typeof translate>[1], params?: Record<string, string | number>) =>
  translate(useLanguage.getState().language, key, params);

export const useOperators = create<OperatorsState>((set, get) => {
  let seq = 0;
  const notify = (kind: SignNotice['kind'], text: string) => set({ notice: { kind, text, seq: ++seq } });
  /** What a sign-in or sign-out did, in the worker's words. */
  const said = (before: DeskWho | null, after: DeskWho) => {
    if (after.operator) notify('ok', tr('operators.notice.signedIn', { name: after.operator.name }));
    else if (before?.operator) notify('ok', tr('operators.notice.signedOut', { name: before.operator.name }));
  };
  return {
    who: null,
    operators: [],
    notice: null,
    async load() {
      const [w, l] = await Promise.all([rpc.request('operators.who', {}), rpc.request('operators.list', {})]);
      set({ ...(w.ok ? { who: w.value } : {}), ...(l.ok ? { operators: l.value } : {}) });
    },
    async signInBadge(code) {
      const before = get().who;
      const r = await rpc.request('operators.signInBadge', { code });
      if (!r.ok) return notify('bad', errorTextNow(r.error));
      set({ who: r.value });
      said(before, r.value);
    },
    async signInPin(operatorId, pin) {
      const before = get().who;
      const r = await rpc.request('operators.signInPin', { operatorId, pin });
      if (!r.ok) return errorTextNow(r.error);
      set({ who: r.value });
      said(before, r.value);
      return null;
    },
    async signOut() {
      const before = get().who;
      const r = await rpc.request('operators.signOut', {});
      if (!r.ok) return notify('bad', errorTextNow(r.error));
      set({ who: r.value });
      said(before, r.value);
    },
    clearNotice: () => set({ notice: null }),
  };
});

rpc.on('operators.changed', (who) => useOperators.setState({ who }));
rpc.on('operators.listChanged', (operators) => useOperators.setState({ operators }));
