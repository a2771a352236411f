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
import {
  HOST_IDENTIFICATION_QUERY,
  HOST_STATUS_QUERY,
  LABEL_COUNTER_QUERY,
  countFrames,
  hasQuotedAnswer,
  hostStatusProblem,
  parseHostIdentification,
  parseHostStatus,
  parseLabelCounter,
} from './zplHostStatus';
import type { PrinterReasonCode } from '../../shared/errors/codes';

/**
 * A printer found: what it is comes as values (where it was found, the system's device name, a
 * stopped queue), put into words by the page in the UI language; a sentence made here would be
 * English on a Czech screen.
 */
export interface Discovered {
  connection: PrinterConnection;
  name: string;
  source: 'cups' | 'windows' | 'usb';
  device: string | null;
  stopped: boolean;
}

const LABEL_PRINTER = /zebra|zpl|zd\d|gk\d|gx\d|zt\d|socket:\/\//i;

export function listUsbLabelPrinters(dir = '/dev/usb'): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => /^lp\d+$/.test(f))
      .sort()
      .map((f) => `${dir}/${f}`);
  } catch {
    return [];
  }
}

/** The Windows spooler's printers: PDF through the spooler, and raw ZPL for what looks like a label printer. */
export async function discoverWindowsPrinters(spooler?: WindowsSpooler): Promise<Discovered[]> {
  const out: Discovered[] = [];
  for (const p of await listWindowsPrinters(spooler)) {
    const found = {
      source: 'windows' as const,
      device: p.deviceId && p.deviceId !== p.name ? p.deviceId : null,
      stopped: false,
    };
    if (LABEL_PRINTER.test(`${p.name} ${p.deviceId}`))
      out.push({ connection: { kind: 'zpl-spooler', queue: p.name }, name: `${p.name} (ZPL)`, ...found });
    out.push({ connection: { kind: 'pdf-system', queue: p.name }, name: p.name, ...found });
  }
  return out;
}

export async function discoverPrinters(platform = process.platform): Promise<Discovered[]> {
  if (platform === 'win32') return discoverWindowsPrinters();
  const out: Discovered[] = [];
  for (const q of await listCupsQueues()) {
    const found = { source: 'cups' as const, device: q.deviceUri ?? null, stopped: !q.enabled };
    if (LABEL_PRINTER.test(`${q.name} ${q.deviceUri ?? ''}`)) {
      out.push({ connection: { kind: 'zpl-spooler', queue: q.name }, name: `${q.name} (ZPL)`, ...found });
    }
    out.push({ connection: { kind: 'pdf-system', queue: q.name }, name: q.name, ...found });
  }
  for (const device of listUsbLabelPrinters()) {
    out.push({
      connection: { kind: 'zpl-usb', device },
      name: `ZPL USB ${device}`,
      source: 'usb',
      device,
      stopped: false,
    });
  }
  return out;
}

export interface TcpPrinterTest {
  ok: boolean;
  message: string;
  hostStatus: boolean;
  reasonCode: PrinterReasonCode | null;
  /** What the printer says it is (~HI), when it says. */
  model: string | null;
  /** Its resolution from ~HI (dots per millimetre), when it says. */
  dpi: 203 | 300 | 600 | null;
  /** It answers its label counter over SGD (asked only of a printer that answered ~HS as a Zebra). */
  labelCounter: boolean;
}

/**
 * Connects to host:port, asks ~HS (does it report its status, in the manual's layout?), then of a
 * printer that does ~HI (model and resolution) and its label counter (SGD), and says what it found.
 * Each question goes bare on a connection of its own: no line end a raw port could print as a blank
 * label, and a printer that ends the connection after an answer still gets the next question.
 * `reasonCode` (a PrintError code: offline, timeout) lets the UI say why it failed in its language.
 */
export async function testTcpPrinter(host: string, port: number, timeoutMs = 2000): Promise<TcpPrinterTest> {
  const at = `${host}:${port}`;
  /** One question on its own connection; null when nothing (whole) came back. */
  async function ask(query: Buffer, whole: (b: Buffer) => boolean): Promise<Buffer | null> {
    const sock = await PrinterSocket.connect(host, port, timeoutMs);
    try {
      await sock.write(query, timeoutMs, false);
      return await sock.readUntil(whole, timeoutMs);
    } catch {
      return null;
    } finally {
      sock.destroy();
    }
  }
  let answer: Buffer | null;
  try {
    answer = await ask(HOST_STATUS_QUERY, (b) => countFrames(b) >= 3);
  } catch (err) {
    return {
      ok: false,
      message: err instanceof Error ? err.message : String(err),
      hostStatus: false,
      reasonCode: err instanceof PrintError ? err.code : null,
      model: null,
      dpi: null,
      labelCounter: false,
    };
  }
  const status = answer && parseHostStatus(answer);
  if (!status) {
    const odd = answer
      ? ' It answered the status query in a layout that is not a Zebra host status, so its status cannot be read.'
      : '';
    return {
      ok: true,
      message: `Something at ${at} accepts connections but does not report its status (~HS) nor its resolution.${odd} Choose the resolution, and check a test print.`,
      hostStatus: false,
      reasonCode: null,
      model: null,
      dpi: null,
      labelCounter: false,
    };
  }
  const problem = hostStatusProblem(status);
  const state = problem ? ` It reports: ${problem.message}` : ' It reports ready.';
  const idAnswer = await ask(HOST_IDENTIFICATION_QUERY, (b) => countFrames(b) >= 1).catch(() => null);
  const ident = idAnswer && parseHostIdentification(idAnswer);
  const counterAnswer = await ask(LABEL_COUNTER_QUERY, hasQuotedAnswer).catch(() => null);
  const labelCounter = !!counterAnswer && parseLabelCounter(counterAnswer) !== null;
  const who = ident ? `a ${ident.model}${ident.dpi ? ` at ${ident.dpi} dpi` : ''}` : 'a printer';
  const message = `Found ${who} at ${at}; it reports its status (~HS).${state}${ident?.dpi ? '' : ' It did not say its resolution: choose it.'}${labelCounter ? ' It keeps a label counter.' : ''}`;
  return {
    ok: true,
    message,
    hostStatus: true,
    reasonCode: null,
    model: ident?.model ?? null,
    dpi: ident?.dpi ?? null,
    labelCounter,
  };
}
