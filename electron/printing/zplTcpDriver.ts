/**
 * ZPL raw over TCP (port 9100). With host status on, the driver streams: one connection per
 * printer is kept open, the printer's status (~HS) is checked before each job (paper out, head
 * open, paused: the job is not sent) and the printer is asked right after it (the answer proves
 * every byte arrived: `accepted`), and the next job goes while this one prints, with at most
 * `maxBuffered` labels in the printer's buffer. Each job is confirmed from the buffer counts ~HS
 * reports (formats in the receive buffer, labels remaining of the format printing): a job is
 * printed once every format sent before and with it has left the buffer; a printer that stops
 * (paper out mid-stream) fails exactly the jobs whose formats are still in it, with its reason,
 * never a silent "done".
 * The check before a job uses the last answer on the same open connection when it is fresh: given
 * at most `statusFreshMs` (50 ms) ago, by a poll, a status request or the previous job's check
 * after its bytes, and after the last job byte written on that connection, so it describes the
 * printer as the previous job left it, and only when it named no problem (a stop is asked about
 * again, so a printer fixed a moment later is seen fixed). In a burst (a batch,
 * quick scans) that saves a round trip a label. An older answer, a new or re-opened connection, one
 * that saw an error or a close: the printer is asked, as for the first job.
 * Without host status, only the printer closing its side after ours proves it read the job; a
 * printer that keeps the connection open gives no proof (`unconfirmed`).
 */
import type { PrinterSettings } from '../../shared/contract/printing';
import { PRINTED, PrintError, asPrintError, createSerialWriter, type DriverJob, type DriverStatus, type PrintHooks, type PrintResult, type PrinterDriver } from './printerDriver';
import { PrinterSocket, defaultTimeouts, type SocketTimeouts } from './printerSocket';
import { HOST_STATUS_QUERY, hostStatusProblem, parseHostStatus, type HostStatus } from './zplHostStatus';
import { prepareZplForPrinter } from './zplPrepare';

export interface ZplTcpOptions {
  host: string;
  port: number;
  settings: PrinterSettings;
  timeouts?: Partial<SocketTimeouts>;
  /** How long a label may stay in the printer's buffer after the job before it counts as not printed. */
  printTimeoutMs?: number;
  /** Without ~HS: how long to wait for the printer to close its side after the job. */
  closeWaitMs?: number;
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
 * fails as `not_printed` (delivered, never sent again by itself), not `not_sent`; the same as a
 * printer stopping a moment after a new answer, never a silent "printed".
 */
const STATUS_FRESH_MS = 50;

/** The ^XA..^XZ formats in a job's bytes: what the printer's buffer counts. */
function countFormats(bytes: Buffer): number {
  return (bytes.toString('latin1').match(/\^XA/gi) ?? []).length;
}

async function askStatus(sock: PrinterSocket, t: SocketTimeouts): Promise<HostStatus> {
  await sock.write(HOST_STATUS_QUERY, t.writeMs, false);
  const answer = await sock.readFrames(3, t.readMs);
  const status = parseHostStatus(answer);
  if (!status) {
    throw new PrintError('bad_status', `The printer at ${sock.label} sent an answer that is not a Zebra host status. Turn "host status" off for this printer.`, sock.wroteJobBytes ? 'unknown' : 'not_sent');
  }
  return status;
}

export function createZplTcpDriver(opts: ZplTcpOptions): PrinterDriver {
  return opts.settings.hostStatus ? createStreamingDriver(opts) : createRawDriver(opts);
}

interface InFlight {
  /** The formats sent up to and including this job (a running count on this connection). */
  upTo: number;
  resolve(r: PrintResult): void;
  reject(e: PrintError): void;
}

function createStreamingDriver(opts: ZplTcpOptions): PrinterDriver {
  const t: SocketTimeouts = { ...defaultTimeouts, ...opts.timeouts };
  const serial = createSerialWriter();
  // One exchange at a time on the connection (a job and its ~HS, a poll).
  const exchange = createSerialWriter();
  const printTimeoutMs = opts.printTimeoutMs ?? 15_000;
  const maxBuffered = Math.max(1, opts.maxBuffered ?? 3);
  const pollMs = opts.pollMs ?? 100;
  const statusFreshMs = opts.statusFreshMs ?? STATUS_FRESH_MS;
  let sock: PrinterSocket | null = null;
  /** The last ~HS answer on `sock`, given after its last job byte (cleared by a job write and by dropping the connection). */
  let lastAnswer: { on: PrinterSocket; status: HostStatus; at: number } | null = null;
  let sent = 0;
  let confirmed = 0;
  let inFlight: InFlight[] = [];
  let lastProgress = Date.now();
  let polling: NodeJS.Timeout | null = null;
  let changed: (() => void)[] = [];

  const wake = () => {
    const w = changed;
    changed = [];
    for (const f of w) f();
  };
  const dropConnection = () => {
    sock?.destroy();
    sock = null;
    lastAnswer = null;
    sent = 0;
    confirmed = 0;
  };
  /** Every job not yet confirmed fails with `err` (in order): what is still in the printer did not print. */
  const failInFlight = (err: PrintError) => {
    const failed = inFlight;
    inFlight = [];
    for (const j of failed) j.reject(err);
    wake();
  };

  /** Formats still in the printer: waiting in its buffer, the one printing, one partly received. */
  const outstanding = (s: HostStatus) => s.formatsInBuffer + (s.labelsRemaining > 0 ? 1 : 0) + (s.partialFormat ? 1 : 0);

  /** What a ~HS answer says of the jobs in flight: confirmed ones resolve; a stop fails the rest. */
  function learn(status: HostStatus): void {
    const done = Math.max(confirmed, sent - outstanding(status));
    if (done > confirmed) lastProgress = Date.now();
    confirmed = done;
    while (inFlight.length && inFlight[0]!.upTo <= confirmed) inFlight.shift()!.resolve(PRINTED);
    const problem = hostStatusProblem(status);
    if (problem && inFlight.length) {
      failInFlight(new PrintError(problem.code, `${problem.message} The label reached the printer but was not printed.`, 'not_printed'));
    } else if (inFlight.length && Date.now() - lastProgress > printTimeoutMs) {
      failInFlight(new PrintError('label_not_printed', `The label is still in the printer's buffer after ${printTimeoutMs / 1000} s. Check the printer.`, 'not_printed'));
    }
    wake();
  }

  /** Asks the printer; an answer on the kept connection is remembered for the next job's check. */
  async function ask(s: PrinterSocket): Promise<HostStatus> {
    const status = await askStatus(s, t);
    if (s === sock) lastAnswer = { on: s, status, at: performance.now() };
    return status;
  }

  /** The last answer when it may stand for a new one (see the header): same open connection, no job byte since, fresh. */
  function freshAnswer(s: PrinterSocket): HostStatus | null {
    if (!lastAnswer || lastAnswer.on !== s || s !== sock || !s.open) return null;
    // Only an all-clear answer stands in: a printer that was paused or out of paper is asked
    // again, so a retry the moment it is fixed (the worker pressed resume) sees it fixed.
    if (hostStatusProblem(lastAnswer.status)) return null;
    return performance.now() - lastAnswer.at <= statusFreshMs ? lastAnswer.status : null;
  }

  async function connection(): Promise<PrinterSocket> {
    if (!sock) {
      sock = await PrinterSocket.connect(opts.host, opts.port, t.connectMs);
      sent = 0;
      confirmed = 0;
    }
    return sock;
  }

  function schedulePoll(): void {
    if (polling || !inFlight.length) return;
    polling = setTimeout(() => {
      polling = null;
      void exchange(async () => {
        if (!inFlight.length || !sock) return;
        try {
          learn(await ask(sock));
        } catch (err) {
          // The connection went while labels were in the printer: whether they printed is unknown.
          dropConnection();
          failInFlight(asPrintError(err, 'unknown'));
        }
      }).finally(schedulePoll);
    }, pollMs);
  }

  /** Sends one job; answers once the printer holds it, with its confirmation to await (wrapped: a bare promise would be awaited here). */
  async function send(job: DriverJob, hooks: PrintHooks): Promise<{ confirmed: Promise<PrintResult> }> {
    const bytes = await prepareZplForPrinter(job, opts.settings);
    const formats = Math.max(1, countFormats(bytes));
    // A bounded buffer: the next job waits while the printer holds enough to stay busy.
    while (inFlight.length && sent - confirmed + formats > maxBuffered) {
      schedulePoll();
      await new Promise<void>((r) => changed.push(r));
    }
    return exchange(async () => {
      let s: PrinterSocket;
      let before: HostStatus | null;
      try {
        s = await connection();
        // A fresh answer was learned when it came (learn): it is only judged here.
        before = freshAnswer(s);
        if (!before) learn((before = await ask(s)));
      } catch (err) {
        // A connection kept open may have gone stale (printer restarted): one fresh try.
        dropConnection();
        if (inFlight.length) failInFlight(asPrintError(err, 'unknown'));
        s = await connection();
        learn((before = await ask(s)));
      }
      const problem = hostStatusProblem(before);
      if (problem) throw new PrintError(problem.code, problem.message, 'not_sent');
      hooks.sending();
      try {
        // From the first job byte on, no earlier answer describes the printer.
        lastAnswer = null;
        await s.write(bytes, t.writeMs, true);
        sent += formats;
        const after = await ask(s);
        hooks.accepted();
        const confirmedJob = new Promise<PrintResult>((resolve, reject) => {
          inFlight.push({ upTo: sent, resolve, reject });
        });
        if (inFlight.length === 1) lastProgress = Date.now();
        learn(after);
        schedulePoll();
        return { confirmed: confirmedJob };
      } catch (err) {
        dropConnection();
        throw asPrintError(err, 'unknown');
      }
    });
  }

  return {
    formats: ['zpl'],
    streams: true,
    /**
     * As many jobs as fit in the printer's buffer room now, counted as send() counts it, when the
     * open connection has a fresh all-clear answer (mid-stream); otherwise one: a printer that is
     * off, paused or not yet asked never gets a burst committed `sending`.
     */
    readyFor(payloads) {
      if (!sock || !freshAnswer(sock)) return 1;
      let room = maxBuffered - (inFlight.length ? sent - confirmed : 0);
      let n = 0;
      for (const bytes of payloads) {
        const formats = Math.max(1, countFormats(bytes));
        if (n > 0 && formats > room) break;
        room -= formats;
        n++;
      }
      return Math.max(1, n);
    },
    async print(job, hooks) {
      // Sends go one after another, in order; the confirmation is awaited outside that order, so
      // the next job is sent while this one prints.
      const { confirmed } = await serial(() => send(job, hooks));
      return confirmed;
    },
    status: () =>
      exchange(async (): Promise<DriverStatus> => {
        let s: PrinterSocket;
        try {
          s = sock ?? (await PrinterSocket.connect(opts.host, opts.port, t.connectMs));
        } catch (err) {
          const e = asPrintError(err, 'not_sent');
          return { state: 'offline', reasonCode: e.code, reason: e.message };
        }
        try {
          const st = await ask(s);
          if (s === sock) learn(st);
          const problem = hostStatusProblem(st);
          return problem ? { state: 'error', reasonCode: problem.code, reason: problem.message } : { state: 'ready', reasonCode: null, reason: null };
        } catch (err) {
          if (s === sock) {
            dropConnection();
            failInFlight(asPrintError(err, 'unknown'));
          }
          const e = asPrintError(err, 'not_sent');
          return { state: 'error', reasonCode: e.code, reason: e.message };
        } finally {
          if (s !== sock) s.destroy();
        }
      }),
    /** Lets the labels in the printer be confirmed (the poll goes on), then closes the connection. */
    async close() {
      while (inFlight.length) {
        schedulePoll();
        await new Promise<void>((r) => changed.push(r));
      }
      await exchange(async () => {
        if (polling) clearTimeout(polling);
        polling = null;
        dropConnection();
      });
    },
  };
}

function createRawDriver(opts: ZplTcpOptions): PrinterDriver {
  const t: SocketTimeouts = { ...defaultTimeouts, ...opts.timeouts };
  const serial = createSerialWriter();

  async function printOnce(job: DriverJob, hooks: PrintHooks): Promise<PrintResult> {
    const bytes = await prepareZplForPrinter(job, opts.settings);
    const sock = await PrinterSocket.connect(opts.host, opts.port, t.connectMs);
    try {
      hooks.sending();
      await sock.write(bytes, t.writeMs, true);
      // A raw port without status: the printer closing its side after our FIN says it read all.
      // The kernel taking the bytes proves nothing (a printer that accepts and never reads leaves
      // them in its receive buffer), so an open connection ends unconfirmed, never printed.
      const closeWaitMs = opts.closeWaitMs ?? 2000;
      if ((await sock.finish(closeWaitMs)) === 'timeout') {
        return {
          kind: 'unconfirmed',
          code: 'not_confirmed',
          reason: `Every byte went to the printer at ${sock.label}, but it did not confirm reading them (it kept the connection open for ${closeWaitMs / 1000} s). Check whether the label came out.`,
        };
      }
      hooks.accepted();
      return PRINTED;
    } catch (err) {
      throw asPrintError(err, sock.wroteJobBytes ? 'unknown' : 'not_sent');
    } finally {
      sock.destroy();
    }
  }

  return {
    formats: ['zpl'],
    print: (job, hooks) => serial(() => printOnce(job, hooks)),
    status: () =>
      serial(async (): Promise<DriverStatus> => {
        let sock: PrinterSocket;
        try {
          sock = await PrinterSocket.connect(opts.host, opts.port, t.connectMs);
        } catch (err) {
          const e = asPrintError(err, 'not_sent');
          return { state: 'offline', reasonCode: e.code, reason: e.message };
        }
        try {
          return { state: 'ready', reasonCode: null, reason: null };
        } finally {
          sock.destroy();
        }
      }),
  };
}
