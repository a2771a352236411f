/**
 * ZPL raw over TCP (port 9100). With host status on, the printer is asked (~HS) before the job
 * (paper out, head open, paused: the job is not sent) and after it (the answer proves every byte
 * arrived; then the label must leave the buffer, or the job fails with the printer's reason
 * instead of a silent "done"). Without host status, only the printer closing its side after ours
 * proves it read the job; a printer that keeps the connection open gives no proof (`unconfirmed`).
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
  const t: SocketTimeouts = { ...defaultTimeouts, ...opts.timeouts };
  const serial = createSerialWriter();
  const printTimeoutMs = opts.printTimeoutMs ?? 15_000;

  async function printOnce(job: DriverJob, hooks: PrintHooks): Promise<PrintResult> {
    const bytes = await prepareZplForPrinter(job, opts.settings);
    const sock = await PrinterSocket.connect(opts.host, opts.port, t.connectMs);
    try {
      if (opts.settings.hostStatus) {
        const before = hostStatusProblem(await askStatus(sock, t));
        if (before) throw new PrintError(before.code, before.message, 'not_sent');
        hooks.sending();
        await sock.write(bytes, t.writeMs, true);
        let after = await askStatus(sock, t);
        hooks.accepted();
        const deadline = Date.now() + printTimeoutMs;
        for (;;) {
          const problem = hostStatusProblem(after);
          if (problem) throw new PrintError(problem.code, `${problem.message} The label reached the printer but was not printed.`, 'not_printed');
          if (after.formatsInBuffer === 0 && after.labelsRemaining === 0 && !after.partialFormat) break;
          if (Date.now() >= deadline) {
            throw new PrintError('label_not_printed', `The label is still in the printer's buffer after ${printTimeoutMs / 1000} s. Check the printer.`, 'not_printed');
          }
          await new Promise((r) => setTimeout(r, 200));
          after = await askStatus(sock, t);
        }
        await sock.finish(t.readMs).catch(() => 'timeout');
        return PRINTED;
      }
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
          if (!opts.settings.hostStatus) return { state: 'ready', reasonCode: null, reason: null };
          const problem = hostStatusProblem(await askStatus(sock, t));
          return problem ? { state: 'error', reasonCode: problem.code, reason: problem.message } : { state: 'ready', reasonCode: null, reason: null };
        } catch (err) {
          const e = asPrintError(err, 'not_sent');
          return { state: 'error', reasonCode: e.code, reason: e.message };
        } finally {
          sock.destroy();
        }
      }),
  };
}
