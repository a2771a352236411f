/**
 * The durable print queue (issue 6). A job row is committed before its first byte leaves;
 * states queued -> sending -> sent -> done, or failed (with a retry time while nothing reached the
 * printer, without one when the printer has it but cannot print), or uncertain (outcome unknown:
 * shown to the worker, sent again only on their word). Jobs drain in order per printer (a failed
 * head waits for its retry and holds the ones behind it) and in parallel across printers.
 *
 * Close-and-print jobs hold scans made while the service was unreachable; an injected runner
 * closes the shipment and returns its print jobs, in scan order, when the service is back.
 */
import type { Clock } from '../clock';
import { StationError } from '../stationError';
import type { PrinterDriver } from '../printing/printerDriver';
import { PrintError } from '../printing/printerDriver';
import type { NewPrintJob, PrintJobsRepo, StoredJob } from '../store/printJobsRepo';
import { backoffDelay, defaultBackoff, type BackoffPolicy } from './backoff';

export type CloseAndPrintResult =
  | { ok: true; prints: NewPrintJob[] }
  | { ok: false; code: string; message: string; retryable: boolean };

/** Closes the shipment behind a scan and returns its labels as print jobs (lives in the station core). */
export type CloseAndPrintRunner = (scanCode: string) => Promise<CloseAndPrintResult>;

export interface PrintQueueOptions {
  jobs: PrintJobsRepo;
  clock: Clock;
  driverFor(printerId: string): PrinterDriver | undefined;
  closeAndPrint?: CloseAndPrintRunner;
  backoff?: BackoffPolicy;
  /** How often due retries are looked for. */
  tickMs?: number;
  onJobChanged?(job: StoredJob): void;
  onPrinterResult?(printerId: string, error: PrintError | null): void;
}

const CLOSE_LANE = '\u0000close-and-print';

export function createPrintQueue(opts: PrintQueueOptions) {
  const { jobs, clock } = opts;
  const policy = opts.backoff ?? defaultBackoff;
  const running = new Map<string, Promise<void>>();
  let runner = opts.closeAndPrint;
  let stopTick: (() => void) | null = null;
  let stopped = false;

  const changed = (job: StoredJob) => {
    opts.onJobChanged?.(job);
    return job;
  };
  const setState = (id: number, ...rest: Parameters<PrintJobsRepo['setState']> extends [number, ...infer R] ? R : never) =>
    changed(jobs.setState(id, ...rest));

  const isDue = (job: StoredJob | undefined) =>
    !!job && (job.state === 'queued' || (job.nextRetryAt !== null && Date.parse(job.nextRetryAt) <= clock.now().getTime()));

  async function drainPrinter(printerId: string): Promise<void> {
    for (;;) {
      if (stopped) return;
      const head = jobs.laneHead(printerId);
      if (!head || !isDue(head)) return;
      const now = clock.now();
      const driver = opts.driverFor(printerId);
      if (!driver) {
        setState(head.id, 'failed', now, {
          reasonCode: 'no_printer',
          reason: `The printer "${printerId}" is not set up on this station. Add it in Settings, or reprint to another printer.`,
          nextRetryAt: new Date(now.getTime() + backoffDelay(head.attempts + 1, policy)).toISOString(),
          attempt: true,
        });
        return;
      }
      const payload = jobs.payload(head.id);
      // Committed before the first byte leaves: a crash from here on leaves `sending`, which the
      // next start turns into `uncertain` rather than printing it again.
      setState(head.id, 'sending', now, { attempt: true, delivered: head.delivered });
      let accepted = false;
      try {
        await driver.print(
          { format: head.format ?? 'zpl', bytes: payload ?? Buffer.alloc(0), title: head.title, copies: head.copies, labelSize: head.labelSize },
          () => {
            accepted = true;
            setState(head.id, 'sent', clock.now(), { delivered: true });
          },
        );
        setState(head.id, 'done', clock.now(), { delivered: true });
        opts.onPrinterResult?.(printerId, null);
      } catch (err) {
        const e = err instanceof PrintError ? err : new PrintError('printer_error', err instanceof Error ? err.message : String(err), 'unknown');
        opts.onPrinterResult?.(printerId, e);
        const at = clock.now();
        if (e.outcome === 'not_sent' && !accepted) {
          const attempts = head.attempts + 1;
          setState(head.id, 'failed', at, {
            reasonCode: e.code,
            reason: e.message,
            nextRetryAt: new Date(at.getTime() + backoffDelay(attempts, policy)).toISOString(),
            delivered: head.delivered,
          });
          return; // the head holds the lane until its retry time: labels keep their order
        }
        if (e.outcome === 'not_printed' || accepted) {
          setState(head.id, 'failed', at, { reasonCode: e.code, reason: e.message, nextRetryAt: null, delivered: true });
        } else {
          setState(head.id, 'uncertain', at, { reasonCode: e.code, reason: e.message, delivered: true });
        }
      }
    }
  }

  async function drainCloseAndPrint(): Promise<void> {
    for (;;) {
      if (stopped || !runner) return;
      const head = jobs.closeLaneHead();
      if (!head || !isDue(head)) return;
      setState(head.id, 'sending', clock.now(), { attempt: true });
      let result: CloseAndPrintResult;
      try {
        result = await runner(head.scanCode ?? '');
      } catch (err) {
        result = { ok: false, code: 'runner_failed', message: err instanceof Error ? err.message : String(err), retryable: true };
      }
      const at = clock.now();
      if (result.ok) {
        const done = jobs.completeCloseJob(head.id, result.prints, at);
        changed(done.close);
        done.prints.forEach(changed);
        kick();
        continue;
      }
      if (result.retryable) {
        setState(head.id, 'failed', at, {
          reasonCode: result.code,
          reason: result.message,
          nextRetryAt: new Date(at.getTime() + backoffDelay(head.attempts + 1, policy)).toISOString(),
        });
        return; // scan order: later scans wait behind this one
      }
      setState(head.id, 'failed', at, { reasonCode: result.code, reason: result.message, nextRetryAt: null });
    }
  }

  function startLane(lane: string) {
    if (running.has(lane) || stopped) return;
    const task = (lane === CLOSE_LANE ? drainCloseAndPrint() : drainPrinter(lane)).finally(() => {
      running.delete(lane);
      // Work that arrived while the lane was finishing starts now rather than at the next tick.
      const head = lane === CLOSE_LANE ? (runner ? jobs.closeLaneHead() : undefined) : jobs.laneHead(lane);
      if (isDue(head)) startLane(lane);
    });
    running.set(lane, task);
  }

  /** Starts every lane that has due work. Cheap; called on enqueue, on a tick, when a printer or the service returns. */
  function kick(): void {
    if (stopped) return;
    // Only lanes whose head is due: a head waiting for its retry time starts at a later tick.
    for (const lane of jobs.lanesWithWork()) if (!running.has(lane) && isDue(jobs.laneHead(lane))) startLane(lane);
    if (runner && !running.has(CLOSE_LANE) && isDue(jobs.closeLaneHead())) startLane(CLOSE_LANE);
  }

  function mustGet(id: number): StoredJob {
    const job = jobs.get(id);
    if (!job) throw new StationError('job_not_found', `Print job ${id} does not exist.`, { jobId: id });
    return job;
  }

  return {
    /** Recovers what a crash left behind, then starts draining. */
    start() {
      stopped = false;
      const r = jobs.recoverAfterCrash(clock.now());
      for (const id of [...r.uncertain, ...r.done, ...r.requeued]) changed(jobs.get(id)!);
      stopTick = clock.setInterval(kick, opts.tickMs ?? 500);
      kick();
      return r;
    },
    kick,
    enqueue(job: NewPrintJob): StoredJob {
      const stored = changed(jobs.insert(job, clock.now()));
      kick();
      return stored;
    },
    enqueueCloseAndPrint(scanCode: string): StoredJob {
      const stored = changed(jobs.insert({ kind: 'close-and-print', scanCode }, clock.now()));
      kick();
      return stored;
    },
    setCloseAndPrintRunner(fn: CloseAndPrintRunner | undefined) {
      runner = fn;
      kick();
    },
    get: mustGet,
    cancel(id: number): StoredJob {
      const job = mustGet(id);
      if (!['queued', 'failed', 'uncertain'].includes(job.state)) {
        throw new StationError('job_not_cancellable', `Print job ${id} is ${job.state}; only queued, failed or uncertain jobs can be cancelled.`, { jobId: id, state: job.state });
      }
      return setState(id, 'cancelled', clock.now(), { reasonCode: 'cancelled_by_worker', delivered: job.delivered });
    },
    retryNow(id: number): StoredJob {
      const job = mustGet(id);
      if (job.state !== 'failed') {
        throw new StationError(
          'job_not_retryable',
          job.state === 'uncertain'
            ? `Print job ${id} may have printed. Check the printer, then choose "reprint" or "it printed".`
            : `Print job ${id} is ${job.state}; only failed jobs can be retried.`,
          { jobId: id, state: job.state },
        );
      }
      const out = setState(id, 'queued', clock.now(), { reasonCode: 'retry_by_worker', delivered: job.delivered });
      kick();
      return out;
    },
    /** A new job with the same labels, linked to the first. For an uncertain job this is the worker's "it did not print". */
    reprint(id: number): StoredJob {
      const job = mustGet(id);
      if (job.kind !== 'print' || !job.printerId || !job.format) {
        throw new StationError('job_not_printable', `Job ${id} is a scan waiting to be closed; it has no labels to reprint yet.`, { jobId: id });
      }
      if (job.state === 'sending' || job.state === 'sent') {
        throw new StationError('job_busy', `Print job ${id} is being printed right now. Wait for it to finish.`, { jobId: id });
      }
      const now = clock.now();
      const copy = jobs.insert(
        {
          kind: 'print',
          printerId: job.printerId,
          format: job.format,
          payload: jobs.payload(id) ?? Buffer.alloc(0),
          labelSize: job.labelSize,
          labelRef: job.labelRef,
          title: job.title,
          deliveryIds: job.deliveryIds,
          barcodes: job.barcodes,
          copies: job.copies,
          reprintOf: id,
        },
        now,
      );
      changed(copy);
      if (job.state === 'uncertain' || job.state === 'failed' || job.state === 'queued') {
        setState(id, 'cancelled', now, { reasonCode: 'replaced_by_reprint', reason: `Reprinted as job ${copy.id}.`, delivered: job.delivered });
      }
      kick();
      return jobs.get(copy.id)!;
    },
    /** The worker saw the label come out: an uncertain (or printer-failed) job becomes done without printing again. */
    markPrinted(id: number): StoredJob {
      const job = mustGet(id);
      if (job.state !== 'uncertain' && !(job.state === 'failed' && job.delivered)) {
        throw new StationError('job_not_uncertain', `Print job ${id} is ${job.state}; only an uncertain job can be confirmed as printed.`, { jobId: id, state: job.state });
      }
      return setState(id, 'done', clock.now(), { reasonCode: 'confirmed_by_worker', delivered: true });
    },
    list: (o: { states?: StoredJob['state'][]; limit: number; beforeId?: number }) => jobs.list(o),
    history: (id: number) => (mustGet(id), jobs.history(id)),
    /** Runs due work until every lane is idle (tests, shutdown). */
    async settle(): Promise<void> {
      for (;;) {
        kick();
        if (running.size === 0) return;
        await Promise.all([...running.values()]);
      }
    },
    async stop(): Promise<void> {
      stopped = true;
      stopTick?.();
      stopTick = null;
      await Promise.all([...running.values()]);
    },
  };
}

export type PrintQueue = ReturnType<typeof createPrintQueue>;
