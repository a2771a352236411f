/**
 * Command barcodes (shared/scan/deskCodes.ts) acted on wherever the focus is: a scan that is a
 * desk command does what its key does, before any screen's scan route sees it, and never reaches
 * `scan.submit` (the core would journal it as a parcel). One small map, command → what its key does:
 *
 * - reprint_last (Ctrl+P on the Station screen): the newest label of this desk (the core's "last
 *   labels", none cancelled) is printed again after the reprint question (the reason);
 * - cancel_parcel (Ctrl+Delete): the newest scan's labels still waiting in the print queue are
 *   cancelled (commands.cancelParcel); nothing waiting: "nothing to cancel";
 * - batch_toggle (F5), close_all (Ctrl+Enter in batch mode), next_package (F10, the scale's skip);
 * - sign_out: the operators' sign-out;
 * - hold_missing_item, hold_damaged, hold_wrong_address, hold_other (Ctrl+H, then 1–4): the next
 *   parcel scanned goes on the problem shelf for that reason (other: after a few words);
 * - packages_open (Ctrl+B): the next parcel scanned opens its packages; package_add (Insert),
 *   package_remove (Delete), package_weigh (W), packages_split (S, then 2–9), packages_send
 *   (Ctrl+Enter) act on the parcel whose packages are open (packages/packagesStore.ts).
 *
 * Each one says what it did in a short note (CommandNote.tsx); an unknown desk code is refused.
 */
import { create } from 'zustand';
import { readDeskCode, type DeskCommand } from '../../../shared/scan/deskCodes';
import { errorTextNow, translate, useLanguage } from '../i18n';
import type { MessageKey } from '../i18n/en';
import { askReprint } from '../reprint/reprintReason';
import { jobQuestion } from '../reprint/jobSubject';
import { reprintSubject } from '../reprint/reprintSubject';
import { rpc } from '../rpc/transport';
import { useScans } from '../state/scanStore';
import { useSettings } from '../state/settingsStore';
import { useScale } from '../screens/station/WeighPanel';
import type { HoldWhy } from '../../../shared/contract/shelf';
import { armHold, askAndArm, useHold } from '../shelf/holdStore';
import { packages, usePackages } from '../packages/packagesStore';

/** The note a command leaves: what it did (ok), found nothing to do (none), or could not do (bad). */
export interface CommandNote {
  seq: number;
  command: DeskCommand | 'unknown';
  tone: 'ok' | 'none' | 'bad';
  text: string;
}
export const useCommandNote = create<{ note: CommandNote | null; hide(): void }>((set) => ({
  note: null,
  hide: () => set({ note: null }),
}));

let seq = 0;
const tr = (key: MessageKey, params?: Record<string, string | number>) =>
  translate(useLanguage.getState().language, key, params);
function say(command: CommandNote['command'], tone: CommandNote['tone'], text: string) {
  useCommandNote.setState({ note: { seq: ++seq, command, tone, text } });
}
const failed = (command: DeskCommand, e: Parameters<typeof errorTextNow>[0]) =>
  say(command, 'bad', tr('command.failed', { reason: errorTextNow(e) }));

/**
 * Ctrl+P: the newest label of this desk again, after the worker says why. A parcel of several
 * packages is asked which labels too, as every other reprint asks (the reprint question's ← →:
 * all, or one package's alone; its number keys answer the reason), so a lost label of package 2/3
 * prints only that label.
 */
export async function reprintLast(): Promise<void> {
  const recent = await rpc.request('scan.recent', {});
  if (!recent.ok) return failed('reprint_last', recent.error);
  const last = recent.value.labels[0];
  if (!last) return say('reprint_last', 'none', tr('command.none.reprint_last'));
  // Named as the worker knows the parcel (its code, its recipient): the recent scan that printed it.
  const scan = recent.value.scans.find((s) => s.jobIds.includes(last.jobId));
  const job = await jobQuestion(tr, last.jobId);
  const answer = await askReprint(
    scan ? reprintSubject(tr, [{ code: scan.code, recipient: scan.recipientName }]) : job.subject,
    job.packages,
  );
  if (!answer) return say('reprint_last', 'none', tr('command.cancelled.reprint_last'));
  const r = await rpc.request('printing.queue.reprint', { jobId: last.jobId, ...answer });
  if (!r.ok) return failed('reprint_last', r.error);
  say(
    'reprint_last',
    'ok',
    answer.packageNumber
      ? tr('command.done.reprint_last.package', { id: last.jobId, n: answer.packageNumber, of: job.packages })
      : tr('command.done.reprint_last', { id: last.jobId }),
  );
}

/**
 * Ctrl+B (or its code): the next parcel scanned opens its packages. Batch mode collects scans and
 * closes them all at once, so a parcel's packages cannot open there: said in words, nothing armed.
 * The key says nothing when it armed (the Station screen's banner does); the code does.
 */
export function armPackages(by: 'key' | 'code' = 'code'): void {
  if (useScans.getState().batchMode) return say('packages_open', 'bad', tr('packages.batchMode'));
  packages.arm();
  if (by === 'code') say('packages_open', 'ok', tr('command.done.packages_open'));
}

// The packages code's note says what the next scan does: it goes once that scan took it (or Esc dropped it).
usePackages.subscribe((s, prev) => {
  const note = useCommandNote.getState().note;
  if (prev.armed && !s.armed && note?.command === 'packages_open' && note.tone === 'ok')
    useCommandNote.getState().hide();
});

/** Ctrl+Delete: the newest scan's labels that still wait in the queue are cancelled. */
export async function cancelParcel(): Promise<void> {
  const r = await rpc.request('commands.cancelParcel', {});
  if (!r.ok) return failed('cancel_parcel', r.error);
  const c = r.value.cancelled;
  if (!c) return say('cancel_parcel', 'none', tr('command.none.cancel_parcel'));
  say('cancel_parcel', 'ok', tr('command.done.cancel_parcel', { code: c.code }));
}

// The note of a hold command says what the next scan does: it goes once that scan took the hold (or Esc dropped it).
useHold.subscribe((s, prev) => {
  if (prev.armed && !s.armed && useCommandNote.getState().note?.command.startsWith('hold_'))
    useCommandNote.getState().hide();
});

/** A hold command barcode: the next parcel scanned goes on the problem shelf for its reason. */
function armByCommand(command: DeskCommand, why: HoldWhy): void {
  armHold(why);
  say(command, 'ok', tr('shelf.command.armed', { reason: tr(`shelf.reason.${why.code}`) }));
}

/** A packages command acts on the parcel whose packages are open; with none open it says so. The panel shows what it did. */
async function onOpenPackages(command: DeskCommand, act: () => Promise<void> | void): Promise<void> {
  if (!usePackages.getState().parcel) return say(command, 'none', tr('command.none.packages'));
  await act();
}

const commands: Record<DeskCommand, () => Promise<void> | void> = {
  reprint_last: reprintLast,
  cancel_parcel: cancelParcel,
  batch_toggle() {
    const scans = useScans.getState();
    const on = !scans.batchMode;
    scans.setBatchMode(on);
    say('batch_toggle', 'ok', tr(on ? 'command.done.batch_on' : 'command.done.batch_off'));
  },
  async close_all() {
    const scans = useScans.getState();
    if (!scans.batchMode) return say('close_all', 'none', tr('command.none.close_all'));
    say('close_all', 'ok', tr('command.done.close_all'));
    await scans.closeAll();
  },
  async sign_out() {
    const r = await rpc.request('operators.signOut', { way: 'command' });
    if (!r.ok) return failed('sign_out', r.error);
    say('sign_out', r.value.operator ? 'bad' : 'ok', tr('command.done.sign_out'));
  },
  hold_missing_item: () => armByCommand('hold_missing_item', { code: 'missing_item' }),
  hold_damaged: () => armByCommand('hold_damaged', { code: 'damaged' }),
  hold_wrong_address: () => armByCommand('hold_wrong_address', { code: 'wrong_address' }),
  // Another reason: the worker types a few words first (the hold question, at its note).
  async hold_other() {
    const why = await askAndArm(true);
    if (!why) return say('hold_other', 'none', tr('shelf.command.cancelled'));
    say('hold_other', 'ok', tr('shelf.command.armed', { reason: why.note ?? tr('shelf.reason.other') }));
  },
  packages_open: () => armPackages('code'),
  package_add: () => onOpenPackages('package_add', packages.add),
  package_remove: () => onOpenPackages('package_remove', packages.remove),
  package_weigh: () => onOpenPackages('package_weigh', packages.weigh),
  packages_split: () => onOpenPackages('packages_split', packages.askSplit),
  packages_send: () => onOpenPackages('packages_send', packages.send),
  async next_package() {
    if (!useScale.getState().weighing) return say('next_package', 'none', tr('command.none.next_package'));
    const r = await rpc.request('scale.skipWeighing', {});
    if (!r.ok) return failed('next_package', r.error);
    say(
      'next_package',
      r.value.skipped ? 'ok' : 'none',
      tr(r.value.skipped ? 'command.done.next_package' : 'command.none.next_package'),
    );
  },
};

/**
 * A desk code that is also a key of a cached shipment (an e-shop may choose any order number, and
 * one can read as a command: shared/scan/deskCodes.ts readsAsDeskCode): named to the worker, and
 * nothing is done, neither the command nor the parcel. True when it was named.
 */
export async function namedAsShipment(code: string, command: CommandNote['command']): Promise<boolean> {
  const r = await rpc.request('commands.shipmentReadAs', { code: code.slice(0, 400) });
  if (!r.ok || !r.value.shipment) return false;
  const s = r.value.shipment;
  say(command, 'bad', tr(`command.shipmentReadAs.${s.key}`, { id: s.deliveryId, recipient: s.recipientName }));
  return true;
}

/**
 * True when `code` is a desk command (done here) or an unknown desk code (refused here); false for
 * a parcel's code and for a badge (the operators' sign-in takes those).
 */
export function takeDeskCommand(code: string): boolean {
  const d = readDeskCode(code, useSettings.getState().settings?.scanner);
  if (!d || d.kind === 'badge') return false;
  const command = d.kind === 'unknown' ? 'unknown' : d.command;
  void namedAsShipment(code, command)
    .then(async (named) => {
      if (named) return;
      if (d.kind === 'unknown') return say('unknown', 'bad', tr('command.unknown', { code: d.code }));
      await commands[d.command]();
    })
    .catch((err: unknown) =>
      say(command, 'bad', tr('command.failed', { reason: err instanceof Error ? err.message : String(err) })),
    );
  return true;
}
