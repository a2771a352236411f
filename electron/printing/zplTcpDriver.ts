/**
 * ZPL raw over TCP (port 9100). With host status on, the driver streams: a connection is kept open
 * while the printer keeps it, the printer's status (~HS) is checked before each job (paper out,
 * head open, paused: the job is not sent), the job goes with a ~HS right behind it in one write
 * (the answer proves every byte arrived: `accepted`), and the next job goes while this one prints,
 * with at most `maxBuffered` formats in the printer's buffer. Each job is confirmed from the
 * buffer counts ~HS reports (formats in the receive buffer, labels remaining of the format
 * printing): printed once every format sent before and with it has left the buffer.
 *
 * How printers we did not write behave (sources in docs/printer-behaviour-sources.md):
 * - Some end the connection after each answer: an orderly close after an answer loses nothing,
 *   the next exchange opens a new connection, and each job then gets one of its own.
 * - Some answer ~HS only once their buffer has drained: every wait for an answer is the read
 *   timeout plus the printing time of the labels in the printer at the slowest speed (jobSize).
 * - A Zebra sends no ~HS answer while media out, ribbon out, head open, rewinder full or head
 *   over-temperature: a ~HS silent for the read timeout (a few seconds, also while labels are in
 *   the printer) is followed by ~HQES, which names the fault. ~HQES with no error says the printer
 *   can print (a ~HS asked during the stop is never answered): never "not answering". Silent to
 *   both, the printer is "not answering", which accuses no label.
 * - At a fault the formats in the buffer stay there and print once it is fixed: they stay `sent`,
 *   noted with the reason (never offered for reprint), and are confirmed when they come out; the
 *   first answer without a stop takes the reason back (the printer prints them).
 * - A printer that reads a job and ends the connection without answering has read every byte (as
 *   a raw port's close says): printed.
 * - A connection lost with labels in the printer, or a printer silent for `silentMs`: what the label
 *   counter shows printed is printed; the rest is uncertain (the worker looks).
 * The check before a job uses the last all-clear answer when it is fresh (at most `statusFreshMs`,
 * 50 ms, old and given after the last job byte): in a burst (a batch, quick scans) that saves a
 * round trip a label.
 * Without host status, only the printer closing its side after ours proves it read the labels (a
 * reset in answer to our close counts too); a printer that keeps the connection open gives no proof
 * (`unconfirmed`). Labels that come one after another share one connection and its one proof (see
 * createRawDriver).
 */
import type { PrinterSettings } from '../../shared/contract/printing';
import {
  PRINTED,
  PRINTED_BY_COUNTER,
  PrintError,
  asPrintError,
  createSerialWriter,
  type DriverJob,
  type DriverStatus,
  type PrintHooks,
  type PrintResult,
  type PrinterDriver,
} from './printerDriver';
import { PrinterSocket, defaultTimeouts, type SocketTimeouts } from './printerSocket';
import {
  ERROR_STATUS_QUERY,
  HOST_STATUS_QUERY,
  LABEL_COUNTER_QUERY,
  hasQuotedAnswer,
  hostStatusProblem,
  parseErrorStatus,
  parseHostStatus,
  parseLabelCounter,
  type HostStatus,
  type StatusProblem,
} from './zplHostStatus';
import { prepareZplForPrinter } from './zplPrepare';
import type { PrinterReasonCode } from '../../shared/errors/codes';

export interface ZplTcpOptions {
  host: string;
  port: number;
  settings: PrinterSettings;
  timeouts?: Partial<SocketTimeouts>;
  /** At least how long labels may sit in the printer without one coming out before the worker is told (otherwise twice the first label's printing time). */
  printTimeoutMs?: number;
  /** How long a printer may stay silent to every question while labels are in it before they are unknown. */
  silentMs?: number;
  /** Without ~HS: how long to wait for the printer to close its side after the job (default: 2 s plus the label's printing time at the slowest speed). */
  closeWaitMs?: number;
  /** Without ~HS: how long after a label's last byte the connection waits for the next label before the station closes its side (see RESET_SETTLE_MS). */
  settleMs?: number;
  /** Without ~HS: most formats one connection carries before it is closed and proved (see RAW_BURST_FORMATS). */
  maxBurstFormats?: number;
  /** With ~HS: how many formats may wait in the printer's buffer before the next job is held back. */
  maxBuffered?: number;
  /** With ~HS: how often the printer is asked while labels are in its buffer. */
  pollMs?: number;
  /** With ~HS: how old the last answer on the connection may be to stand for the check before a job (see STATUS_FRESH_MS). */
  statusFreshMs?: number;
}

/**
 * 50 ms: in a burst the next job's check comes a few milliseconds after the previous job's answer
 * (the queue commits `sent` and takes the next job in between), well inside this bound even on a
 * busy desk machine, while a person changing the printer (opening the head, pressing pause,
 * loading labels) takes seconds, and it is half the default poll interval, so an idle connection's
 * last poll does not stand in for a new question. What a printer that stops inside the window
 * costs: the job reaches its buffer and the answer right after the job names the stop, so the job
 * waits in the printer, named as such, never a silent "printed".
 */
const STATUS_FRESH_MS = 50;

/**
 * A printer's orderly close counts as "read the job" only when it comes at least this long after
 * the job's last byte left: a close already on its way (it answered and closed) arrives within a
 * millisecond or so, while one that read and rendered the job comes later.
 */
const CLOSE_AFTER_READING_MS = 20;

/** How long a new connection is watched for a close after its first answer, before a job goes on it. */
const FIRST_ANSWER_CLOSE_MS = 15;

/**
 * Without host status: how long the station waits after a label's last byte before closing its
 * side. A printer that resets mid-job does so as soon as it reads the part it cannot take, within
 * this pause: a reset then means the labels did not arrive whole (uncertain), while a reset that
 * answers the station's close comes after every byte was read (a print server
 * that ends each connection with a reset). A label that comes within the pause goes on the same
 * connection, and the pause begins again after it. A full burst of a printer that answered the
 * last close in order (FIN) is closed without the pause: a reset from it is then no answer to
 * the close but a failure, and leaves the burst's labels unknown (see createRawDriver).
 */
const RESET_SETTLE_MS = 50;

/**
 * Without host status: at most this many formats (labels) go over one connection before it is
 * closed and its close proves them read. Until then each is unknown if the connection is lost, so
 * this bounds the labels a worker must check after a printer dropped mid-batch (a burst the queue
 * commits `sending` together holds at most 8 jobs); at 16 the close's pause costs some 3 ms a label.
 */
const RAW_BURST_FORMATS = 16;

/**
 * The print speed assumed for a wait: 2 inches a second, the slowest speed Zebra's desktop and
 * industrial printers run by default (^PR A = 2 in/s), or 1 where the label asks for it (^PR 1).
 * A faster printer only answers sooner; a wait is never shorter than the label's printing time.
 */
const SLOWEST_IPS = 2;

/** A job as the printer's buffer counts it, and the longest it may take to print. */
export interface JobSize {
  formats: number;
  labels: number;
  /** Its labels' printing time at the slowest speed they allow (their ^LL at `dpi`, 6 in without one). */
  printMs: number;
}

/**
 * How many of the next jobs, in order, fit in `room` formats (the printer's buffer, a burst's
 * connection): at least one, so a job larger than the room still goes, alone.
 */
function jobsThatFit(payloads: Iterable<Buffer>, room: number, dpi: number): number {
  let n = 0;
  for (const bytes of payloads) {
    const formats = jobSize(bytes, dpi).formats;
    if (n > 0 && formats > room) break;
    room -= formats;
    n++;
  }
  return Math.max(1, n);
}

export function jobSize(bytes: Buffer, dpi: number): JobSize {
  let formats = 0;
  let labels = 0;
  let printMs = 0;
  for (const m of bytes.toString('latin1').matchAll(/\^XA([\s\S]*?)(?:\^XZ|$)/gi)) {
    const body = m[1]!;
    const pq = /\^PQ\s*(\d+)/i.exec(body);
    const n = pq ? Math.max(1, Number(pq[1])) : 1;
    const ll = /\^LL\s*(\d+)/i.exec(body);
    const inches = ll ? Number(ll[1]) / dpi : 6;
    const ips = /\^PR\s*1\b/i.test(body) ? 1 : SLOWEST_IPS;
    formats++;
    labels += n;
    printMs += (n * inches * 1000) / ips;
  }
  return formats ? { formats, labels, printMs } : { formats: 1, labels: 1, printMs: (6 * 1000) / SLOWEST_IPS };
}

/**
 * One answer to a status question: the ~HS counts, or (~HS silent) what ~HQES says: the fault it
 * names, or `clear` (no error: the printer can print, its counts are asked again at the next question).
 */
type PrinterAnswer =
  { kind: 'status'; status: HostStatus } | { kind: 'fault'; problem: StatusProblem } | { kind: 'clear' };

const problemOf = (a: PrinterAnswer): StatusProblem | null =>
  a.kind === 'fault' ? a.problem : a.kind === 'clear' ? null : hostStatusProblem(a.status);

export function createZplTcpDriver(opts: ZplTcpOptions): PrinterDriver {
  return opts.settings.hostStatus ? createStreamingDriver(opts) : createRawDriver(opts);
}

interface InFlight {
  /** The formats sent up to and including this job (a running count since the stream began). */
  upTo: number;
  size: JobSize;
  hooks: PrintHooks;
  /** The printer's label counter when this job's first label begins, when the printer has one. */
  counterAt: number | null;
  /** The note last given to the job (so the same one is not given again). */
  noted: string | null;
  resolve(r: PrintResult): void;
  reject(e: PrintError): void;
}

function createStreamingDriver(opts: ZplTcpOptions): PrinterDriver {
  const t: SocketTimeouts = { ...defaultTimeouts, ...opts.timeouts };
  const dpi = opts.settings.dpi;
  const serial = createSerialWriter();
  // One exchange at a time with the printer (a job and its ~HS, a poll).
  const exchange = createSerialWriter();
  const maxBuffered = Math.max(1, opts.maxBuffered ?? 3);
  const pollMs = opts.pollMs ?? 100;
  const statusFreshMs = opts.statusFreshMs ?? STATUS_FRESH_MS;
  const silentMs = opts.silentMs ?? 120_000;
  const useCounter = opts.settings.labelCounter;
  let sock: PrinterSocket | null = null;
  /** Learned: the printer ends the connection after each answer, so every exchange opens its own. */
  let closesAfterAnswer = false;
  /** The last answer and the connection it came on, given after the last job byte (cleared by a job write and by a lost connection). */
  let lastAnswer: { answer: PrinterAnswer; at: number; on: PrinterSocket | null } | null = null;
  let sent = 0;
  let confirmed = 0;
  let inFlight: InFlight[] = [];
  let lastProgress = Date.now();
  /** Since when the printer has not answered while labels are in it. */
  let silentSince: number | null = null;
  /** The label counter's reading the next job's first label will make (null: unknown, asked at the next job). */
  let counterNext: number | null = null;
  let polling: NodeJS.Timeout | null = null;
  let changed: (() => void)[] = [];

  const wake = () => {
    const w = changed;
    changed = [];
    for (const f of w) f();
  };
  const inPrinterMs = () => inFlight.reduce((ms, j) => ms + j.size.printMs, 0);
  /** How long an answer may take: the read timeout plus what is in the printer (some answer only once it has printed it all). */
  const answerWaitMs = () => t.readMs + inPrinterMs();
  /** How long labels may sit in the printer without one coming out before the worker is told. */
  const stallMs = () => Math.max(opts.printTimeoutMs ?? 0, 2 * (inFlight[0]?.size.printMs ?? 0) + t.readMs);

  /** Our side ends the connection; counts and in-flight jobs stay (nothing was lost). */
  const release = () => {
    sock?.destroy();
    sock = null;
  };
  /** The connection went wrong: nothing learned over it still holds, and the stream starts anew. */
  const dropConnection = () => {
    release();
    lastAnswer = null;
    counterNext = null;
    sent = 0;
    confirmed = 0;
  };

  /** Tells every job still in the printer why it has not come out (its row shows it; the job stays `sent`). */
  function note(code: PrinterReasonCode, reason: string): void {
    for (const j of inFlight) {
      if (j.noted === code) continue;
      j.noted = code;
      j.hooks.note?.(code, reason);
    }
  }

  /** The printer answered without a stop: a reason given to a job in it no longer holds (it prints). */
  function resumed(): void {
    for (const j of inFlight) {
      if (j.noted === null) continue;
      j.noted = null;
      j.hooks.resumed?.();
    }
  }

  /**
   * The printer can no longer be followed (the connection was lost, or it stayed silent too long):
   * jobs the label counter shows printed are printed; the others are unknown (the worker looks),
   * never failed, since they may be in the printer or out of it.
   */
  async function lose(err: PrintError): Promise<void> {
    const jobs = inFlight;
    inFlight = [];
    dropConnection();
    let count: number | null = null;
    if (useCounter && jobs.some((j) => j.counterAt !== null)) count = await readCounterFresh().catch(() => null);
    for (const j of jobs) {
      if (count !== null && j.counterAt !== null && count >= j.counterAt + j.size.labels) j.resolve(PRINTED_BY_COUNTER);
      else j.reject(new PrintError(err.code, err.message, 'unknown'));
    }
    wake();
  }

  /** Formats still in the printer: waiting in its buffer, the one printing, one partly received. */
  const outstanding = (s: HostStatus) =>
    s.formatsInBuffer + (s.labelsRemaining > 0 ? 1 : 0) + (s.partialFormat ? 1 : 0);

  /** What an answer says of the jobs in the printer: confirmed ones resolve; a stop keeps the rest waiting in it, named. */
  function learn(a: PrinterAnswer): void {
    silentSince = null;
    if (a.kind === 'status') {
      const done = Math.max(confirmed, sent - outstanding(a.status));
      if (done > confirmed) lastProgress = Date.now();
      confirmed = done;
      while (inFlight.length && inFlight[0]!.upTo <= confirmed) inFlight.shift()!.resolve(PRINTED);
    }
    const problem = problemOf(a);
    if (!inFlight.length) lastProgress = Date.now();
    else if (problem) {
      // Formats a printer holds at a stop stay in its buffer and print once it is fixed: never "not printed".
      lastProgress = Date.now();
      note(problem.code, `${problem.message} The label is in the printer and prints when this is fixed.`);
    } else if (Date.now() - lastProgress > stallMs()) {
      note(
        'label_not_printed',
        `The label has been in the printer's buffer for ${Math.round((Date.now() - lastProgress) / 1000)} s without coming out, and the printer reports no fault. Check the printer.`,
      );
    } else resumed();
    wake();
  }

  /** A connection to talk over: the kept one while it is open, else a new one. */
  async function connection(): Promise<PrinterSocket> {
    if (sock && !sock.open) {
      if (sock.closedInOrder) {
        // It ended the connection after answering (some do after every answer): nothing was lost.
        closesAfterAnswer = true;
        release();
      } else {
        const err = new PrintError(
          'connection_lost',
          `The connection to the printer at ${sock.label} was lost.`,
          'unknown',
        );
        if (inFlight.length) await lose(err);
        else dropConnection();
      }
    }
    sock ??= await PrinterSocket.connect(opts.host, opts.port, t.connectMs);
    return sock;
  }

  /**
   * Asks ~HS. Silent for the read timeout (a Zebra at a stop never answers it, however many labels
   * are in it), it asks ~HQES (errorStatus): the fault named there, or `clear`. Silent to ~HQES too,
   * ~HS is asked again for the rest of the wait (a printer that answers only once its labels are
   * out may not know ~HQES); silent still, the printer is not answering.
   */
  async function askPrinter(): Promise<PrinterAnswer> {
    const waitMs = answerWaitMs();
    const until = Date.now() + waitMs;
    const first = await hostStatusWithin(Math.min(t.readMs, waitMs));
    if (first) return first;
    const named = await errorStatus();
    if (named) return named;
    const again = until - Date.now() > 0 ? await hostStatusWithin(until - Date.now()) : null;
    if (again) return again;
    release();
    throw new PrintError(
      'not_answering',
      `The printer at ${opts.host}:${opts.port} accepts connections but does not answer its status questions. Check its display.`,
      'not_sent',
    );
  }

  /**
   * ~HS on the connection, its answer within `ms`; null when it stays silent (the connection is
   * then let go: a late answer must not be taken for a later question's).
   */
  async function hostStatusWithin(ms: number): Promise<PrinterAnswer | null> {
    const s = await connection();
    try {
      await s.write(HOST_STATUS_QUERY, t.writeMs, false);
      const status = parseHostStatus(await s.readFrames(3, ms));
      if (!status)
        throw new PrintError(
          'bad_status',
          `The printer at ${s.label} answers the status query in a layout that is not a Zebra host status. Turn "host status" off for this printer.`,
          'not_sent',
        );
      return remember({ kind: 'status', status }, s);
    } catch (err) {
      const e = asPrintError(err, 'not_sent');
      if (e.code !== 'no_answer') throw e;
    }
    release();
    return null;
  }

  /**
   * After a ~HS that stayed silent: ~HQES on a new connection (the late ~HS answer must not be
   * taken for it). ZPL II guide, "~HQ Host Query": its examples answer "ERRORS: 1 00000000
   * 00000005" (head open, media out) in exactly the states the ~HS note says get no answer. The
   * fault it names, `clear` when it names none; null when it stays silent too.
   */
  async function errorStatus(): Promise<PrinterAnswer | null> {
    release();
    const q = await connection();
    try {
      await q.write(ERROR_STATUS_QUERY, t.writeMs, false);
      const problem = parseErrorStatus(await q.readFrames(1, t.readMs));
      if (problem) return remember({ kind: 'fault', problem }, null);
      if (problem === null) return remember({ kind: 'clear' }, null);
    } catch {
      // Silent to both questions.
    }
    release();
    return null;
  }

  function remember(a: PrinterAnswer, on: PrinterSocket | null): PrinterAnswer {
    lastAnswer = { answer: a, at: performance.now(), on };
    return a;
  }

  /**
   * The last answer when it may stand for a new one: all-clear, fresh, no job byte since, and
   * given on the connection still open (a printer that closed it may have restarted since).
   */
  function freshAnswer(): PrinterAnswer | null {
    if (!lastAnswer || problemOf(lastAnswer.answer) || lastAnswer.answer.kind !== 'status') return null;
    if (!lastAnswer.on || lastAnswer.on !== sock || !sock.open) return null;
    return performance.now() - lastAnswer.at <= statusFreshMs ? lastAnswer.answer : null;
  }

  /** The label counter, asked on its own connection (SGD on the status connection would delay ~HS answers behind it). */
  async function readCounterFresh(): Promise<number | null> {
    const c = await PrinterSocket.connect(opts.host, opts.port, t.connectMs);
    try {
      await c.write(LABEL_COUNTER_QUERY, t.writeMs, false);
      return parseLabelCounter(await c.readUntil(hasQuotedAnswer, t.readMs));
    } finally {
      c.destroy();
    }
  }

  function schedulePoll(): void {
    if (polling || !inFlight.length) return;
    polling = setTimeout(() => {
      polling = null;
      void exchange(async () => {
        if (!inFlight.length) return;
        try {
          learn(await askPrinter());
        } catch (err) {
          const e = asPrintError(err, 'unknown');
          if (e.code === 'not_answering') {
            silentSince ??= Date.now();
            note(
              'not_answering',
              `${e.message} The label was sent; whether it printed is known when the printer answers again.`,
            );
            if (Date.now() - silentSince > silentMs) await lose(e);
          } else {
            // The connection went while labels were in the printer.
            await lose(e);
          }
        }
      })
        .catch(() => undefined)
        .finally(schedulePoll);
    }, pollMs);
  }

  /** Sends one job; answers once the printer holds it, with its confirmation to await (wrapped: a bare promise would be awaited here). */
  async function send(job: DriverJob, hooks: PrintHooks): Promise<{ confirmed: Promise<PrintResult> }> {
    const bytes = await prepareZplForPrinter(job, opts.settings);
    const size = jobSize(bytes, dpi);
    // A bounded buffer: the next job waits while the printer holds enough to stay busy.
    while (inFlight.length && sent - confirmed + size.formats > maxBuffered) {
      schedulePoll();
      await new Promise<void>((r) => changed.push(r));
    }
    return exchange(async () => {
      // The check before: a fresh all-clear answer stands for it; otherwise the printer is asked.
      let before = freshAnswer();
      if (!before) {
        // A connection kept open may have gone stale (the printer restarted): one fresh try.
        before = await askPrinter()
          .catch((err: unknown) => {
            if (asPrintError(err, 'not_sent').code === 'connection_lost') return askPrinter();
            throw err;
          })
          .catch((err: unknown) => {
            throw asPrintError(err, 'not_sent');
          });
        learn(before);
      }
      const problem = problemOf(before);
      if (problem) throw new PrintError(problem.code, problem.message, 'not_sent');
      if (useCounter && counterNext === null && !inFlight.length)
        counterNext = await readCounterFresh().catch(() => null);
      // A printer that ends each connection after answering gets each job on a connection of its
      // own. Until a connection has shown it stays open after an answer (its first answer was just
      // read), a close that follows the answer is waited for a moment: a job written into a
      // connection the printer is closing would be lost, or printed unseen.
      if (closesAfterAnswer) release();
      else if (sock && sock.answers <= 1 && (await sock.endsWithin(FIRST_ANSWER_CLOSE_MS))) {
        closesAfterAnswer = true;
        release();
      }
      const s = await connection().catch((err: unknown) => {
        throw asPrintError(err, 'not_sent');
      });
      const counterAt = counterNext;
      await hooks.sending(counterAt !== null ? { counterAt, labels: size.labels } : undefined);
      const entry: InFlight = {
        upTo: 0,
        size,
        hooks,
        counterAt,
        noted: null,
        resolve: () => undefined,
        reject: () => undefined,
      };
      const confirmedJob = new Promise<PrintResult>((resolve, reject) => {
        entry.resolve = resolve;
        entry.reject = reject;
      });
      try {
        // From the first job byte on, no earlier answer describes the printer. The job and the
        // question after it go in one write: the answer then proves every job byte arrived.
        lastAnswer = null;
        if (counterNext !== null) counterNext += size.labels;
        await s.write(Buffer.concat([bytes, HOST_STATUS_QUERY]), t.writeMs, true);
        sent += size.formats;
        entry.upTo = sent;
        if (!inFlight.length) lastProgress = Date.now();
        inFlight.push(entry);
        const after = await s.readFrames(3, answerWaitMs()).then(
          (b) => {
            const status = parseHostStatus(b);
            return status ? remember({ kind: 'status', status }, s) : null;
          },
          (err: unknown) => {
            const e = asPrintError(err, 'unknown');
            // Ended in order a while after the job, without answering (an emulator that closes
            // after each piece of data, once it rendered it): it read every byte, as a raw port's
            // close says. A close right on the job's heels was on its way before the job (it
            // answered the check and closed): the job met a closed connection, unknown.
            if (s.closedInOrder && s.peerEndedMsAfterWrite >= CLOSE_AFTER_READING_MS) return 'closed' as const;
            if (e.code === 'no_answer') return null;
            throw e;
          },
        );
        if (after === 'closed') {
          hooks.accepted();
          closesAfterAnswer = true;
          inFlight = inFlight.filter((j) => j !== entry);
          entry.resolve(PRINTED);
          return { confirmed: confirmedJob };
        }
        if (after) {
          hooks.accepted();
          learn(after);
        } else {
          // Silent after the job (the ~HS behind it already timed out): ask what stops it (~HQES
          // answers in the states ~HS is silent in).
          const fault = await errorStatus().catch(() => null);
          if (fault?.kind === 'fault') {
            hooks.accepted();
            learn(fault);
          } else {
            // No stop named: nothing proves the job is in it; it stays `sending` until the printer answers or the wait ends.
            silentSince = Date.now();
            await waitForAnswer(entry);
          }
        }
        schedulePoll();
        return { confirmed: confirmedJob };
      } catch (err) {
        const e = asPrintError(err, 'unknown');
        inFlight = inFlight.filter((j) => j !== entry);
        await lose(e);
        throw e;
      }
    });
  }

  /** A printer silent right after a job: asked until it answers (the job is then in it or printed) or the wait ends (unknown). */
  async function waitForAnswer(entry: InFlight): Promise<void> {
    for (;;) {
      await new Promise((r) => setTimeout(r, Math.max(pollMs, 500)));
      try {
        const a = await askPrinter();
        // ~HQES without an error says the printer can print, not that it holds the job: asked again.
        if (a.kind === 'clear') {
          if (Date.now() - (silentSince ?? Date.now()) > silentMs)
            throw new PrintError(
              'not_answering',
              `The printer at ${opts.host}:${opts.port} answers its error status but not its host status question.`,
              'unknown',
            );
          continue;
        }
        entry.hooks.accepted();
        learn(a);
        return;
      } catch (err) {
        const e = asPrintError(err, 'unknown');
        if (e.code !== 'not_answering' || Date.now() - (silentSince ?? Date.now()) > silentMs)
          throw new PrintError(e.code, `${e.message} The label was sent; whether it printed is unknown.`, 'unknown');
      }
    }
  }

  return {
    formats: ['zpl'],
    streams: true,
    /**
     * As many jobs as fit in the printer's buffer room now, counted as send() counts it, when there
     * is a fresh all-clear answer (mid-stream); otherwise one: a printer that is off, paused or not
     * yet asked never gets a burst committed `sending`.
     */
    readyFor(payloads) {
      if (!freshAnswer()) return 1;
      return jobsThatFit(payloads, maxBuffered - (inFlight.length ? sent - confirmed : 0), dpi);
    },
    async print(job, hooks) {
      // Sends go one after another, in order; the confirmation is awaited outside that order, so
      // the next job is sent while this one prints.
      const { confirmed } = await serial(() => send(job, hooks));
      return confirmed;
    },
    status: () =>
      exchange(async (): Promise<DriverStatus> => {
        try {
          const a = await askPrinter();
          learn(a);
          const problem = problemOf(a);
          return problem
            ? { state: 'error', reasonCode: problem.code, reason: problem.message }
            : { state: 'ready', reasonCode: null, reason: null };
        } catch (err) {
          const e = asPrintError(err, 'not_sent');
          if (e.code === 'offline' || e.code === 'timeout')
            return { state: 'offline', reasonCode: e.code, reason: e.message };
          if (inFlight.length && e.code !== 'not_answering') await lose(e);
          return { state: 'error', reasonCode: e.code, reason: e.message };
        }
      }),
    ...(useCounter ? { labelCounter: () => readCounterFresh().catch(() => null) } : {}),
    /** Lets the labels in the printer be confirmed (the poll goes on) for at most `boundMs`, then closes the connection. */
    async close(boundMs = 10_000) {
      const end = Date.now() + boundMs;
      while (inFlight.length && Date.now() < end) {
        schedulePoll();
        await Promise.race([
          new Promise<void>((r) => changed.push(r)),
          new Promise((r) => setTimeout(r, Math.max(50, end - Date.now()))),
        ]);
      }
      await exchange(async () => {
        if (polling) clearTimeout(polling);
        polling = null;
        dropConnection();
      });
    },
  };
}

/** A burst on a raw port: the labels written over one connection, proved together by its close. */
interface RawBurst {
  sock: PrinterSocket;
  /** Each label's end, settled when the printer closes the connection (or fails to). */
  jobs: ((end: PrintResult | PrintError) => void)[];
  formats: number;
  printMs: number;
  /** Labels written so far: a pause timer armed after one write ends the burst only if none followed. */
  writes: number;
  lastWriteAt: number;
}

/**
 * Without host status: labels stream over one connection while they come one after another (a
 * batch, quick scans), and the close that proves the printer read them is waited for once per
 * burst. Each label is written as it comes; the connection closes when no label followed the last
 * one for `settleMs`, or when it carries `maxBurstFormats`. Until the printer closes its side
 * after ours, every label of the burst stays `sending` (a crash makes it uncertain); a reset, a
 * close before ours or a lost connection leaves every label written on it unknown (the worker
 * looks), since nothing tells which of them the printer read; a label not yet written when the
 * connection went is not sent, and goes over a new connection.
 * A printer that answered the last close in order (FIN, as a Zebra's own port does) has a full
 * burst closed right after its last label, with no pause: in a batch the next burst goes at once.
 * A reset is then not taken for its answer to the close (it may have come mid-label): the labels
 * are unknown, and the pause is back until the printer closes in order again. A print server that
 * answers every close with a reset keeps the pause, which tells its reset from a mid-label one.
 */
function createRawDriver(opts: ZplTcpOptions): PrinterDriver {
  const t: SocketTimeouts = { ...defaultTimeouts, ...opts.timeouts };
  const serial = createSerialWriter();
  const settleMs = opts.settleMs ?? RESET_SETTLE_MS;
  const maxBurstFormats = Math.max(1, opts.maxBurstFormats ?? RAW_BURST_FORMATS);
  let burst: RawBurst | null = null;
  /** Learned: the printer answered the last close with its own close (FIN), not a reset. */
  let closesInOrder = false;

  /** The open burst when it can take `formats` more now (its connection still open, room left). */
  const openBurstFor = (formats: number) =>
    burst && burst.sock.open && (burst.formats === 0 || burst.formats + formats <= maxBurstFormats) ? burst : null;

  /**
   * Closes the burst's connection and settles its labels: our side ends at least `settleMs` after
   * the last label byte (a printer that resets mid-label does so within it), then the printer
   * closing its side proves it read every label (printed); kept open, unconfirmed; anything else,
   * unknown.
   */
  async function endBurst(): Promise<void> {
    const b = burst;
    if (!b) return;
    burst = null;
    // Without the pause, only an orderly close proves the labels read (see RESET_SETTLE_MS).
    const paused = !closesInOrder;
    const pause = settleMs - (performance.now() - b.lastWriteAt);
    if (paused && pause > 0) await new Promise((r) => setTimeout(r, pause));
    closesInOrder = false;
    // Some close only once they have rendered or printed what they read (an emulator renders each
    // label first): the wait is the burst's printing time at the slowest speed, plus two seconds.
    const closeWaitMs = opts.closeWaitMs ?? 2000 + b.printMs;
    let end: PrintResult | PrintError;
    try {
      const closed = await b.sock.finish(closeWaitMs);
      closesInOrder = closed === 'closed';
      end =
        closed === 'timeout'
          ? {
              kind: 'unconfirmed',
              code: 'not_confirmed',
              reason: `Every byte went to the printer at ${b.sock.label}, but it did not confirm reading them (it kept the connection open for ${closeWaitMs / 1000} s). Check whether the label came out.`,
            }
          : closed === 'reset' && !paused
            ? new PrintError(
                'connection_lost',
                `The printer at ${b.sock.label} reset the connection instead of closing it; it may have stopped in the middle of a label. Check whether the labels came out.`,
                'unknown',
              )
            : PRINTED;
    } catch (err) {
      const e = asPrintError(err, 'unknown');
      end = new PrintError(e.code, e.message, 'unknown');
    } finally {
      b.sock.destroy();
    }
    for (const settle of b.jobs) settle(end);
  }

  /** Writes one label into the burst (a new connection when none is open); answers once it is written, with its proof to await. */
  async function send(job: DriverJob, hooks: PrintHooks): Promise<{ confirmed: Promise<PrintResult> }> {
    const bytes = await prepareZplForPrinter(job, opts.settings);
    const size = jobSize(bytes, opts.settings.dpi);
    // A full burst, or one whose connection the printer ended: settled before this label goes.
    if (burst && !openBurstFor(size.formats)) await endBurst();
    if (!burst) {
      const sock = await PrinterSocket.connect(opts.host, opts.port, t.connectMs);
      burst = { sock, jobs: [], formats: 0, printMs: 0, writes: 0, lastWriteAt: performance.now() };
    }
    const b = burst;
    try {
      await hooks.sending();
    } catch (err) {
      // Withdrawn meanwhile: nothing of it is written; a connection opened for it alone is let go.
      if (b.writes === 0) {
        burst = null;
        b.sock.destroy();
      }
      throw err;
    }
    try {
      await b.sock.write(bytes, t.writeMs, true);
    } catch (err) {
      // Cut off while writing: this label and every one before it on the connection may be in the printer or not.
      const e = asPrintError(err, 'unknown');
      await endBurst();
      throw new PrintError(e.code, e.message, 'unknown');
    }
    b.lastWriteAt = performance.now();
    b.formats += size.formats;
    b.printMs += size.printMs;
    const confirmed = new Promise<PrintResult>((resolve, reject) =>
      b.jobs.push((end) => {
        if (end instanceof PrintError) return reject(end);
        if (end.kind === 'printed') hooks.accepted();
        resolve(end);
      }),
    );
    hooks.written?.();
    const writes = ++b.writes;
    if (b.formats >= maxBurstFormats) await endBurst();
    else
      setTimeout(() => {
        // No label followed for the pause: the burst ends (a label queued meanwhile goes first).
        void serial(async () => (burst === b && b.writes === writes ? endBurst() : undefined));
      }, settleMs);
    return { confirmed };
  }

  return {
    formats: ['zpl'],
    streams: true,
    /** As many labels as the open burst has room for (mid-burst); otherwise one (a new connection is made first). */
    readyFor(payloads) {
      const b = burst && burst.sock.open ? burst : null;
      if (!b) return 1;
      return jobsThatFit(payloads, maxBurstFormats - b.formats, opts.settings.dpi);
    },
    async print(job, hooks) {
      // Labels are written one after another, in order; each one's proof comes with its burst's close.
      const { confirmed } = await serial(() => send(job, hooks));
      return confirmed;
    },
    status: () => {
      // A burst's connection is open: the printer took it a moment ago (a second one may be refused
      // by a printer that serves one connection at a time).
      if (burst?.sock.open) return Promise.resolve({ state: 'ready', reasonCode: null, reason: null });
      return serial(async (): Promise<DriverStatus> => {
        let sock: PrinterSocket;
        try {
          sock = await PrinterSocket.connect(opts.host, opts.port, t.connectMs);
        } catch (err) {
          const e = asPrintError(err, 'not_sent');
          return { state: 'offline', reasonCode: e.code, reason: e.message };
        }
        sock.destroy();
        return { state: 'ready', reasonCode: null, reason: null };
      });
    },
    /** Ends the open burst now (its labels are proved or not), waiting at most `boundMs`. */
    async close(boundMs = 10_000) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([serial(endBurst), new Promise((r) => (timer = setTimeout(r, boundMs)))]);
      clearTimeout(timer);
    },
  };
}
