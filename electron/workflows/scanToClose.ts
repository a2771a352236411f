/**
 * Scan-to-close: one scan -> lookup (cache, then service) -> a
 * prepared shipment is closed (spec: "PATCH /api/v3/deliveries"), the cache updated in place, its
 * labels fetched at once in the routed format and stored (reprints work offline), every package
 * label queued on the routed printer -> one outcome the UI shows full-screen.
 *
 * Nothing is lost: a scan is a journal entry committed with its scan log row before the scan is
 * acknowledged (electron/store/journalRepo.ts). The parts, in electron/workflows/scan/:
 * - receive.ts: scans committed and acknowledged, a burst in shared commits;
 * - lane.ts: the journal's unfinished scans run one at a time in scan order, after a restart too;
 * - runScan.ts: one scan from its last committed step through the one state machine of closing
 *   and printing (closeAndPrint.ts), to the outcome the worker sees;
 * - labelOutcome.ts: what the scan's labels did at their printer;
 * - outcomes.ts: the outcome in the scan log;
 * - pendingFeed.ts: the line of scans as pages know it;
 * - reprintPrompt.ts: the already-closed prompt (Enter reprints, Esc skips);
 * - weightQuestion.ts: the weight check the lane waits on, with a scale set up.
 */
import type { JournalEntry } from '../store/journalRepo';
import { toSummary } from '../store/shipmentsRepo';
import { createCloseAndPrint } from './closeAndPrint';
import type { PendingScans, PendingScansChange, ScanOutcome } from './schemas';
import type { WorkflowDeps } from './workflowDeps';
import type { DeskSteps } from './scan/deskSteps';
import { createLabelOutcome } from './scan/labelOutcome';
import { createScanLane } from './scan/lane';
import { createOutcomeLog } from './scan/outcomes';
import { createPendingFeed } from './scan/pendingFeed';
import { createScanReceiver, type Received } from './scan/receive';
import { createReprintPrompt } from './scan/reprintPrompt';
import { createScanRunner } from './scan/runScan';
import { createWeightQuestion } from './scan/weightQuestion';

export type { DeskSteps } from './scan/deskSteps';
export type { Received } from './scan/receive';
export { shipmentInfo } from './scan/outcomes';

export interface ScanToCloseOptions {
  /** How long a scan waits for its labels to leave the printer before it reports `queued` (default 8 s). */
  printWaitMs?: number;
  onOutcome?(outcome: ScanOutcome): void;
  /** What changed in the line of scans (`scan.pending`). */
  onPending?(change: PendingScansChange): void;
  /** Weighing and label checks, when the station has them (electron/scale). */
  desk?: DeskSteps;
}

export function createScanToClose(deps: WorkflowDeps, opts: ScanToCloseOptions = {}) {
  const engine = createCloseAndPrint(deps);
  const finish = createOutcomeLog(deps, opts.onOutcome);
  const report = createLabelOutcome(deps, { printWaitMs: opts.printWaitMs ?? 8000, desk: opts.desk });
  const prompt = createReprintPrompt(deps, { engine, report, finish });
  /** Entries received `close_requested` whose close the lane sends without a second commit. */
  const closeNotSent = new Set<number>();
  // The lane and its feed know each other: the feed shows which scan works, the lane says what changed.
  let working = (): number | null => null;
  const feed = createPendingFeed(deps.repos.journal, () => working(), opts.onPending);
  const weights = createWeightQuestion(
    (entryId, o) => lane.deliver(entryId, o),
    () => lane.stopped(),
  );
  const runner = createScanRunner(deps, {
    engine,
    report,
    prompt,
    askWeight: weights.ask,
    closeNotSent,
    desk: opts.desk,
  });
  const lane = createScanLane(deps, { run: runner.run, fail: runner.fail, finish, changed: feed.changed });
  working = lane.working;
  const receiver = createScanReceiver(deps, { lane, closeNotSent, changed: feed.changed, desk: opts.desk });

  return {
    /**
     * One scan as the scanner typed it: committed (scan log + journal) before it is acknowledged
     * with its number; its outcome comes later (`done`, also sent to onOutcome). `pageRef`: the
     * page's name for it (`submitted` finds it by that name).
     */
    submit: (raw: string, pageRef?: string): Promise<Received> => receiver.submit(raw, pageRef),

    /** The scan a page sent under `pageRef`: its number, or null when it never arrived. */
    submitted: (pageRef: string): { scanId: number } | null => {
      const scanId = deps.repos.scanLog.byPageRef(pageRef);
      return scanId === null ? null : { scanId };
    },

    /** submit(), waiting for the outcome. */
    scan: (raw: string): Promise<ScanOutcome> => receiver.submit(raw).then((r) => r.done),

    /** The worker confirmed the reprint of an already-closed shipment (Enter). Prints the stored labels, or fetches them. */
    reprint: prompt.reprint,

    /**
     * The worker's answer to the weight check: accept (Enter) sends the weight, closes and prints;
     * hold (Esc) ends the scan as `held`. Null when no such question is open. What follows comes as
     * `scan.outcome` events.
     */
    answerWeight: weights.answer,

    /** The weight check open now, for a page that (re)loads while it is asked. */
    question: weights.current,

    /** The worker declined the reprint (Esc). */
    skip: prompt.skip,

    pending: feed.pending,

    /** The whole line with the version of the last change sent: what a page loads on (re)connect. */
    pendingList: (): PendingScans => feed.list(),

    /** Starts the scan lane: unfinished scans of the last run resume first, in scan order. */
    start(): void {
      feed.open();
      lane.start();
    },

    /** The service answers again, or a login happened: waiting scans run now instead of at their retry time. */
    wake(): void {
      deps.repos.journal.wakeWaiting('scan', deps.clock.now());
      void lane.drain();
    },

    /** Runs due scans (the station's tick). */
    tick(): void {
      void lane.drain();
    },

    /** Stops taking the next scan and waits (bounded) for the one in flight. */
    async stop(boundMs = 10_000): Promise<void> {
      await lane.stop(boundMs, () => {
        // An open weight check lets the lane go: the entry stays `resolved`, asked again at the next start.
        weights.release();
        // Scans that arrived and wait for their commit are received now, while the database is
        // open: acknowledged, they run at the next start.
        receiver.receiveAll();
      });
      // The last changes go out now, while the database is open; later ones (a label finishing
      // while the printers close) are not read any more.
      feed.close();
    },

    /** Waits until no scan can run now (tests, benchmarks). */
    idle: lane.idle,

    /** The journal entry the lane works on now, or null (a hold refuses a parcel in work). */
    working: lane.working,

    /**
     * A scan is on its way to its label now, and no person is asked about it (an open weight
     * check waits for the worker, not for the station): background work gives way (retention).
     */
    inWork: (): boolean => lane.inWork() && weights.current() === null,

    /**
     * Inside the commit of a hold (electron/workflows/problemShelf.ts): the parcel's scans in line
     * end held, so the lane never closes them.
     */
    endHeld(entries: JournalEntry[], at: Date): void {
      if (!entries.length) return;
      deps.repos.journal.step(
        entries.map((e) => e.id),
        'ended',
        at,
        {
          outcome: 'held',
          reasonCode: 'parcel_held',
          reason: 'The worker put the parcel on the problem shelf while its scan waited: nothing was sent.',
        },
      );
    },

    /** After the hold's commit: the ended scans' outcome is told, and the line goes on without them. */
    heldTold(entries: JournalEntry[], deliveryId: number | null): void {
      for (const e of entries) {
        const id = e.deliveryId ?? deliveryId;
        const s = id === null ? null : deps.repos.shipments.get(e.accountId, id);
        lane.deliver(e.id, {
          scanId: e.scanId ?? 0,
          code: e.code ?? '',
          kind: 'held',
          deliveryId: id ?? 0,
          recipientName: s ? toSummary(s).recipientName : '',
        });
        feed.changed(e.id);
      }
      if (entries.length) void lane.drain();
    },

    /**
     * Enter on a held parcel's question: a new scan of it (its own scan-log row), committed
     * `resolved`, that the lane runs as any scan (weighed, closed, printed); its number. Packages
     * sent at the desk close the same way; `before` records on the entry, before the lane takes it,
     * what the desk did already (the weights it sent: electron/workflows/packagesAtDesk.ts).
     */
    closeHeld(h: { accountId: string; code: string; deliveryId: number }, before?: (entryId: number) => void): number {
      const at = deps.clock.now();
      const scanId = deps.repos.scanLog.record({
        accountId: h.accountId,
        code: h.code,
        scannedAt: at,
        deliveryId: h.deliveryId,
      });
      const [entry] = deps.repos.journal.begin(
        [
          {
            accountId: h.accountId,
            source: 'scan',
            scanId,
            code: h.code,
            deliveryId: h.deliveryId,
            want: 'close_and_print',
          },
        ],
        at,
      );
      before?.(entry!.id);
      feed.changed(entry!.id);
      void lane.drain();
      return scanId;
    },
  };
}

export type ScanToClose = ReturnType<typeof createScanToClose>;
