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
 */
import net from 'node:net';
import { zplTextOf } from './zplBytes';
import { formatHostStatus } from './zplHostStatus';

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
  /**
   * Accept connections, then never read from them nor close them: a port that swallows jobs (a
   * hung print server, the wrong device on 9100). Nothing it gets is printed or recorded.
   */
  neverRead: boolean;
}

export interface PrintedLabel {
  at: string;
  /** The label as the printer reads it (UTF-8 under ^CI28), for showing and searching. */
  zpl: string;
  /** The bytes it received for this label. */
  bytes: Buffer;
}

export interface VirtualPrinterOptions {
  port?: number;
  now?: () => Date;
  /** The print head's resolution, for label lengths (^LL) in dots; 300 unless said. */
  dpi?: number;
  /** Print speed in inches per second; unset, labels come out at once. */
  speedIps?: number;
}

interface BufferedFormat {
  bytes: Buffer;
  /** Labels of this format (^PQ) still to come out. */
  labelsLeft: number;
  lengthDots: number;
}

export interface VirtualZplPrinter {
  readonly port: number;
  readonly host: string;
  /** Labels that came out, in order. */
  printed(): PrintedLabel[];
  /** Every connection's raw bytes, in order (queries included). */
  connections(): Buffer[];
  set(conditions: Partial<VirtualPrinterConditions>): void;
  /** Changes the print-speed model (null: labels come out at once). */
  setSpeed(speedIps: number | null, dpi?: number): void;
  /** Seconds one label of `lengthDots` takes at the current speed. */
  readonly speed: { ips: number | null; dpi: number };
  /** Stops listening (connections are refused) until online() is called. */
  offline(): Promise<void>;
  online(): Promise<void>;
  clear(): void;
  close(): Promise<void>;
}

export async function startVirtualZplPrinter(opts: VirtualPrinterOptions = {}): Promise<VirtualZplPrinter> {
  const now = opts.now ?? (() => new Date());
  const cond: VirtualPrinterConditions = { paperOut: false, headOpen: false, paused: false, closeAfterBytes: null, silent: false, jammed: false, neverRead: false };
  const speed = { ips: opts.speedIps ?? null, dpi: opts.dpi ?? 300 };
  const printed: PrintedLabel[] = [];
  /** Formats received, in order; the first one is printing when `printing` is set. */
  const waiting: BufferedFormat[] = [];
  let printing: { timer: NodeJS.Timeout } | null = null;
  const raw: Buffer[] = [];
  let clears = 0;
  const sockets = new Set<net.Socket>();
  const canPrint = () => !cond.paperOut && !cond.headOpen && !cond.paused && !cond.jammed;
  const labelDone = () => {
    const head = waiting[0]!;
    head.labelsLeft--;
    if (head.labelsLeft <= 0) {
      waiting.shift();
      printed.push({ at: now().toISOString(), zpl: zplTextOf(head.bytes), bytes: head.bytes });
    }
  };
  const flush = () => {
    if (speed.ips === null) {
      while (canPrint() && waiting.length) {
        waiting[0]!.labelsLeft = 1;
        labelDone();
      }
      return;
    }
    if (printing || !canPrint() || !waiting.length) return;
    const ms = ((waiting[0]!.lengthDots / speed.dpi) / speed.ips) * 1000;
    printing = {
      timer: setTimeout(() => {
        printing = null;
        // The label came out unless the printer stopped meanwhile (paper out mid-label: it stays).
        if (canPrint()) labelDone();
        flush();
      }, ms),
    };
  };
  /** Line 1's eee and line 2's uuuuuuuu as a Zebra reports them. */
  const bufferCounts = () => {
    const started = printing !== null || (waiting[0] !== undefined && waiting[0].labelsLeft < labelsOf(waiting[0].bytes));
    return started
      ? { formatsInBuffer: waiting.length - 1, labelsRemaining: waiting[0]!.labelsLeft }
      : { formatsInBuffer: waiting.length, labelsRemaining: 0 };
  };
  const receive = (bytes: Buffer) => {
    const text = bytes.toString('latin1');
    const ll = /\^LL\s*(\d+)/i.exec(text);
    waiting.push({ bytes, labelsLeft: labelsOf(bytes), lengthDots: ll ? Number(ll[1]) : Math.round(speed.dpi * 6) });
    flush();
  };

  function onConnection(socket: net.Socket) {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    // Sockets start paused (pauseOnConnect): a never-reading port must not even read ahead.
    if (cond.neverRead) return;
    // This connection's bytes; its slot in `raw` is taken anew after clear() (a connection kept
    // open outlives a clear).
    let mine = Buffer.alloc(0);
    let generation = -1;
    let index = -1;
    let pending = '';
    let partial = false;
    socket.on('data', (chunk: Buffer) => {
      let data = chunk;
      if (cond.closeAfterBytes !== null) {
        const room = cond.closeAfterBytes - mine.length;
        // A connection kept open from before (a streaming driver's) that already carried more:
        // the printer dropped off, so its next byte meets a reset, never a silent, open port.
        if (room <= 0) {
          socket.resetAndDestroy();
          return;
        }
        data = chunk.subarray(0, room);
      }
      mine = Buffer.concat([mine, data]);
      if (generation !== clears) {
        generation = clears;
        index = raw.push(Buffer.alloc(0)) - 1;
      }
      raw[index] = Buffer.concat([raw[index]!, data]);
      pending += data.toString('latin1');
      for (;;) {
        const hi = pending.indexOf('~HI');
        const xa0 = pending.search(/\^XA/i);
        if (hi >= 0 && (xa0 < 0 || hi < xa0) && (pending.indexOf('~HS') < 0 || hi < pending.indexOf('~HS'))) {
          // ~HI: model, firmware, dots per millimetre, memory (ZPL II guide, "~HI Host Identification").
          pending = pending.slice(hi + 3);
          const dpmm = speed.dpi === 203 ? 8 : speed.dpi === 600 ? 24 : 12;
          if (!cond.silent) socket.write(Buffer.from(`\x02ZD421-${speed.dpi}dpi,V84.20.21Z,${dpmm},8192KB\x03\r\n`, 'latin1'));
          continue;
        }
        const hs = pending.indexOf('~HS');
        const xa = pending.search(/\^XA/i);
        if (hs >= 0 && (xa < 0 || hs < xa)) {
          pending = pending.slice(hs + 3);
          if (!cond.silent) {
            socket.write(formatHostStatus({ ...cond, ...bufferCounts(), partialFormat: partial }));
          }
          continue;
        }
        if (xa < 0) {
          pending = pending.slice(Math.max(0, pending.length - 2));
          partial = false;
          break;
        }
        const end = pending.slice(xa).search(/\^XZ/i);
        if (end < 0) {
          pending = pending.slice(xa);
          partial = true;
          break;
        }
        partial = false;
        receive(Buffer.from(pending.slice(xa, xa + end + 3), 'latin1'));
        pending = pending.slice(xa + end + 3);
      }
      // A printer dropping off mid-job resets the connection (power cycle, crash, cable pulled).
      if (cond.closeAfterBytes !== null && mine.length >= cond.closeAfterBytes) socket.resetAndDestroy();
    });
    socket.resume();
  }

  const createServer = () => net.createServer({ pauseOnConnect: true }, onConnection);
  let server = createServer();
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  const port = await listen(opts.port ?? 0);
  let listening = true;

  return {
    port,
    host: '127.0.0.1',
    printed: () => [...printed],
    connections: () => [...raw],
    set(c) {
      Object.assign(cond, c);
      flush();
    },
    setSpeed(ips, dpi) {
      speed.ips = ips;
      if (dpi) speed.dpi = dpi;
      flush();
    },
    speed,
    async offline() {
      if (!listening) return;
      listening = false;
      await stop();
    },
    async online() {
      if (listening) return;
      server = createServer();
      await listen(port);
      listening = true;
    },
    clear() {
      printed.length = 0;
      raw.length = 0;
      clears++;
    },
    async close() {
      if (printing) clearTimeout(printing.timer);
      printing = null;
      if (listening) await stop();
      listening = false;
    },
  };
}

/** Labels a format prints: its ^PQ count, 1 without one. */
function labelsOf(bytes: Buffer): number {
  const pq = /\^PQ\s*(\d+)/i.exec(bytes.toString('latin1'));
  return pq ? Math.max(1, Number(pq[1])) : 1;
}
