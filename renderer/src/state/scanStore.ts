/**
 * The station screen's live state: the newest scan outcome (the full-screen feedback), the recent
 * outcomes, the scans still in the core's line, the day's counters, the last labels'
 * previews, and the batch (collected codes, the last close-all summary).
 *
 * Scans are fire-and-forget: `submit` sends `scan.submit` and returns at once; the outcome comes
 * as a `scan.outcome` event. The core keeps the scans in order (in its journal), so the page never
 * waits for one scan before sending the next and no scan is lost.
 */
import { create } from 'zustand';
import type { PreviewPage } from '../../../shared/contract/printing';
import {
  RECENT_LABELS,
  RECENT_SCANS,
  type BatchItem,
  type BatchSummary,
  type DeskRecent,
  type PendingScan,
  type RecentScan,
  type ScanCounters,
  type ScanOutcome,
} from '../../../shared/contract/workflows';
import { readDeskCode } from '../../../shared/scan/deskCodes';
import { MAX_CODE_LENGTH } from '../../../shared/scan/normaliseScan';
import { errorTextNow, translate, useLanguage } from '../i18n';
import type { MainError } from '../i18n/errors';
import { askReprint, type ReprintAnswer } from '../reprint/reprintReason';
import type { RpcResult } from '../../../shared/rpcEnvelope';
import { rpc, useConnection } from '../rpc/transport';
import { newScanRef } from '../scan/scanRef';
import { keepUnanswered, keptUnanswered } from '../scan/unansweredScans';
import { shownCode } from '../scan/shownCode';
import { activeAccount, useAccounts } from './accountsStore';
import { followList, whenReconnected } from './followList';
import { usePendingScans } from './pendingScansStore';
import { useSettings } from './settingsStore';
import { useStatus } from './statusStore';
import { photoAtPrint, photoOfScan } from '../camera/stillCapture';
import type { HeldParcel, HoldWhy } from '../../../shared/contract/shelf';
import { takeArmedHold } from '../shelf/holdStore';

/**
 * A code longer than any scan is refused here, in the UI language: the core would refuse it
 * too, but only with its English parameter message (shared/contract/workflows.ts scannedCode).
 */
function tooLong(code: string): string | null {
  return code.trim().length > MAX_CODE_LENGTH
    ? translate(useLanguage.getState().language, 'station.refused.tooLong', { max: MAX_CODE_LENGTH })
    : null;
}

/**
 * A desk code (command barcode, badge) is never a parcel: the scan capture acts on it before it gets
 * here; should one come anyway (a path that forgot to ask), it is not sent to be journalled as a scan.
 */
function deskCodeRefusal(code: string): string | null {
  return readDeskCode(code, useSettings.getState().settings?.scanner)
    ? translate(useLanguage.getState().language, 'command.notParcel')
    : null;
}

/** How many outcomes the "recent scans" list keeps, and how many label previews are shown (the core's bounds). */
const RECENT = RECENT_SCANS;
const PREVIEWS = RECENT_LABELS;

/** A scan's outcome as the recent-scans list keeps it (the core serves the same lines on load: `scan.recent`). */
function recentOf(o: ScanOutcome): RecentScan {
  const shipment = 'shipment' in o ? o.shipment : null;
  return {
    scanId: o.scanId,
    code: o.code,
    kind: o.kind,
    reprint: 'reprint' in o && o.reprint === true,
    waits: o.kind === 'printer_down' || (o.kind === 'queued' && !!o.reason),
    carrier: shipment?.carrier ?? (o.kind === 'carrier_rejected' ? o.carrier : null),
    recipientName: shipment?.recipientName ?? (o.kind === 'cancelled' ? o.recipientName : null),
    jobIds: 'jobIds' in o ? o.jobIds : [],
  };
}

export interface LabelPreview {
  jobId: number;
  carrier: string;
  page: PreviewPage;
}

/** What the big feedback area shows: an outcome, a scan on its way, or a refusal of the call itself. */
export type Feedback =
  /** `batch`: batch mode's weight check (or its held parcel): answered by collecting the code again, not by the scan line. */
  | { type: 'outcome'; outcome: ScanOutcome; answered: boolean; batch?: true }
  | { type: 'working'; code: string }
  /**
   * `reason`: the core's (or the transport's) error, worded in the language on screen when drawn (a
   * page reloaded mid-scan hears a refusal before its language setting arrives), or the page's own
   * sentence, worded as it refused.
   */
  | { type: 'refused'; code: string; reason: MainError | string }
  /** A parcel the worker put on the problem shelf (an armed hold took the scan): nothing was sent. */
  | { type: 'shelved'; parcel: HeldParcel };

/**
 * A question to the worker on screen, not yet answered: the already-closed one (Enter reprints, Esc
 * skips), the weight check (Enter accepts the weight, Esc holds the parcel) or a held parcel's
 * (Enter closes and prints it, Esc leaves it on the problem shelf).
 */
export function openQuestionOf(f: Feedback | null) {
  return f?.type === 'outcome' &&
    (f.outcome.kind === 'already_closed' || f.outcome.kind === 'weight_check' || f.outcome.kind === 'on_shelf') &&
    !f.answered
    ? f.outcome
    : null;
}

interface ScanState {
  feedback: Feedback | null;
  /** Bumped on every new feedback so the screen can play its sound once. */
  feedbackSeq: number;
  recent: RecentScan[];
  pending: PendingScan[];
  counters: ScanCounters | null;
  previews: LabelPreview[];
  batchMode: boolean;
  batchItems: BatchItem[];
  /** The last collected item (its status is the batch-mode feedback). */
  batchLast: BatchItem | null;
  batchBusy: boolean;
  batchSummary: BatchSummary | null;
  batchError: string | null;

  load(): Promise<void>;
  submit(code: string): void;
  /** A scan sent by another way (packages at the desk): its outcome shows as a scan's. */
  follow(scanId: number, code: string): void;
  /** A code refused before it became a scan (packages at the desk could not open it). */
  refuse(code: string, error: MainError): void;
  /** Enter on the open question: reprint an already_closed shipment, or accept the weight check's weight. */
  reprint(): Promise<void>;
  /** Esc on the open question: skip the already_closed shipment, or hold the parcel at the weight check. */
  skip(): Promise<void>;
  dismiss(): void;
  setBatchMode(on: boolean): void;
  /** `acceptWeight`: Enter on batch mode's weight check (the code is weighed again and collected). */
  collect(code: string, acceptWeight?: boolean): Promise<void>;
  removeFromBatch(code: string): Promise<void>;
  clearBatch(): Promise<void>;
  closeAll(): Promise<void>;
}

/** Who takes a scan before the line does (packages at the desk while armed): true when one took it. */
type ScanTaker = (code: string) => boolean;
const scanTakers: ScanTaker[] = [];
export function addScanTaker(take: ScanTaker): void {
  if (!scanTakers.includes(take)) scanTakers.push(take);
}

export const useScans = create<ScanState>((set, get) => {
  const show = (feedback: Feedback) => set((s) => ({ feedback, feedbackSeq: s.feedbackSeq + 1 }));
  const refusedBy = (code: string, reason: MainError): Feedback => ({ type: 'refused', code, reason });

  const refreshCounters = async () => {
    const r = await rpc.request('scan.counters', {});
    if (r.ok) set({ counters: r.value });
  };

  /**
   * The recent scans and the last labels as the core keeps them (journal, scan log, print queue):
   * on load (a reload, a new page) and when a label of them was cancelled. Scans whose outcome
   * came while it loaded stay; the previews already here are not fetched again.
   */
  const loadRecent = async () => {
    const r = await rpc.request('scan.recent', {});
    if (!r.ok) return;
    const served: DeskRecent = r.value;
    const known = new Set(served.scans.map((x) => x.scanId));
    set((s) => ({
      recent: [...served.scans, ...s.recent.filter((x) => !known.has(x.scanId))]
        .sort((a, b) => b.scanId - a.scanId)
        .slice(0, RECENT),
    }));
    const had = new Map(get().previews.map((p) => [p.jobId, p]));
    const previews: LabelPreview[] = [];
    for (const { jobId, carrier } of served.labels) {
      const kept = had.get(jobId);
      if (kept) {
        previews.push(kept);
        continue;
      }
      const pr = await rpc.request('printing.preview', { jobId });
      const page = pr.ok ? pr.value[0] : undefined;
      if (page) previews.push({ jobId, carrier, page });
    }
    set({ previews });
  };

  /** Printed or queued labels: fetch the first page of each job (newest first) for the "last labels" strip. */
  const loadPreviews = async (jobs: { jobId: number; carrier: string }[]) => {
    const fresh: LabelPreview[] = [];
    for (const { jobId, carrier } of jobs.slice(-PREVIEWS).reverse()) {
      const r = await rpc.request('printing.preview', { jobId });
      const page = r.ok ? r.value[0] : undefined;
      if (page) fresh.push({ jobId, carrier, page });
    }
    if (fresh.length)
      set((s) => ({
        previews: [...fresh, ...s.previews.filter((p) => !fresh.some((f) => f.jobId === p.jobId))].slice(0, PREVIEWS),
      }));
  };

  /**
   * Scans this page sent whose outcome has not come yet. The core's line (`scan.pending`)
   * lets a scan go once it is closed, while its outcome still waits for the printer: without these
   * "Scans in progress" would be empty while scans are in flight.
   */
  const inFlight = new Map<number, PendingScan>();
  /** Outcomes already here (an outcome may overtake the answer to its own submit). */
  const answered = new Set<number>();
  /**
   * Scans whose outcome says they are done with (closed, refused, not found...): the line's
   * changes come gathered (up to half a second late in a burst), so one may still be listed when
   * its outcome is here; it is not shown as in progress meanwhile.
   */
  const finished = new Set<number>();
  let mainPending = usePendingScans.getState().scans;
  const publishPending = () => {
    const extra = [...inFlight.values()].filter((p) => !mainPending.some((m) => m.scanId === p.scanId));
    set({
      pending: [...extra, ...mainPending.filter((p) => !finished.has(p.scanId))].sort((a, b) => a.scanId - b.scanId),
    });
  };
  const sent = (scanId: number, code: string) => {
    if (answered.has(scanId)) return;
    inFlight.set(scanId, { scanId, code, receivedAt: new Date().toISOString(), state: 'working', reason: null });
    publishPending();
  };

  // A scan's labels that change after its outcome (printed, cancelled, waiting anew) come as the
  // core's later record of it (`scan.outcome` marked `update`): the page derives none of it itself.
  rpc.on('printing.jobs', (change) => {
    const s = get();
    // A label of the recent scans or the last labels was cancelled: the core says what they are now.
    const cancelled = change.jobs.filter((job) => job.state === 'cancelled').map((job) => job.id);
    if (cancelled.some((id) => s.previews.some((p) => p.jobId === id) || s.recent.some((r) => r.jobIds.includes(id)))) {
      void loadRecent();
      void refreshCounters();
    }
  });

  /**
   * The core's later record of a scan already told: it replaces the full-screen feedback only when
   * that shows the same scan (a newer scan keeps the screen), and its line in the recent scans;
   * no sound (the feedback's number stays), no new photo.
   */
  const onUpdate = (o: ScanOutcome) => {
    set((s) => {
      const f = s.feedback;
      const shown = f?.type === 'outcome' && f.outcome.scanId === o.scanId;
      const listed = s.recent.some((r) => r.scanId === o.scanId);
      if (!shown && !listed) return {};
      return {
        feedback: shown ? { ...f, outcome: o } : f,
        recent: listed ? s.recent.map((r) => (r.scanId === o.scanId ? recentOf(o) : r)) : s.recent,
      };
    });
    void refreshCounters();
  };

  // The code is the one the core logged: normalised, the desk scanner's affixes removed.
  const onOutcome = (o: ScanOutcome) => {
    if (o.update) return onUpdate(o);
    // A scan that waits for the service stays listed as waiting until the line's (gathered) change
    // names it: the line is then what shows it.
    const wait = inFlight.get(o.scanId);
    if (o.kind === 'service_unreachable' && wait)
      inFlight.set(o.scanId, { ...wait, state: 'waiting', reason: o.reason });
    else inFlight.delete(o.scanId);
    answered.add(o.scanId);
    if (answered.size > 500) answered.delete(answered.values().next().value!);
    // Not those that wait (the service, a login) or ask the worker (already closed, the weight check): they stay in line.
    if (!['service_unreachable', 'login_required', 'already_closed', 'weight_check', 'error'].includes(o.kind)) {
      finished.add(o.scanId);
      if (finished.size > 500) finished.delete(finished.values().next().value!);
    }
    publishPending();
    set((s) => ({ recent: [recentOf(o), ...s.recent.filter((r) => r.scanId !== o.scanId)].slice(0, RECENT) }));
    show({ type: 'outcome', outcome: o, answered: false });
    void refreshCounters();
    photoAtPrint(o);
    if (o.kind === 'printed' || o.kind === 'spooled' || o.kind === 'queued' || o.kind === 'printer_down')
      void loadPreviews(o.jobIds.map((jobId) => ({ jobId, carrier: o.shipment.carrier })));
  };
  rpc.on('scan.outcome', onOutcome);

  /** A scan's answer: its number (its outcome follows as an event), or a refusal (nothing else will come for it). */
  const heard =
    (shown: string) =>
    (r: RpcResult<{ scanId: number }>): void => {
      if (!r.ok) show(refusedBy(shown, r.error));
      else sent(r.value.scanId, shown);
    };

  /**
   * Scans whose answer was lost with the socket (`reply_lost`): sent, but whether they arrived is
   * not known. Each waits here, under the name the page gave it, until the page is connected again.
   * The list is kept in the tab (unansweredScans.ts): a page reloaded meanwhile asks about them too.
   */
  const unanswered = new Map<string, { code: string; answer: (r: RpcResult<{ scanId: number }>) => void }>();
  const keepList = () => keepUnanswered([...unanswered].map(([ref, { code }]) => ({ ref, code })));
  const restored = keptUnanswered();
  for (const { ref, code } of restored) unanswered.set(ref, { code, answer: heard(code) });

  /**
   * One scan sent under a name of its own; its answer, or, when the answer was lost with the
   * socket, the core's word once connected again: its number (it arrived; its outcome comes as any
   * other's) or `scan_not_received` (it never arrived; the worker scans it again).
   */
  const submitScan = (code: string, shown: string): Promise<RpcResult<{ scanId: number }>> => {
    const ref = newScanRef();
    return rpc.request('scan.submit', { code, ref }).then((r) =>
      !r.ok && r.error.code === 'reply_lost'
        ? new Promise<RpcResult<{ scanId: number }>>((resolve) => {
            unanswered.set(ref, { code: shown, answer: resolve });
            keepList();
          })
        : r,
    );
  };

  /**
   * Asks the core about each scan whose answer was lost; one whose question is lost too waits for
   * the next connection. A scan is answered once, however many asks (a load and a connection) overlap.
   */
  const askUnanswered = async () => {
    for (const [ref, { answer }] of [...unanswered]) {
      const r = await rpc.request('scan.submitted', { ref });
      if (!r.ok || !unanswered.delete(ref)) continue;
      keepList();
      answer(
        r.value
          ? { ok: true, value: r.value }
          : { ok: false, error: { code: 'scan_not_received', message: 'The scan did not reach the station.' } },
      );
    }
  };

  /**
   * The core's last record of each recent scan: an outcome of a scan still shown as in progress
   * comes as it would have (its sound, its screen), a later record of one already shown replaces it.
   */
  const hearTold = async () => {
    const r = await rpc.request('scan.told', {});
    if (r.ok)
      for (const o of r.value) {
        if (answered.has(o.scanId)) {
          if (o.update) onUpdate(o);
        } else if (inFlight.has(o.scanId)) onOutcome({ ...o, update: undefined });
      }
  };

  /**
   * Connected again after a loss: what the core told while the socket was down is not heard again
   * by itself. The core's last record of each recent scan catches the page up (a label that came
   * out meanwhile turns the screen green); then the recent scans and the day's counters as the core
   * has them.
   */
  const catchUp = async () => {
    // First the scans whose answer was lost: a number's `sent` runs (a microtask) while scan.told
    // is on its way, so an outcome told meanwhile that is theirs is shown as theirs.
    await askUnanswered();
    await hearTold();
    await loadRecent();
    await refreshCounters();
  };
  whenReconnected(useConnection.subscribe)(() => void catchUp());
  usePendingScans.subscribe((s) => {
    mainPending = s.scans;
    for (const p of mainPending) if (answered.has(p.scanId)) inFlight.delete(p.scanId);
    publishPending();
  });

  // Another company: its day's counters and its service status at once, not after a reload.
  let activeId: string | null | undefined;
  useAccounts.subscribe((a) => {
    const id = activeAccount(a)?.id ?? null;
    if (id === activeId) return;
    const first = activeId === undefined;
    activeId = id;
    if (first) return;
    void refreshCounters();
    void useStatus.getState().load();
  });
  // The batch: loaded whole on connect, then kept by its changes (`batch.items`).
  const batch = followList<BatchItem, string>({
    load: async () => {
      const r = await rpc.request('batch.items', {});
      return r.ok ? { version: r.value.version, list: r.value.items } : null;
    },
    key: (i) => i.code,
    // The last scan's mark follows its item (Reset demo data marks an already closed one ready again).
    publish: (batchItems) =>
      set((s) => ({
        batchItems,
        batchLast: s.batchLast && (batchItems.find((i) => i.code === s.batchLast!.code) ?? s.batchLast),
      })),
    onReconnect: whenReconnected(useConnection.subscribe),
  });
  rpc.on('batch.items', batch.apply);

  /** The scan an armed hold took: stored on the shelf (nothing sent), or refused with the core's reason. */
  const holdScan = async (code: string, shown: string, why: HoldWhy) => {
    show({ type: 'working', code: shown });
    const r = await rpc.request('shelf.hold', { code, why });
    if (!r.ok) show(refusedBy(shown, r.error));
    else show({ type: 'shelved', parcel: r.value.parcel });
  };

  /** The question on screen, if it is still open. */
  const openQuestion = () => openQuestionOf(get().feedback);
  const markAnswered = () => {
    const f = get().feedback;
    if (f?.type === 'outcome') set({ feedback: { ...f, answered: true } });
  };
  /** The question on screen is batch mode's weight check (its code is not in the batch, nothing waits in the core). */
  const batchQuestion = () => {
    const f = get().feedback;
    return f?.type === 'outcome' && f.batch === true;
  };
  /**
   * Batch mode shows its weight check and a held parcel as the single scan's outcomes (the same
   * screen and keys). They are no scan of the line: batch mode logs a code once it is collected,
   * so they carry no scan number (0).
   */
  const showBatch = (outcome: Extract<ScanOutcome, { kind: 'weight_check' | 'held' }>) =>
    show({ type: 'outcome', outcome, answered: false, batch: true });

  // The newest scan a reload left unanswered shows as it did before the reload: on its way.
  const lastRestored = restored.at(-1);
  return {
    feedback: lastRestored ? { type: 'working', code: lastRestored.code } : null,
    feedbackSeq: 0,
    recent: [],
    pending: [],
    counters: null,
    previews: [],
    batchMode: false,
    batchItems: [],
    batchLast: null,
    batchBusy: false,
    batchSummary: null,
    batchError: null,

    async load() {
      // Scans whose answer a reload of this tab left unknown: their fate first (the page connected
      // before this asks them on its connection too; each is answered once).
      if (unanswered.size) {
        await askUnanswered();
        if (inFlight.size) await hearTold();
      }
      await Promise.all([usePendingScans.getState().reload(), batch.reload(), loadRecent()]);
      await refreshCounters();
      // A weight check the line waits on (the page was reloaded while it was asked): shown again to be answered.
      const q = await rpc.request('scan.question', {});
      if (q.ok && q.value && !openQuestion()) show({ type: 'outcome', outcome: q.value, answered: false });
    },

    submit(code) {
      const refusal = tooLong(code) ?? deskCodeRefusal(code);
      // Shown as the worker knows the parcel (affixes removed); sent as scanned, the core reads it.
      const shown = shownCode(code);
      if (refusal) return show({ type: 'refused', code: shown, reason: refusal });
      // An armed hold (Ctrl+H, a hold command) takes this scan: the parcel goes on the problem shelf.
      const why = takeArmedHold();
      if (why) return void holdScan(code, shown, why);
      // Armed packages at the desk (Ctrl+B) take this scan: its packages open instead of its close.
      if (scanTakers.some((take) => take(code))) return;
      // The weight check holds the line: a parcel scanned meanwhile waits in line behind it,
      // and the question stays on screen to be answered; anything else gives way to the new scan.
      if (openQuestion()?.kind !== 'weight_check') show({ type: 'working', code: shown });
      const ack = submitScan(code, shown);
      // Camera (camera): the parcel's still, taken now and sent after the ack, off the scan's path.
      photoOfScan(ack);
      void ack.then(heard(shown));
    },

    follow(scanId, code) {
      const shown = shownCode(code);
      show({ type: 'working', code: shown });
      sent(scanId, shown);
    },

    refuse(code, error) {
      show(refusedBy(shownCode(code), error));
    },

    async reprint() {
      const q = openQuestion();
      if (!q) return;
      let answer: ReprintAnswer | null = null;
      if (q.kind === 'already_closed') {
        // The reason first (recorded with the operator); Esc keeps the question open, nothing printed.
        // A parcel of several packages: which labels too (a lost label of package 2/3 prints alone).
        answer = await askReprint(
          translate(useLanguage.getState().language, 'reprint.why.subject.code', { code: shownCode(q.code) }),
          q.shipment.packageCount,
        );
        if (!answer || openQuestion() !== q) return;
      }
      markAnswered();
      // Batch mode: Enter collects the code again, accepted; it is weighed again as it lies on the scale.
      if (q.kind === 'weight_check' && batchQuestion()) return get().collect(q.code, true);
      if (q.kind === 'weight_check') {
        show({ type: 'working', code: q.code });
        // The close and the label come as scan.outcome events; null: answered already (another page).
        const r = await rpc.request('scan.answerWeight', { scanId: q.scanId, accept: true });
        if (!r.ok) show(refusedBy(q.code, r.error));
        return;
      }
      if (q.kind === 'on_shelf') {
        show({ type: 'working', code: q.code });
        // A new scan of the parcel runs through the line; its outcome comes as a scan.outcome event.
        const r = await rpc.request('shelf.close', { holdId: q.hold.holdId });
        if (!r.ok) show(refusedBy(q.code, r.error));
        else if (r.value) sent(r.value.scanId, q.code);
        else show(refusedBy(q.code, { code: 'hold_not_found', message: '' }));
        return;
      }
      if (q.kind !== 'already_closed') return;
      show({ type: 'working', code: q.code });
      // The printed/queued outcome also comes as a scan.outcome event (same scanId).
      const r = await rpc.request('scan.reprint', {
        deliveryId: q.shipment.deliveryId,
        scanId: q.scanId,
        why: answer!.why,
        ...(answer!.packageNumber ? { packageNumber: answer!.packageNumber } : {}),
      });
      if (!r.ok) show(refusedBy(q.code, r.error));
    },

    async skip() {
      const q = openQuestion();
      if (!q) return;
      // Batch mode: Esc leaves the code out of the batch; nothing was kept of it in the core.
      if (q.kind === 'weight_check' && batchQuestion()) {
        return showBatch({
          scanId: 0,
          code: q.code,
          kind: 'held',
          deliveryId: q.shipment.deliveryId,
          recipientName: q.shipment.recipientName,
        });
      }
      markAnswered();
      // A held parcel stays on the shelf: nothing waits in the core for this answer.
      if (q.kind === 'on_shelf') return set({ feedback: null });
      const r =
        q.kind === 'weight_check'
          ? await rpc.request('scan.answerWeight', { scanId: q.scanId, accept: false })
          : await rpc.request('scan.skip', { scanId: q.scanId });
      // Null: the question was answered already (another page); the skipped outcome comes as an event otherwise.
      if (r.ok && r.value === null) set({ feedback: null });
    },

    dismiss() {
      set({ feedback: null });
    },

    setBatchMode(batchMode) {
      set({ batchMode, feedback: null, batchError: null });
    },

    async collect(code, acceptWeight) {
      set({ batchError: null, batchSummary: null, feedback: null });
      const refusal = tooLong(code) ?? deskCodeRefusal(code);
      if (refusal) return set((s) => ({ batchError: refusal, batchLast: null, feedbackSeq: s.feedbackSeq + 1 }));
      const r = await rpc.request('batch.collect', acceptWeight ? { code, acceptWeight: true } : { code });
      if (!r.ok)
        return set((s) => ({ batchError: errorTextNow(r.error), batchLast: null, feedbackSeq: s.feedbackSeq + 1 }));
      const collected = r.value;
      // Weighed far off the shipment's weight: not collected; the worker is asked, as for a single scan.
      if ('kind' in collected) {
        set({ batchLast: null });
        return showBatch({
          scanId: 0,
          code: collected.code,
          kind: 'weight_check',
          shipment: collected.shipment,
          packages: collected.packages,
        });
      }
      set((s) => ({ batchLast: collected, feedbackSeq: s.feedbackSeq + 1 }));
      // The list itself follows the `batch.items` change the collect sent (before this answer).
    },

    async removeFromBatch(code) {
      const r = await rpc.request('batch.remove', { code });
      if (r.ok) set({ batchLast: get().batchLast?.code === code ? null : get().batchLast });
    },

    async clearBatch() {
      const r = await rpc.request('batch.clear', {});
      if (r.ok) set({ batchLast: null, batchSummary: null, batchError: null });
    },

    async closeAll() {
      if (get().batchBusy) return;
      set({ batchBusy: true, batchError: null, batchSummary: null });
      const r = await rpc.request('batch.closeAll', {});
      set(
        r.ok
          ? { batchSummary: r.value, batchBusy: false, batchLast: null }
          : { batchError: errorTextNow(r.error), batchBusy: false },
      );
      if (r.ok)
        void loadPreviews(r.value.shipments.flatMap((s) => s.jobIds.map((jobId) => ({ jobId, carrier: s.carrier }))));
      void refreshCounters();
    },
  };
});
