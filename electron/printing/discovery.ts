/**
 * Printer discovery: the Windows spooler's printers, CUPS queues (a queue in front of a Zebra or a socket:// device is offered as a
 * raw ZPL queue too), USB label printers on Linux (/dev/usb/lpN), and a connection test for a TCP
 * printer typed in by hand (host:port), which also tells whether it answers ~HS.
 */
import { readdirSync } from 'node:fs';
import type { PrinterConnection } from '../../shared/contract/printing';
import { PrintError } from './printerDriver';
import { PrinterSocket } from './printerSocket';
import { listCupsQueues } from './systemPrinters';
import { listWindowsPrinters, type WindowsSpooler } from './windowsSpooler';
import { HOST_IDENTIFICATION_QUERY, HOST_STATUS_QUERY, hostStatusProblem, parseHostIdentification, parseHostStatus } from './zplHostStatus';

export interface Discovered {
  connection: PrinterConnection;
  name: string;
  detail: string;
}

const LABEL_PRINTER = /zebra|zpl|zd\d|gk\d|gx\d|zt\d|socket:\/\//i;

export function listUsbLabelPrinters(dir = '/dev/usb'): string[] {
  try {
    return readdirSync(dir).filter((f) => /^lp\d+$/.test(f)).sort().map((f) => `${dir}/${f}`);
  } catch {
    return [];
  }
}

/** The Windows spooler's printers: PDF through the spooler, and raw ZPL for what looks like a label printer. */
export async function discoverWindowsPrinters(spooler?: WindowsSpooler): Promise<Discovered[]> {
  const out: Discovered[] = [];
  for (const p of await listWindowsPrinters(spooler)) {
    const detail = `Windows printer${p.deviceId && p.deviceId !== p.name ? ` (${p.deviceId})` : ''}`;
    if (LABEL_PRINTER.test(`${p.name} ${p.deviceId}`)) out.push({ connection: { kind: 'zpl-spooler', queue: p.name }, name: `${p.name} (ZPL, raw)`, detail });
    out.push({ connection: { kind: 'pdf-system', queue: p.name }, name: p.name, detail });
  }
  return out;
}

export async function discoverPrinters(platform = process.platform): Promise<Discovered[]> {
  if (platform === 'win32') return discoverWindowsPrinters();
  const out: Discovered[] = [];
  for (const q of await listCupsQueues()) {
    const detail = `CUPS queue${q.deviceUri ? ` (${q.deviceUri})` : ''}${q.enabled ? '' : ', stopped'}`;
    if (LABEL_PRINTER.test(`${q.name} ${q.deviceUri ?? ''}`)) {
      out.push({ connection: { kind: 'zpl-spooler', queue: q.name }, name: `${q.name} (ZPL, raw)`, detail });
    }
    out.push({ connection: { kind: 'pdf-system', queue: q.name }, name: q.name, detail });
  }
  for (const device of listUsbLabelPrinters()) {
    out.push({ connection: { kind: 'zpl-usb', device }, name: `USB label printer ${device}`, detail: 'Linux USB printer device' });
  }
  return out;
}

export interface TcpPrinterTest {
  ok: boolean;
  message: string;
  hostStatus: boolean;
  reasonCode: string | null;
  /** What the printer says it is (~HI), when it says. */
  model: string | null;
  /** Its resolution from ~HI (dots per millimetre), when it says. */
  dpi: 203 | 300 | 600 | null;
}

/**
 * Connects to host:port, asks ~HS (does it report its status?) and ~HI (model and resolution),
 * and says what it found. `reasonCode` (a PrintError code: offline, timeout) lets the UI say why
 * it failed in its language.
 */
export async function testTcpPrinter(host: string, port: number, timeoutMs = 2000): Promise<TcpPrinterTest> {
  let sock: PrinterSocket;
  try {
    sock = await PrinterSocket.connect(host, port, timeoutMs);
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err), hostStatus: false, reasonCode: err instanceof PrintError ? err.code : null, model: null, dpi: null };
  }
  const at = `${host}:${port}`;
  try {
    let hostStatus = false;
    let state = '';
    try {
      await sock.write(HOST_STATUS_QUERY, timeoutMs, false);
      const status = parseHostStatus(await sock.readFrames(3, timeoutMs));
      hostStatus = !!status;
      const problem = status && hostStatusProblem(status);
      state = status ? (problem ? ` It reports: ${problem.message}` : ' It reports ready.') : '';
    } catch {
      // No ~HS answer: a plain raw port.
    }
    let ident: ReturnType<typeof parseHostIdentification> = null;
    if (hostStatus) {
      try {
        await sock.write(HOST_IDENTIFICATION_QUERY, timeoutMs, false);
        ident = parseHostIdentification(await sock.readFrames(1, timeoutMs));
      } catch {
        // A printer that reports its status but not its identity: the worker picks the resolution.
      }
    }
    const who = ident ? `a ${ident.model}${ident.dpi ? ` at ${ident.dpi} dpi` : ''}` : 'a printer';
    const message = hostStatus
      ? `Found ${who} at ${at}; it reports its status (~HS).${state}${ident?.dpi ? '' : ' It did not say its resolution: choose it.'}`
      : `Something at ${at} accepts connections but does not report its status (~HS) nor its resolution: choose the resolution, and check a test print.`;
    return { ok: true, message, hostStatus, reasonCode: null, model: ident?.model ?? null, dpi: ident?.dpi ?? null };
  } finally {
    sock.destroy();
  }
}
