/**
 * Packages at the desk on the page: Ctrl+B (or its command barcode) arms it, and the next parcel
 * scanned opens its packages instead of closing (packages.open). The worker adds, splits, removes,
 * weighs or types boxes here with the shared rules (shared/packages/deskPackages.ts); Ctrl+Enter
 * sends them (packages.close: the transport checked, the shipment updated, then closed and printed
 * as a scan, its outcome on the Station screen). Esc leaves without sending anything.
 *
 * The boxes live here until the core took them: a refusal (the transport does not take them, the
 * shipment changed meanwhile) keeps them on screen, with the reason, to change or send again.
 */
import { create } from 'zustand';
import type { OpenedParcel } from '../../../shared/contract/packages';
import {
  addPackage,
  problemsOf,
  removePackage,
  setSide,
  setWeight,
  splitInto,
  type DeskPackage,
  type Edit,
  type PackageRule,
  type Side,
} from '../../../shared/packages/deskPackages';
import { errorTextNow, translate, useLanguage } from '../i18n';
import { formatQuantity } from '../format/decimal';
import { rpc } from '../rpc/transport';
import { addScanTaker, useScans } from '../state/scanStore';
import { shownCode } from '../scan/shownCode';

/** A box as its fields show it: the weight and sides as typed (a decimal comma in Czech). */
export interface BoxRow {
  weight: string;
  length: string;
  width: string;
  height: string;
}

interface PackagesNote {
  tone: 'ok' | 'bad';
  text: string;
}

interface PackagesState {
  /** The next parcel scanned opens its packages. */
  armed: boolean;
  parcel: OpenedParcel | null;
  rows: BoxRow[];
  chosen: number;
  /** Ctrl+S asked "into how many boxes?": its field takes the count. */
  splitting: boolean;
  busy: boolean;
  note: PackagesNote | null;
}

export const usePackages = create<PackagesState>(() => ({
  armed: false,
  parcel: null,
  rows: [],
  chosen: 0,
  splitting: false,
  busy: false,
  note: null,
}));

const tr = (key: Parameters<typeof translate>[1], params?: Record<string, string | number>) =>
  translate(useLanguage.getState().language, key, params);
const ruleText = (rule: PackageRule, n?: number) => tr(`packages.rule.${rule}`, { n: n ?? 0 });
const shownKg = (kg: string | null) => (kg === null ? '' : formatQuantity(kg, useLanguage.getState().language));
const sideText = (cm: number | null) => (cm === null ? '' : String(cm));

function rowOf(p: DeskPackage): BoxRow {
  return {
    weight: shownKg(p.weight),
    length: sideText(p.length),
    width: sideText(p.width),
    height: sideText(p.height),
  };
}

/** The boxes as the rules count them (add, remove, split): what is typed in them stays as it is. */
const counted = (rows: readonly BoxRow[]): DeskPackage[] =>
  rows.map(() => ({ weight: null, length: null, width: null, height: null }));

/** The rows as packages, each field read by the shared rules; the first problem when one is not a weight or a side. */
function packagesOf(rows: readonly BoxRow[]): { packages: DeskPackage[] } | { index: number; rule: PackageRule } {
  let list = counted(rows);
  for (const [index, r] of rows.entries()) {
    const steps: [string, (l: DeskPackage[]) => Edit][] = [
      [r.weight, (l) => setWeight(l, index, r.weight)],
      ...(['length', 'width', 'height'] as Side[]).map((k): [string, (l: DeskPackage[]) => Edit] => [
        r[k],
        (l) => setSide(l, index, k, r[k]),
      ]),
    ];
    for (const [text, apply] of steps) {
      if (text.trim() === '') continue;
      const e = apply(list);
      if (!e.ok) return { index, rule: e.rule };
      list = e.packages;
    }
  }
  return { packages: list };
}

/** Whether a scanned code names the open parcel: its own code, or any other key of it (the core's lookup). */
async function isParcel(parcel: OpenedParcel, code: string): Promise<boolean> {
  if (shownCode(code) === parcel.code) return true;
  const r = await rpc.request('shipments.lookup', { code: code.slice(0, 500) });
  return r.ok && r.value.kind === 'found' && r.value.shipment.deliveryId === parcel.deliveryId;
}

const set = usePackages.setState;
const bad = (text: string) => set({ note: { tone: 'bad', text } });

export const packages = {
  arm(on = true): void {
    set({ armed: on });
  },

  /** The scan an armed "packages" took: the parcel's packages open, or the reason they cannot. */
  async open(code: string): Promise<void> {
    set({ armed: false, busy: true, note: null });
    const r = await rpc.request('packages.open', { code });
    if (!r.ok) {
      set({ busy: false });
      useScans.getState().refuse(code, r.error);
      return;
    }
    set({ parcel: r.value, rows: r.value.packages.map(rowOf), chosen: 0, busy: false, splitting: false });
  },

  choose(index: number): void {
    const { rows } = usePackages.getState();
    set({ chosen: Math.max(0, Math.min(rows.length - 1, index)) });
  },

  type(index: number, field: keyof BoxRow, text: string): void {
    set((s) => ({ rows: s.rows.map((r, i) => (i === index ? { ...r, [field]: text } : r)), note: null }));
  },

  add(): void {
    const { rows } = usePackages.getState();
    const e = addPackage(counted(rows));
    if (!e.ok) return bad(ruleText(e.rule));
    set({ rows: [...rows, { weight: '', length: '', width: '', height: '' }], chosen: rows.length, note: null });
  },

  remove(): void {
    const { rows, chosen } = usePackages.getState();
    const e = removePackage(counted(rows), chosen);
    if (!e.ok) return bad(ruleText(e.rule));
    const left = rows.filter((_, i) => i !== chosen);
    set({ rows: left, chosen: Math.min(chosen, left.length - 1), note: null });
  },

  askSplit(): void {
    set({ splitting: true, note: null });
  },

  split(count: number): void {
    set({ splitting: false });
    const e = splitInto(count);
    if (!e.ok) return bad(ruleText(e.rule));
    set({
      rows: e.packages.map(rowOf),
      chosen: 0,
      note: { tone: 'ok', text: tr('packages.split.done', { n: count }) },
    });
  },

  /** The settled weight on the scale goes to the chosen box, and the next box is chosen. */
  async weigh(): Promise<void> {
    const r = await rpc.request('packages.weigh', {});
    if (!r.ok) return bad(errorTextNow(r.error));
    const { chosen, rows } = usePackages.getState();
    set({
      rows: rows.map((row, i) => (i === chosen ? { ...row, weight: shownKg(r.value.kg) } : row)),
      chosen: Math.min(chosen + 1, rows.length - 1),
      note: { tone: 'ok', text: tr('packages.weighed', { n: chosen + 1, kg: shownKg(r.value.kg) }) },
    });
  },

  /** Ctrl+Enter: checked here by the shared rules, then the core checks the transport, updates, closes and prints. */
  async send(): Promise<void> {
    const { parcel, rows, busy } = usePackages.getState();
    if (!parcel || busy) return;
    const read = packagesOf(rows);
    if ('rule' in read) return bad(ruleText(read.rule, read.index + 1));
    const problem = problemsOf(read.packages, parcel.dimensionsRequired === true)[0];
    if (problem) return bad(ruleText(problem.rule, problem.index + 1));
    set({ busy: true, note: { tone: 'ok', text: tr('packages.sending') } });
    const r = await rpc.request('packages.close', { deliveryId: parcel.deliveryId, packages: read.packages });
    if (!r.ok) {
      set({ busy: false });
      return bad(errorTextNow(r.error));
    }
    set({ parcel: null, rows: [], busy: false, note: null });
    useScans.getState().follow(r.value.scanId, parcel.code);
  },

  /**
   * A parcel scanned while its packages are open (a scan anywhere: the panel holds the keys). A
   * scanner is often the worker's only input, and a scan of a parcel is, everywhere else at this
   * desk, "close it and print its labels": the same parcel scanned again is taken as Ctrl+Enter,
   * with the boxes as they are on screen and checked as Ctrl+Enter checks them (a box without its
   * weight is named and nothing is sent). It is never closed with the packages it had before,
   * behind the worker's back. Another parcel is refused, not closed: its outcome would come under
   * this panel, unseen, and the worker's boxes would wait on screen for a parcel that left.
   */
  async scanned(code: string): Promise<void> {
    const { parcel } = usePackages.getState();
    if (!parcel) return;
    if (await isParcel(parcel, code)) return packages.send();
    bad(tr('packages.scan.other', { code: shownCode(code), open: parcel.code }));
  },

  /** Esc: nothing was sent; the parcel stays prepared, to scan again. */
  leave(): void {
    const { parcel } = usePackages.getState();
    if (parcel) void rpc.request('packages.leave', { deliveryId: parcel.deliveryId });
    set({ parcel: null, rows: [], splitting: false, busy: false, note: null });
  },
};

// Batch mode collects scans and closes them together: an armed "packages" would never get its scan
// (scan/deskCommand.ts armPackages refuses it there).
useScans.subscribe((s, prev) => {
  if (s.batchMode && !prev.batchMode && usePackages.getState().armed) packages.arm(false);
});

// While armed, the next parcel scanned (the Station box, or a scan anywhere) opens its packages;
// while a parcel's packages are open, a scan is theirs (packages.scanned).
addScanTaker((code) => {
  if (usePackages.getState().parcel) {
    void packages.scanned(code);
    return true;
  }
  if (!usePackages.getState().armed) return false;
  void packages.open(code);
  return true;
});
