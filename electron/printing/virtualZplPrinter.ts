/**
 * The embedded default label printer: a real TCP listener on 127.0.0.1 that speaks raw ZPL like
 * a Zebra printer on port 9100. It answers ~HS, keeps every byte it received and the labels it
 * "printed", so the app can show them and tests can count them. Conditions (paper out, head open,
 * paused, refusing connections, closing mid-job, silent, never reading) let the demo and the tests make it fail
 * like a real one: a paused printer keeps labels in its buffer and prints them when resumed.
 *
 * Print speed: with `speedIps` set, a label takes its length (^LL, in dots of `dpi`) over the
 * speed to come out, one after another, and the formats received meanwhile wait in its buffer.
 * ~HS reports them as a Zebra does: field eee of line 1 counts the formats in the receive buffer
 * (not yet started), uuuuuuuu of line 2 the labels of the format being printed that have not
 * come out yet (its ^PQ count), and h a format only partly received. Without a speed, a label
 * comes out the moment it is received (the tests' and the demo's default).
 *
 * Profiles: the ways printers and emulators other people wrote behave, each written from its
 * source (cited in test/integration/printing/printerProfiles.test.ts and silentAtStop.test.ts): a
 * printer that closes each connection after answering, answers ~HS only once its buffer drained,
 * stays silent on ~HS while it has a fault (the manual) and answers ~HQES, ignores ~HQES, resets
 * the connection when the station closes its side, closes only after rendering, frames a non-Zebra
 * status layout, ends lines with LF alone, sends answers in small pieces, or counts its labels (an
 * odometer over SGD).
 * Its answers are written here from the manual, not with the station's parser's idea of them.
 *
 * Bounded: a format may hold at most MAX_FORMAT_BYTES and a connection at most
 * MAX_PENDING_BYTES of unparsed bytes, and a connection that opens with an HTTP request line
 * (a browser's request from any web page) is dropped before anything of it is read as ZPL. Like a
 * printer's receive buffer (~HI reports its memory; ~HS line 1's f is the "buffer full" flag) the
 * formats waiting to print hold at most MAX_BUFFERED_BYTES: past it the printer stops reading its
 * connections until labels came out, so a sender waits instead of filling the station's memory.
 * Answers nobody reads stop its reading the same way (MAX_UNSENT_ANSWER_BYTES), and at most
 * MAX_CONNECTIONS are open at once. What it keeps for showing (`keep`: the labels printed, the raw
 * bytes) is bounded where the station runs it; a test's printer keeps everything it was sent.
 */
import net from 'node:net';
import { onConnection } from './virtualZplConnection';
import { flush, stopPrinting, type PrinterState } from './virtualZplHead';

export interface VirtualPrinterConditions {
  paperOut: boolean;
  headOpen: boolean;
  paused: boolean;
  /**
   * Close each connection after this many bytes (a printer dropping off mid-job); a connection
   * kept open that already carried as many is reset at its next byte.
   */
  closeAfterBytes: number | null;
  /** Accept connections and read, but never answer ~HS. */
  silent: boolean;
  /** Labels stay in the buffer without any error flag (a jam the printer does not report). */
  jammed: boolean;
  /** Out of ribbon (a thermal-transfer printer): it stops printing. */
  ribbonOut: boolean;
  /**
   * Accept connections, then never read from them nor close them: a port that swallows jobs (a
   * hung print server, the wrong device on 9100). Nothing it gets is printed or recorded.
   */
  neverRead: boolean;
}

/** How this printer talks, beyond Zebra's manual read the station's way (see the header). */
export interface VirtualPrinterProfile {
  /** Ends each connection right after writing an answer (an emulator that does not keep the socket). */
  closeAfterAnswer: boolean;
  /** Answers ~HS only when every format in its buffer has printed. */
  answerAfterDrain: boolean;
  /** No ~HS answer while paper out, ribbon out or head open (the manual); ~HQES still answers. */
  silentOnFault: boolean;
  /**
   * Answers ~HQES. The guide lists the printers ~HQ is for (Xi4, ZM400/ZM600, S4M, G-Series), and
   * Ladder99's Zebra driver notes "not all printers handle this": false, a printer that ignores it.
   */
  hostQuery: boolean;
  /** Answers the station's close (FIN) with a reset, after reading every byte. */
  resetOnClose: boolean;
  /** Closes its side this long after the station's close (it renders the label first). */
  closeDelayMs: number;
  /** The ~HS layout: the manual's three strings, or a non-Zebra one (32 fields on line 1). */
  layout: 'zebra' | 'wide';
  /** What ends each answer line. */
  lineEnd: '\r\n' | '\n';
  /** Answers written in pieces of this many bytes, a few milliseconds apart (0: in one write). */
  answerPieceBytes: number;
  /** Keeps a label counter and answers SGD `getvar "odometer.total_label_count"`. */
  odometer: boolean;
}

export const ZEBRA_PROFILE: VirtualPrinterProfile = {
  closeAfterAnswer: false,
  answerAfterDrain: false,
  silentOnFault: false,
  hostQuery: true,
  resetOnClose: false,
  closeDelayMs: 0,
  layout: 'zebra',
  lineEnd: '\r\n',
  answerPieceBytes: 0,
  odometer: false,
};

export {
  MAX_BUFFERED_BYTES,
  MAX_CONNECTIONS,
  MAX_FORMAT_BYTES,
  MAX_PENDING_BYTES,
  MAX_UNSENT_ANSWER_BYTES,
} from './virtualZplLimits';

/**
 * What the desk's own virtual printer keeps for showing: anything on 127.0.0.1 can send to its port,
 * so a flood costs at most these few MB.
 */
export const DESK_PRINTER_KEEP = { labels: 1000, labelBytes: 2 * 1024 * 1024, rawBytes: 1024 * 1024 };

export interface PrintedLabel {
  at: string;
  /** The label as the printer reads it (UTF-8 under ^CI28), for showing and searching. */
  zpl: string;
  /** The bytes it received for this label. */
  bytes: Buffer;
  /** When its printing began and ended (performance.now(), ms): the head's busy and idle time. */
  startedMs: number;
  endedMs: number;
}

export interface VirtualPrinterOptions {
  port?: number;
  now?: () => Date;
  /** The print head's resolution, for label lengths (^LL) in dots; 300 unless said. */
  dpi?: number;
  /** Print speed in inches per second; unset, labels come out at once. */
  speedIps?: number;
  profile?: Partial<VirtualPrinterProfile>;
  /** The odometer's reading at start (a printer that printed before). */
  odometerStart?: number;
  /**
   * What it keeps for showing: the newest printed labels, at most `labels` of them holding at most
   * `labelBytes`, and `rawBytes` of the newest raw bytes received. Unset, everything (a test counts
   * and reads all it was sent).
   */
  keep?: { labels: number; labelBytes: number; rawBytes: number };
}

export interface VirtualZplPrinter {
  readonly port: number;
  readonly host: string;
  /** Labels that came out, in order. */
  printed(): PrintedLabel[];
  /** Every connection's raw bytes, in order (queries included). */
  connections(): Buffer[];
  set(conditions: Partial<VirtualPrinterConditions>): void;
  /** Changes how it talks (see VirtualPrinterProfile). */
  setProfile(profile: Partial<VirtualPrinterProfile>): void;
  /** Labels it has printed since it was made (its odometer), whether or not it reports it. */
  labelCount(): number;
  /** Formats in its buffer (received, not yet out). */
  buffered(): number;
  /** Connections it dropped because they opened with an HTTP request line. */
  httpDropped(): number;
  /** Changes the print-speed model (null: labels come out at once). */
  setSpeed(speedIps: number | null, dpi?: number): void;
  /** Seconds one label of `lengthDots` takes at the current speed. */
  readonly speed: { ips: number | null; dpi: number };
  /** Switched off: stops listening (connections are refused) until online() is called; the formats in its buffer are gone. */
  offline(): Promise<void>;
  online(): Promise<void>;
  clear(): void;
  close(): Promise<void>;
}

export async function startVirtualZplPrinter(opts: VirtualPrinterOptions = {}): Promise<VirtualZplPrinter> {
  const st = initialState(opts);
  const listener = await openListener(st, opts.port ?? 0);
  return {
    port: listener.port,
    host: '127.0.0.1',
    printed: () => [...st.printed],
    connections: () => st.raw.map((r) => Buffer.concat(r.chunks)),
    set(c) {
      Object.assign(st.cond, c);
      flush(st);
    },
    setProfile(p) {
      Object.assign(st.profile, p);
    },
    labelCount: () => st.odometer,
    buffered: () => st.waiting.length,
    httpDropped: () => st.httpDropped,
    setSpeed(ips, dpi) {
      st.speed.ips = ips;
      if (dpi) st.speed.dpi = dpi;
      flush(st);
    },
    speed: st.speed,
    offline: listener.offline,
    online: listener.online,
    clear() {
      st.printed.length = 0;
      st.printedBytes = 0;
      st.raw.length = 0;
      st.rawTotal = 0;
      st.clears++;
    },
    close: listener.close,
  };
}

function initialState(opts: VirtualPrinterOptions): PrinterState {
  return {
    now: opts.now ?? (() => new Date()),
    keep: opts.keep,
    cond: {
      paperOut: false,
      headOpen: false,
      paused: false,
      closeAfterBytes: null,
      silent: false,
      jammed: false,
      neverRead: false,
      ribbonOut: false,
    },
    profile: { ...ZEBRA_PROFILE, ...opts.profile },
    speed: { ips: opts.speedIps ?? null, dpi: opts.dpi ?? 300 },
    printed: [],
    printedBytes: 0,
    odometer: opts.odometerStart ?? 0,
    httpDropped: 0,
    waiting: [],
    printing: null,
    afterDrain: [],
    raw: [],
    rawTotal: 0,
    bufferedBytes: 0,
    holds: new Map(),
    clears: 0,
    sockets: new Set(),
  };
}

/** The TCP port on 127.0.0.1, and switching it off (connections refused) and on again. */
async function openListener(st: PrinterState, wanted: number) {
  const createServer = () =>
    net.createServer({ pauseOnConnect: true, allowHalfOpen: true }, (socket) => onConnection(st, socket));
  let server = createServer();
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of st.sockets) s.destroy();
      st.afterDrain = [];
      server.close(() => resolve());
    });
  const port = await listen(wanted);
  let listening = true;
  return {
    port,
    async offline() {
      if (!listening) return;
      listening = false;
      stopPrinting(st);
      st.waiting.length = 0;
      st.bufferedBytes = 0;
      await stop();
    },
    async online() {
      if (listening) return;
      server = createServer();
      await listen(port);
      listening = true;
    },
    async close() {
      stopPrinting(st);
      if (listening) await stop();
      listening = false;
    },
  };
}
