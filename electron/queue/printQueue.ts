/**
 * The durable print queue. A job row is committed before its first byte leaves;
 * states queued -> sending -> sent -> done, or failed (with a retry time while nothing reached the
 * printer, without one when the printer has it but cannot print), or uncertain (outcome unknown)
 * or unconfirmed (every byte left, the printer never confirmed): both shown to the worker, sent
 * again only on their word. A job turns `sending` only when the driver is about to write, so a
 * printer that is off leaves it failed-with-retry. Jobs drain in order per printer (a failed head
 * waits for its retry, or for its printer to come back, and holds the ones behind it) and in
 * parallel across printers.
 *
 * Nothing drains before `start()`: the crash recovery runs first (a job found `sending` becomes
 * `uncertain`), so a station restarted with labels waiting never sends before it knows what the
 * last run left. Closing shipments is not the queue's work: the journal's state machine
 * (electron/workflows/closeAndPrint.ts) hands it finished print jobs.
 */
import type { Clock } from '../base/clock';
import { StationError } from '../base/stationError';
import type { CounterMark, PrinterDriver } from '../printing/printerDriver';
import { PrintError } from '../printing/printerDriver';
import type { NewPrintJob, PrintJobsRepo, StoredJob } from '../store/printJobsRepo';
import { heldForWorker, type JobState } from '../../shared/contract/printing';
import { backoffDelay, defaultBackoff, type BackoffPolicy } from './backoff';

export interface PrintQueueOptions {
  jobs: PrintJobsRepo;
  clock: Clock;
  driverFor(printerId: string): PrinterDriver | undefined;
  backoff?: BackoffPolicy;
  /** How often due retries are looked for. */
  tickMs?: number;
  onJobChanged?(job: StoredJob): void;
  onPrinterResult?(printerId: string, error: PrintError | null): void;
  /** A lane stopped on an error of the station itself (the store cannot be read or written). */
  onLaneError?(printerId: string, error: unknown): void;
  /** Resolves once every commit so far is on the disk (store/walSync.ts): a job's `sending`, before its first byte. */
  durable?(): Promise<void>;
}

/** A streaming printer's job between its last byte and its confirmation, with nothing stopping the printer. */
const inPrinterReason = {
  reasonCode: 'in_printer' as const,
  reason: "In the printer's buffer; counted printed when the printer says it came out.",
};

export function createPrintQueue(opts: PrintQueueOptions) {
  const { jobs, clock } = opts;
  const policy = opts.backoff ?? defaultBackoff;
  const running = new Map<string, Promise<void>>();
  let stopTick: (() => void) | null = null;
  /** True until start() and after stop(): nothing drains. */
  let stopped = true;

  const changed = (job: StoredJob) => {
    opts.onJobChanged?.(job);
    return job;
  };
  const setState = (
    id: number,
    ...rest: Parameters<PrintJobsRepo['setState']> extends [number, ...infer R] ? R : never
  ) => changed(jobs.setState(id, ...rest));

  const isDue = (job: StoredJob | undefined) =>
    !!job &&
    (job.state === 'queued' || (job.nextRetryAt !== null && Date.parse(job.nextRetryAt) <= clock.now().getTime()));

  /**
   * Jobs a streaming driver holds in its printer, waiting to be confirmed. They outlive the lane
   * that sent them: a lane ends when nothing is left to send, so a label queued while the previous
   * one prints starts a lane at once and goes into the printer's buffer before that one is out,
   * instead of waiting behind its confirmation.
   */
  const confirming = new Set<Promise<void>>();
  /** Jobs each printer was sent since start (their `sending`): a label counter read after a new send counts new labels too. */
  const sends = new Map<string, number>();
  const sendsOf = (printerId: string) => sends.get(printerId) ?? 0;

  /** Most jobs one burst commits `sending` together (the driver's room decides; see burstOf). */
  const MAX_BURST = 8;

  /**
   * A burst: when a streaming driver would write the head and the queued jobs behind it at once
   * (the printer has room for them now: driver.readyFor), they are committed `sending` in ONE
   * commit, whose sync (store/walSync.ts) each of them would otherwise wait for before its first byte
   * (in a batch of 500 that sync was the largest cost of a label). A crash inside the burst makes
   * every job of it `uncertain`, also the ones whose bytes had not left yet: the worker checks
   * those few labels (never a silent reprint, never a silent loss). The driver offers a burst only
   * mid-stream, on a connection whose last answer (a moment ago) was all-clear: a printer that is
   * off or paused never gets one. A lone label is one job and commits as before, in the driver's
   * `sending` hook after its status pre-check.
   */
  function burstOf(
    printerId: string,
    head: StoredJob,
    payload: Buffer | null,
    driver: PrinterDriver,
  ): { job: StoredJob; payload: Buffer | null }[] {
    if (!driver.readyFor || head.state !== 'queued') return [];
    // Read as far as the driver looks: the jobs behind the head not at all when it has no fresh
    // answer (most single labels).
    let next: StoredJob[] = [];
    const payloads: (Buffer | null)[] = [];
    function* inLane() {
      yield payload ?? Buffer.alloc(0);
      next = jobs.queuedAfter(printerId, head.id, MAX_BURST - 1);
      for (const j of next) yield (payloads[payloads.length] = jobs.payload(j.id)) ?? Buffer.alloc(0);
    }
    const n = Math.min(driver.readyFor(inLane()), next.length + 1);
    if (n < 2) return [];
    const at = clock.now();
    const marked = jobs.transaction(() =>
      [head, ...next.slice(0, n - 1)].map((j) =>
        jobs.setState(j.id, 'sending', at, { attempt: true, delivered: j.delivered }),
      ),
    );
    marked.forEach(changed);
    return marked.slice(1).map((job, i) => ({ job, payload: payloads[i]! }));
  }

  /** Jobs of a burst the lane did not get to (the printer stopped it, the station stops): back in line, nothing of them left. */
  function unmark(rest: { job: StoredJob }[]): void {
    if (!rest.length) return;
    const at = clock.now();
    const back = jobs.transaction(() =>
      rest.map(({ job }) =>
        jobs.setState(job.id, 'queued', at, {
          reasonCode: 'not_sent',
          reason: 'The labels before it did not go through; nothing of it was sent.',
          delivered: job.delivered,
        }),
      ),
    );
    back.forEach(changed);
  }

  /** A job still waiting for its attempt (not withdrawn by the worker's cancel or reprint meanwhile). */
  const isWaiting = (state: JobState | undefined) => state === 'queued' || state === 'failed';

  /** Drains a lane; what it sent is confirmed in `confirming`. */
  async function drainLane(printerId: string): Promise<void> {
    /** The rest of the current burst: committed `sending`, written next, in this order. */
    const ahead: { job: StoredJob; payload: Buffer | null }[] = [];
    try {
      await drainJobs(printerId, ahead);
    } finally {
      unmark(ahead.splice(0));
    }
  }

  async function drainJobs(printerId: string, ahead: { job: StoredJob; payload: Buffer | null }[]): Promise<void> {
    for (;;) {
      if (stopped) return;
      const inBurst = ahead.shift();
      const head = inBurst?.job ?? jobs.laneHead(printerId);
      if (!head || (!inBurst && !isDue(head))) return;
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
      const payload = inBurst ? inBurst.payload : jobs.payload(head.id);
      // Committed `sending` with the jobs behind it, or (a lone job) in the driver's hook.
      const burst = inBurst || !driver.streams ? [] : burstOf(printerId, head, payload, driver);
      ahead.push(...burst);
      const marked = !!inBurst || burst.length > 0;
      let sending = false;
      let accepted = false;
      let withdrawn = false;
      let written = false;
      let onAccepted: () => void = () => undefined;
      const acceptedNow = new Promise<'accepted'>((r) => (onAccepted = () => r('accepted')));
      /** The job's end: its state from the driver's answer; 'stop' when the lane must wait (a failed head). */
      const settled: Promise<'stop' | 'next'> = driver
        .print(
          {
            format: head.format ?? 'zpl',
            bytes: payload ?? Buffer.alloc(0),
            title: head.title,
            copies: head.copies,
            labelSize: head.labelSize,
          },
          {
            // Committed when the driver is about to write its first byte (after connecting and any
            // status pre-check), and on the disk before that write (the driver awaits the sync): a
            // crash or a power cut from here on leaves `sending`, which the next start turns into
            // `uncertain`; a printer that is off never makes a job `sending`.
            async sending(counter) {
              sends.set(printerId, sendsOf(printerId) + 1);
              if (marked) {
                // Committed with its burst: no worker action can withdraw a `sending` job. Its
                // counter mark follows lazily (a crash before it leaves the job to the worker).
                sending = true;
                if (counter)
                  jobs.setState(head.id, 'sending', clock.now(), {
                    delivered: head.delivered,
                    counter,
                    noSideEffect: true,
                  });
                return opts.durable?.();
              }
              if (!isWaiting(jobs.get(head.id)?.state)) {
                withdrawn = true; // cancelled or replaced by a reprint while the printer was reached
                throw new Error(`Print job ${head.id} was withdrawn before it was sent.`);
              }
              setState(head.id, 'sending', clock.now(), {
                attempt: true,
                delivered: head.delivered,
                ...(counter ? { counter } : {}),
              });
              sending = true;
              return opts.durable?.();
            },
            accepted() {
              accepted = true;
              // Every byte left: nothing waits on this commit's sync (see JobStateChange.noSideEffect).
              // A streaming driver's job is then in the printer's buffer, to be confirmed: so named,
              // and a restart before its confirmation leaves it uncertain, not done.
              const inPrinter = driver.streams && !written ? inPrinterReason : {};
              setState(head.id, 'sent', clock.now(), { delivered: true, noSideEffect: true, ...inPrinter });
              onAccepted();
            },
            written() {
              // Written on a connection whose close proves it later (a raw port's burst): the lane
              // goes on with the next label; this one stays `sending` (a crash: uncertain) until then.
              written = true;
              onAccepted();
            },
            note(code, reason) {
              // Why a label in the printer has not come out: its row says so; it stays `sent`.
              if (jobs.get(head.id)?.state === 'sent')
                setState(head.id, 'sent', clock.now(), {
                  reasonCode: code,
                  reason,
                  delivered: true,
                  noSideEffect: true,
                });
              // The printer's state says it too (the top bar, a scan's outcome): it holds labels it cannot print now.
              opts.onPrinterResult?.(printerId, new PrintError(code, reason, 'not_printed'));
            },
            resumed() {
              // The printer prints again: the label is in it, as when it was accepted; the stop is no longer said.
              if (jobs.get(head.id)?.state === 'sent')
                setState(head.id, 'sent', clock.now(), { delivered: true, noSideEffect: true, ...inPrinterReason });
              opts.onPrinterResult?.(printerId, null);
            },
          },
        )
        .then(
          (result): 'next' => {
            if (result.kind === 'unconfirmed') {
              // Every byte left, nothing says the printer took them: never counted as printed, the
              // worker decides (it printed / print again), as for an uncertain job.
              setState(head.id, 'unconfirmed', clock.now(), {
                reasonCode: result.code,
                reason: result.reason,
                delivered: true,
              });
            } else if (result.kind === 'spooled') {
              // The print system finished with it: never sent again by itself, never counted as printed.
              setState(head.id, 'spooled', clock.now(), {
                reasonCode: 'handed_to_spooler',
                reason: result.reason,
                delivered: true,
                noSideEffect: true,
              });
              opts.onPrinterResult?.(printerId, null);
            } else {
              const byCounter = result.byCounter
                ? {
                    reasonCode: 'confirmed_by_printer_counter' as const,
                    reason: "The printer's label counter shows it printed.",
                  }
                : {};
              setState(head.id, 'done', clock.now(), { delivered: true, noSideEffect: true, ...byCounter });
              opts.onPrinterResult?.(printerId, null);
            }
            return 'next';
          },
          (err): 'stop' | 'next' => {
            if (withdrawn) return 'next'; // the worker's cancel or reprint already set its state
            // Cancelled or replaced while the driver was still connecting or asking the printer's
            // status (no byte left): the worker's state stands, never turned back into a retry. A
            // job of a burst is `sending` by its commit, not the worker's doing (nothing withdraws
            // it): it goes on below, as any job whose first byte never left (it was left `sending`).
            if (!sending && !marked && !isWaiting(jobs.get(head.id)?.state)) return 'next';
            const e =
              err instanceof PrintError
                ? err
                : new PrintError('printer_error', err instanceof Error ? err.message : String(err), 'unknown');
            opts.onPrinterResult?.(printerId, e);
            const at = clock.now();
            // An attempt that failed before its first byte still counts, for the backoff (a job of a
            // burst was counted when the burst was committed).
            const attempt = !sending && !marked;
            // Before `sending` no byte can have left, whatever the error says: safe to retry.
            if (!sending || (e.outcome === 'not_sent' && !accepted)) {
              const attempts = head.attempts + 1;
              setState(head.id, 'failed', at, {
                reasonCode: e.code,
                reason: e.message,
                nextRetryAt: new Date(at.getTime() + backoffDelay(attempts, policy)).toISOString(),
                delivered: head.delivered,
                attempt,
              });
              return 'stop'; // the head holds the lane until its retry time: labels keep their order
            }
            // Only the printer's or the print system's own word that it did not print makes a job
            // that left `failed` (the worker prints it again). Anything else after its bytes left —
            // in the printer's buffer when the connection was lost or the printer switched off —
            // may have printed: uncertain, the worker looks (a "failed" label that came out was
            // printed twice by its Retry).
            if (e.outcome === 'not_printed') {
              setState(head.id, 'failed', at, {
                reasonCode: e.code,
                reason: e.message,
                nextRetryAt: null,
                delivered: true,
                attempt,
              });
            } else {
              setState(head.id, 'uncertain', at, { reasonCode: e.code, reason: e.message, delivered: true, attempt });
            }
            return 'next';
          },
        );
      if (driver.streams) {
        // A streaming driver has the next label sent while this one prints: once the printer holds
        // every byte of this job (or they are written on a connection whose close proves them), the
        // lane goes on, and this job's end (printed, or named as not printed) is recorded when the
        // driver confirms it. The lane ends only after all of them.
        const first = await Promise.race([acceptedNow, settled]);
        if (first === 'accepted') {
          const confirmation = settled.then(
            () => undefined,
            (err: unknown) => opts.onLaneError?.(printerId, err),
          );
          confirming.add(confirmation);
          void confirmation.finally(() => confirming.delete(confirmation));
          continue;
        }
        if (first === 'stop') return;
        continue;
      }
      if ((await settled) === 'stop') return;
    }
  }

  function startLane(lane: string) {
    if (running.has(lane) || stopped) return;
    const task = drainLane(lane)
      .catch((err: unknown) => opts.onLaneError?.(lane, err))
      .finally(() => {
        running.delete(lane);
        // Work that arrived while the lane was finishing starts now rather than at the next tick.
        // A store that cannot be read (a failing disk) is reported, never an unhandled rejection.
        try {
          if (isDue(jobs.laneHead(lane))) startLane(lane);
        } catch (err) {
          opts.onLaneError?.(lane, err);
        }
      });
    running.set(lane, task);
  }

  /**
   * Jobs a crash or a lost connection left uncertain, on printers with a label counter: settled
   * from the counter (printed once it reached the job's mark), without asking the worker. A label
   * still in the printer's buffer is counted when it comes out: the counter is read again while it
   * moves (and a few times at first), every `everyMs`, but only until the printer is sent a new
   * job: from then on the counter counts new labels as well, and a job lost with the printer's
   * buffer (switched off) would look printed. Jobs it never reaches stay uncertain. Returns the
   * ids settled.
   */
  async function settleByCounter(everyMs = 1000, firstTries = 5): Promise<number[]> {
    const settled: number[] = [];
    const byPrinter = new Map<string, { job: StoredJob; mark: CounterMark }[]>();
    for (const job of jobs.list({ states: ['uncertain'], limit: 500 })) {
      const mark = job.printerId ? jobs.counterMark(job.id) : null;
      if (!mark || !job.printerId) continue;
      byPrinter.set(job.printerId, [...(byPrinter.get(job.printerId) ?? []), { job, mark }]);
    }
    await Promise.all(
      [...byPrinter].map(async ([printerId, list]) => {
        let last: number | null = null;
        for (let tries = 0; list.length && !stopped; tries++) {
          // Only while this run has sent the printer nothing (see above): read before and checked after.
          if (sendsOf(printerId) > 0) return;
          const count = await opts
            .driverFor(printerId)
            ?.labelCounter?.()
            .catch(() => null);
          if (count === null || count === undefined || sendsOf(printerId) > 0) return;
          if (tries >= firstTries && last !== null && count <= last) return;
          last = count;
          list = list.filter(({ job, mark }) => {
            if (count < mark.counterAt + mark.labels) return true;
            if (jobs.get(job.id)?.state === 'uncertain') {
              setState(job.id, 'done', clock.now(), {
                reasonCode: 'confirmed_by_printer_counter',
                reason: `The printer's label counter (${count}) shows it printed.`,
                delivered: true,
              });
              settled.push(job.id);
            }
            return false;
          });
          if (list.length) await new Promise((r) => setTimeout(r, everyMs));
        }
      }),
    );
    return settled;
  }

  /** Starts every lane that has due work. Cheap; called on enqueue, on a tick, when a printer or the service returns. */
  function kick(): void {
    if (stopped) return;
    // Only lanes whose head is due: a head waiting for its retry time starts at a later tick.
    for (const lane of jobs.lanesWithWork()) if (!running.has(lane) && isDue(jobs.laneHead(lane))) startLane(lane);
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
      for (const id of [...r.uncertain, ...r.done]) changed(jobs.get(id)!);
      stopTick = clock.setInterval(kick, opts.tickMs ?? 500);
      kick();
      return r;
    },
    settleByCounter,
    kick,
    enqueue(job: NewPrintJob): StoredJob {
      const stored = changed(jobs.insert(job, clock.now()));
      kick();
      return stored;
    },
    /**
     * Inserts print jobs and, in the same commit, what the caller records with them (the journal's
     * links and step). `within` names waiting jobs these replace (one label per parcel): they are
     * cancelled in that commit too, and `replacedHook` is told which were (still waiting, so cancelled)
     * in it, for the journal to link their entries to the new jobs. Draining starts after the commit.
     *
     * A lazy commit: no byte of these jobs leaves before its own `sending` commit, whose sync
     * (awaited before the byte: store/walSync.ts) takes this one to the disk with it. A power cut before that loses the jobs, their links and
     * the replacement together, and the journal's entries are at their earlier step: the labels
     * are fetched again and printed once.
     */
    enqueueAll(
      prints: NewPrintJob[],
      within: (inserted: StoredJob[]) => number[],
      replacedHook?: (inserted: StoredJob[], replaced: StoredJob[]) => void,
      held?: ReadonlySet<NewPrintJob>,
    ): StoredJob[] {
      const now = clock.now();
      const { inserted, replaced } = jobs.lazyTransaction(() => {
        // A held job is committed waiting for the worker's word (heldForWorker), never queued.
        const inserted = prints.map((p) => {
          const j = jobs.insert(p, now);
          return held?.has(p)
            ? jobs.setState(j.id, 'failed', now, {
                reasonCode: 'held_closed_elsewhere',
                reason:
                  'Held for the worker: the parcel was found closed, maybe by another desk that printed its label.',
                nextRetryAt: null,
                noSideEffect: true,
              })
            : j;
        });
        const out: StoredJob[] = [];
        for (const id of within(inserted)) {
          const j = jobs.get(id);
          const waiting =
            j &&
            (j.state === 'queued' ||
              (j.state === 'failed' && j.nextRetryAt !== null && !j.delivered) ||
              heldForWorker(j));
          if (waiting)
            out.push(
              jobs.setState(id, 'cancelled', now, {
                reasonCode: 'replaced_by_new_print',
                reason: `Replaced by job ${inserted[0]?.id ?? ''}: the same labels were printed again.`,
              }),
            );
        }
        if (out.length) replacedHook?.(inserted, out);
        return { inserted, replaced: out };
      });
      [...replaced, ...inserted].forEach(changed);
      kick();
      return inserted;
    },
    get: mustGet,
    /** `record` runs in the commit that cancels it (the worker's desk action, electron/printing/printingService.ts). */
    cancel(id: number, record?: (job: StoredJob) => void): StoredJob {
      const job = mustGet(id);
      if (!['queued', 'failed', 'uncertain', 'unconfirmed'].includes(job.state)) {
        throw new StationError(
          'job_not_cancellable',
          `Print job ${id} is ${job.state}; only queued, failed, uncertain or unconfirmed jobs can be cancelled.`,
          { jobId: id, state: job.state },
        );
      }
      const now = clock.now();
      return changed(
        jobs.transaction(() => {
          const out = jobs.setState(id, 'cancelled', now, {
            reasonCode: 'cancelled_by_worker',
            delivered: job.delivered,
          });
          record?.(out);
          return out;
        }),
      );
    },
    /** `record` runs in the commit that queues it again (as for `cancel`). */
    retryNow(id: number, record?: (job: StoredJob) => void): StoredJob {
      const job = mustGet(id);
      if (job.state !== 'failed') {
        throw new StationError(
          'job_not_retryable',
          job.state === 'uncertain' || job.state === 'unconfirmed'
            ? `Print job ${id} may have printed. Check the printer, then choose "reprint" or "it printed".`
            : `Print job ${id} is ${job.state}; only failed jobs can be retried.`,
          { jobId: id, state: job.state },
        );
      }
      const now = clock.now();
      const out = changed(
        jobs.transaction(() => {
          const queued = jobs.setState(id, 'queued', now, { reasonCode: 'retry_by_worker', delivered: job.delivered });
          record?.(queued);
          return queued;
        }),
      );
      kick();
      return out;
    },
    /**
     * Its printer answers again (status probe or a print that went through): the lane's head,
     * failed with a retry time (nothing reached the printer), is due now rather than at its backoff
     * time, and the lane starts. A lane already working is left alone: it learns by itself.
     */
    printerBack(printerId: string): void {
      if (stopped || running.has(printerId)) return;
      const head = jobs.laneHead(printerId);
      if (head?.state === 'failed' && head.nextRetryAt !== null) {
        const moved = jobs.bringRetryForward(head.id, clock.now());
        if (moved) changed(moved);
      }
      if (isDue(jobs.laneHead(printerId))) startLane(printerId);
    },
    /** The lane's head when it waits on its retry time (nothing reached the printer): its printer is then watched closely, and the jobs behind it wait too. */
    waitingHead(printerId: string): StoredJob | undefined {
      const head = jobs.laneHead(printerId);
      return head?.state === 'failed' && head.nextRetryAt !== null ? head : undefined;
    },
    /**
     * A new job with the same labels, linked to the first. For an uncertain or unconfirmed job this
     * is the worker's "it did not print". `record` runs in the commit that inserts the copy (the
     * journal records it there): `within` names other jobs of the same labels, of which those still
     * waiting for their printer are cancelled in the same commit (one label per parcel);
     * `replaced` hears every job the copy replaced.
     */
    reprint(
      id: number,
      record?: { within(copy: StoredJob): number[]; replaced(copy: StoredJob, jobIds: number[]): void },
    ): StoredJob {
      const job = mustGet(id);
      if (job.kind !== 'print' || !job.printerId || !job.format) {
        throw new StationError(
          'job_not_printable',
          `Job ${id} is a scan waiting to be closed; it has no labels to reprint yet.`,
          { jobId: id },
        );
      }
      if (job.state === 'sending' || job.state === 'sent') {
        throw new StationError('job_busy', `Print job ${id} is being printed right now. Wait for it to finish.`, {
          jobId: id,
        });
      }
      // Retention (keep): a printed job's bytes leave after the labels window; a copy would print nothing.
      const payload = jobs.payload(id);
      if (!payload) {
        throw new StationError(
          'label_bytes_removed',
          `The label of print job ${id} is no longer kept (retention). Reprint the shipment from Shipments.`,
          { jobId: id },
        );
      }
      const now = clock.now();
      const { printerId, format } = job;
      const { copy, replaced } = jobs.lazyTransaction(() => {
        const copy = jobs.insert(
          {
            kind: 'print',
            printerId,
            format,
            payload,
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
        const replaced: StoredJob[] = [];
        const reason = { reasonCode: 'replaced_by_reprint' as const, reason: `Reprinted as job ${copy.id}.` };
        if (
          job.state === 'uncertain' ||
          job.state === 'unconfirmed' ||
          job.state === 'failed' ||
          job.state === 'queued'
        ) {
          replaced.push(jobs.setState(id, 'cancelled', now, { ...reason, delivered: job.delivered }));
        }
        for (const other of new Set(record?.within(copy))) {
          const j = other === id || other === copy.id ? undefined : jobs.get(other);
          if (j && (j.state === 'queued' || (j.state === 'failed' && j.nextRetryAt !== null && !j.delivered)))
            replaced.push(jobs.setState(other, 'cancelled', now, reason));
        }
        record?.replaced(
          copy,
          replaced.map((j) => j.id),
        );
        return { copy, replaced };
      });
      [...replaced, copy].forEach(changed);
      kick();
      return jobs.get(copy.id)!;
    },
    /**
     * The worker moves a waiting job (queued, or failed before any byte left) to another printer
     * that takes its format: the labels print there, once, and no longer wait for the first.
     */
    /** `record` runs in the commit that moves it (as for `cancel`). */
    moveTo(
      id: number,
      printerId: string,
      formats: ReadonlyArray<'zpl' | 'pdf'>,
      record?: (job: StoredJob) => void,
    ): StoredJob {
      const job = mustGet(id);
      const waiting = job.kind === 'print' && (job.state === 'queued' || (job.state === 'failed' && !job.delivered));
      if (!waiting) {
        throw new StationError(
          'job_not_movable',
          `Print job ${id} is ${job.state}; only a job still waiting for its printer can be moved.`,
          { jobId: id, state: job.state },
        );
      }
      if (!job.format || !formats.includes(job.format)) {
        throw new StationError(
          'printer_format_mismatch',
          `The printer cannot print ${job.format === 'zpl' ? 'ZPL' : 'PDF'} labels. Pick another printer.`,
          { printer: printerId, format: job.format === 'zpl' ? 'ZPL' : 'PDF' },
        );
      }
      const out = changed(
        jobs.transaction(() => {
          const moved = jobs.moveToPrinter(
            id,
            printerId,
            clock.now(),
            `Moved from ${job.printerId ?? '?'} to ${printerId} by the worker.`,
          );
          record?.(moved);
          return moved;
        }),
      );
      kick();
      return out;
    },
    /** The worker saw the label come out: an uncertain, unconfirmed (or printer-failed) job becomes done without printing again. */
    markPrinted(id: number, record?: (job: StoredJob) => void): StoredJob {
      const job = mustGet(id);
      if (job.state !== 'uncertain' && job.state !== 'unconfirmed' && !(job.state === 'failed' && job.delivered)) {
        throw new StationError(
          'job_not_uncertain',
          `Print job ${id} is ${job.state}; only an uncertain or unconfirmed job can be confirmed as printed.`,
          { jobId: id, state: job.state },
        );
      }
      const now = clock.now();
      return changed(
        jobs.transaction(() => {
          const done = jobs.setState(id, 'done', now, { reasonCode: 'confirmed_by_worker', delivered: true });
          record?.(done);
          return done;
        }),
      );
    },
    list: (o: { states?: StoredJob['state'][]; limit: number; beforeId?: number }) => jobs.list(o),
    history: (id: number) => (mustGet(id), jobs.history(id)),
    /** Runs due work until every lane is idle (tests, shutdown). */
    async settle(): Promise<void> {
      for (;;) {
        kick();
        if (running.size === 0 && confirming.size === 0) return;
        await Promise.all([...running.values(), ...confirming]);
      }
    },
    /** Stops draining and waits, at most `boundMs`, for the jobs in flight to finish (so they are not left uncertain). */
    async stop(boundMs = 10_000): Promise<void> {
      stopped = true;
      stopTick?.();
      stopTick = null;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([...running.values(), ...confirming]),
        new Promise((r) => (timer = setTimeout(r, boundMs))),
      ]);
      clearTimeout(timer);
    },
  };
}

export type PrintQueue = ReturnType<typeof createPrintQueue>;
