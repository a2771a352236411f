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
import { HOST_STATUS_QUERY, parseHostStatus } from './zplHostStatus';

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

/** Connects to host:port and asks ~HS. ok: it accepts connections; hostStatus: it answered like a Zebra. */
/** `reasonCode` (a PrintError code: offline, timeout) lets the UI say why in its language. */
export async function testTcpPrinter(
  host: string,
  port: number,
  timeoutMs = 2000,
): Promise<{ ok: boolean; message: string; hostStatus: boolean; reasonCode: string | null }> {
  let sock: PrinterSocket;
  try {
    sock = await PrinterSocket.connect(host, port, timeoutMs);
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err), hostStatus: false, reasonCode: err instanceof PrintError ? err.code : null };
  }
  try {
    await sock.write(HOST_STATUS_QUERY, timeoutMs, false);
    const status = parseHostStatus(await sock.readFrames(3, timeoutMs));
    return status
      ? { ok: true, message: `The printer at ${host}:${port} answers and reports its status.`, hostStatus: true, reasonCode: null }
      : { ok: true, message: `The printer at ${host}:${port} accepts connections but did not answer ~HS as a Zebra printer would.`, hostStatus: false, reasonCode: null };
  } catch {
    return { ok: true, message: `The printer at ${host}:${port} accepts connections; it does not report its status (~HS).`, hostStatus: false, reasonCode: null };
  } finally {
    sock.destroy();
  }
}
