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
 * Profiles: the ways printers and emulators other people wrote behave, each
 * written from its source (cited in test/integration/printing/printerProfiles.test.ts): a printer
 * that closes each connection after answering, answers ~HS only once its buffer drained, stays
 * silent on ~HS while it has a fault (the manual) and answers ~HQES, resets the connection when the
 * station closes its side, closes only after rendering, frames a non-Zebra status layout, ends
 * lines with LF alone, sends answers in small pieces, or counts its labels (an odometer over SGD).
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
import { zplTextOf } from './zplBytes';

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
  resetOnClose: false,
  closeDelayMs: 0,
  layout: 'zebra',
  lineEnd: '\r\n',
  answerPieceBytes: 0,
  odometer: false,
};

/** Most bytes one ^XA..^XZ format may hold, and one connection may keep unparsed. */
export const MAX_FORMAT_BYTES = 4 * 1024 * 1024;
export const MAX_PENDING_BYTES = 4 * 1024 * 1024;
/** The receive buffer: formats received and not yet printed (a ZD421's ~HI reports 8192 KB of memory). */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** Answers written and not yet read by the other side, before it stops reading that connection. */
export const MAX_UNSENT_ANSWER_BYTES = 64 * 1024;
/**
 * What the desk's own virtual printer keeps for showing: anything on 127.0.0.1 can send to its port,
 * so a flood costs at most these few MB.
 */
export const DESK_PRINTER_KEEP = { labels: 1000, labelBytes: 2 * 1024 * 1024, rawBytes: 1024 * 1024 };
/** Connections open at once; more are closed at once (a printer's port serves one host at a time). */
export const MAX_CONNECTIONS = 16;

/** The start of a format, and the questions the printer answers (~HS, ~HI, ~HQ…, an SGD getvar). */
const FORMAT_START = /\^XA/i;
const QUESTION = /~H[SIQ]|! U1 getvar/;
/** Where a marker begins in a connection's unread text, and what it is. */
interface Mark {
  index: number;
  text: string;
}

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

interface BufferedFormat {
  bytes: Buffer;
  /** When its first label began printing. */
  startedMs?: number;
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
  const now = opts.now ?? (() => new Date());
  const cond: VirtualPrinterConditions = {
    paperOut: false,
    headOpen: false,
    paused: false,
    closeAfterBytes: null,
    silent: false,
    jammed: false,
    neverRead: false,
    ribbonOut: false,
  };
  const profile: VirtualPrinterProfile = { ...ZEBRA_PROFILE, ...opts.profile };
  const speed = { ips: opts.speedIps ?? null, dpi: opts.dpi ?? 300 };
  const printed: PrintedLabel[] = [];
  let printedBytes = 0;
  let odometer = opts.odometerStart ?? 0;
  let httpDropped = 0;
  /** Formats received, in order; the first one is printing when `printing` is set. */
  const waiting: BufferedFormat[] = [];
  let printing: { timer: NodeJS.Timeout } | null = null;
  /** Answers held until the buffer drains (answerAfterDrain), in the order asked. */
  let afterDrain: (() => void)[] = [];
  /**
   * Raw bytes by connection, oldest first; a connection appends its chunks to its own slot. Kept as
   * the chunks received (joined only when asked), so a bound drops whole old chunks instead of
   * copying what is kept again at every chunk.
   */
  const raw: { chunks: Buffer[] }[] = [];
  let rawTotal = 0;
  const keepRaw = (slot: { chunks: Buffer[] }, data: Buffer) => {
    slot.chunks.push(data);
    rawTotal += data.length;
    const cap = opts.keep?.rawBytes ?? Infinity;
    while (rawTotal > cap) {
      const oldest = raw[0]!;
      if (oldest.chunks.length <= 1 && raw.length > 1) {
        rawTotal -= oldest.chunks[0]?.length ?? 0;
        raw.shift();
      } else if (oldest.chunks.length > 1) {
        rawTotal -= oldest.chunks.shift()!.length;
      } else break;
    }
  };
  /** Bytes of the formats in the buffer (not yet printed). */
  let bufferedBytes = 0;
  /** Why each connection does not read now: the buffer is full, its answers are not read. */
  const holds = new Map<net.Socket, Set<'buffer' | 'answers'>>();
  const hold = (socket: net.Socket, why: 'buffer' | 'answers', on: boolean) => {
    const set = holds.get(socket);
    if (!set || socket.destroyed) return;
    if (on) set.add(why);
    else set.delete(why);
    if (set.size) socket.pause();
    else socket.resume();
  };
  const bufferRoom = () => {
    const full = bufferedBytes >= MAX_BUFFERED_BYTES;
    // Reading again once half of it printed, not at the first label out: no read, pause, read.
    if (full || bufferedBytes < MAX_BUFFERED_BYTES / 2) for (const sk of holds.keys()) hold(sk, 'buffer', full);
  };
  let clears = 0;
  const sockets = new Set<net.Socket>();
  const fault = () => cond.paperOut || cond.headOpen || cond.ribbonOut;
  const canPrint = () => !fault() && !cond.paused && !cond.jammed;
  const drained = () => !waiting.length && !printing;
  const releaseAnswers = () => {
    if (!drained()) return;
    const held = afterDrain;
    afterDrain = [];
    for (const f of held) f();
  };
  const labelDone = () => {
    const head = waiting[0];
    if (!head) return;
    head.labelsLeft--;
    odometer++;
    if (head.labelsLeft <= 0) {
      waiting.shift();
      bufferedBytes -= head.bytes.length;
      bufferRoom();
      const endedMs = performance.now();
      printed.push({
        at: now().toISOString(),
        zpl: zplTextOf(head.bytes),
        bytes: head.bytes,
        startedMs: head.startedMs ?? endedMs,
        endedMs,
      });
      printedBytes += head.bytes.length;
      while (
        printed.length > 1 &&
        (printed.length > (opts.keep?.labels ?? Infinity) || printedBytes > (opts.keep?.labelBytes ?? Infinity))
      )
        printedBytes -= printed.shift()!.bytes.length;
    }
  };
  const flush = () => {
    if (speed.ips === null) {
      // Switched to instant printing mid-label: the label under way comes out with the rest now,
      // and its timer must not count it a second time (or count a label the buffer no longer holds).
      if (printing && canPrint()) {
        clearTimeout(printing.timer);
        printing = null;
      }
      while (canPrint() && waiting.length) labelDone();
      releaseAnswers();
      return;
    }
    if (printing || !canPrint() || !waiting.length) {
      releaseAnswers();
      return;
    }
    const ms = (waiting[0]!.lengthDots / speed.dpi / speed.ips) * 1000;
    waiting[0]!.startedMs ??= performance.now();
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
    const started =
      printing !== null || (waiting[0] !== undefined && waiting[0].labelsLeft < labelsOf(waiting[0].bytes));
    return started
      ? { formatsInBuffer: waiting.length - 1, labelsRemaining: waiting[0]!.labelsLeft }
      : { formatsInBuffer: waiting.length, labelsRemaining: 0 };
  };
  const receive = (bytes: Buffer) => {
    const text = bytes.toString('latin1');
    const ll = /\^LL\s*(\d+)/i.exec(text);
    waiting.push({ bytes, labelsLeft: labelsOf(bytes), lengthDots: ll ? Number(ll[1]) : Math.round(speed.dpi * 6) });
    bufferedBytes += bytes.length;
    bufferRoom();
    flush();
  };

  /**
   * ~HS as the ZPL II guide lays it out ("~HS Host Status Return"): three strings, each
   * <STX>…<ETX> and a line end. String 1 aaa,b,c,dddd,eee,f,g,h,iii,j,k,l (b paper out, c paused,
   * eee formats in the receive buffer, h partial format); string 2 mmm,n,o,p,q,r,s,t,uuuuuuuu,v,www
   * (o head up, p ribbon out, uuuuuuuu labels remaining); string 3 xxxx,y.
   */
  const hostStatus = (partial: boolean): string => {
    const b = (v: boolean) => (v ? '1' : '0');
    const c = bufferCounts();
    if (profile.layout === 'wide') {
      // Not a Zebra: 32 fields on its first line, none of them where the manual puts Zebra's.
      const wide = Array.from({ length: 32 }, (_, i) => (i === 1 ? b(cond.paperOut) : '0'));
      return [wide.join(','), '0,0,0', '0'].map((l) => `\x02${l}\x03${profile.lineEnd}`).join('');
    }
    const full = b(bufferedBytes >= MAX_BUFFERED_BYTES);
    const l1 = `030,${b(cond.paperOut)},${b(cond.paused)},1800,${String(c.formatsInBuffer).padStart(3, '0')},${full},0,${b(partial)},000,0,0,0`;
    const l2 = `001,0,${b(cond.headOpen)},${b(cond.ribbonOut)},0,2,6,0,${String(c.labelsRemaining).padStart(8, '0')},1,000`;
    return [l1, l2, '1234,0'].map((l) => `\x02${l}\x03${profile.lineEnd}`).join('');
  };
  /**
   * ~HQES as the ZPL II guide lays it out ("~HQ Host Query", ES: error status): a frame holding
   * "PRINTER STATUS", then ERRORS and WARNINGS, each a flag and two groups of eight hex digits;
   * the second group's bits: 1 media out, 2 ribbon out, 4 head open.
   */
  const errorStatus = (): string => {
    const bits = (cond.paperOut ? 0x1 : 0) | (cond.ribbonOut ? 0x2 : 0) | (cond.headOpen ? 0x4 : 0);
    const e = profile.lineEnd;
    const hex = (n: number) => n.toString(16).toUpperCase().padStart(8, '0');
    return `\x02${e}  PRINTER STATUS${e}   ERRORS:         ${bits ? 1 : 0} 00000000 ${hex(bits)}${e}   WARNINGS:       0 00000000 00000000${e}\x03${e}`;
  };

  function onConnection(socket: net.Socket) {
    if (sockets.size >= MAX_CONNECTIONS) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      holds.delete(socket);
    });
    socket.on('error', () => socket.destroy());
    // Sockets start paused (pauseOnConnect): a never-reading port must not even read ahead.
    if (cond.neverRead) return;
    // This connection's bytes; its slot in `raw` is taken anew after clear() (a connection kept
    // open outlives a clear).
    let mine = 0;
    let generation = -1;
    let slot: { chunks: Buffer[] } | null = null;
    let pending = '';
    let partial = false;
    let decided = false;
    let ending = false;
    /** Answers of this connection wait behind one held until the buffer drains (they keep their order). */
    let held = 0;
    const send = (text: string) => {
      if (socket.destroyed || ending) return;
      const bytes = Buffer.from(text, 'latin1');
      if (profile.closeAfterAnswer) ending = true;
      const after = () => {
        if (profile.closeAfterAnswer && !socket.destroyed) socket.end();
      };
      if (profile.answerPieceBytes > 0) {
        const pieces: Buffer[] = [];
        for (let i = 0; i < bytes.length; i += profile.answerPieceBytes)
          pieces.push(bytes.subarray(i, i + profile.answerPieceBytes));
        const next = () => {
          const piece = pieces.shift();
          if (!piece || socket.destroyed) return after();
          socket.write(piece);
          setTimeout(next, 2);
        };
        next();
      } else {
        socket.write(bytes);
        after();
      }
      // A host that asks and never reads the answers: stop reading its questions until it does.
      if (socket.writableLength > MAX_UNSENT_ANSWER_BYTES) {
        hold(socket, 'answers', true);
        socket.once('drain', () => {
          hold(socket, 'answers', false);
          parse();
        });
      }
    };
    const answer = (make: () => string | null, waitsForDrain: boolean) => {
      if (held > 0 || (waitsForDrain && profile.answerAfterDrain && !drained())) {
        held++;
        afterDrain.push(() => {
          held--;
          const text = make();
          if (text !== null) send(text);
        });
        return;
      }
      const text = make();
      if (text !== null) send(text);
    };
    socket.on('end', () => {
      // The station closed its side: every byte it sent has been read (they come before the FIN).
      if (profile.resetOnClose) socket.resetAndDestroy();
      else if (profile.closeDelayMs > 0) setTimeout(() => socket.end(), profile.closeDelayMs);
      else socket.end();
    });
    /**
     * Where the next format (^XA) and the next question begin in `pending`, kept while the front
     * is consumed (null: none there; undefined: search again). A chunk of thousands of tiny formats
     * or questions is then read in one sweep: searching all of `pending` again for each one held
     * the event loop for minutes under a flood (in the demo the printer lives in the station's core).
     */
    const marks: { xa?: Mark | null; q?: Mark | null } = {};
    const mark = (k: 'xa' | 'q'): Mark | null => {
      let m = marks[k];
      if (m === undefined) {
        const r = (k === 'xa' ? FORMAT_START : QUESTION).exec(pending);
        m = r ? { index: r.index, text: r[0] } : null;
        marks[k] = m;
      }
      return m;
    };
    /** Drops the first `n` characters of `pending`; a mark behind them is searched again. */
    const take = (n: number) => {
      pending = pending.slice(n);
      for (const k of ['xa', 'q'] as const) {
        const m = marks[k];
        if (m) marks[k] = m.index >= n ? { index: m.index - n, text: m.text } : undefined;
      }
    };
    /** Reads the formats and questions in `pending`, in order. */
    const parse = () => {
      for (;;) {
        // Questions wait while the answers already written are not read (the host stops reading).
        if (holds.get(socket)?.has('answers')) return;
        const xa = mark('xa')?.index ?? -1;
        const q = mark('q');
        if (q && (xa < 0 || q.index < xa)) {
          const rest = pending.slice(q.index);
          if (q.text === '~HS') {
            take(q.index + 3);
            const isPartial = partial;
            if (!cond.silent) answer(() => (profile.silentOnFault && fault() ? null : hostStatus(isPartial)), true);
            continue;
          }
          if (q.text === '~HI') {
            // ~HI: model, firmware, dots per millimetre, memory (ZPL II guide, "~HI Host Identification").
            take(q.index + 3);
            const dpmm = speed.dpi === 203 ? 8 : speed.dpi === 600 ? 24 : 12;
            if (!cond.silent)
              answer(() => `\x02ZD421-${speed.dpi}dpi,V84.20.21Z,${dpmm},8192KB\x03${profile.lineEnd}`, false);
            continue;
          }
          if (q.text === '~HQ') {
            if (rest.length < 5) break;
            take(q.index + 5);
            if (rest.slice(3, 5).toUpperCase() === 'ES' && !cond.silent) answer(errorStatus, false);
            continue;
          }
          // SGD: ! U1 getvar "name", "terminated by a space character or a CR/LF"; the answer is
          // the value in double quotes, "?" for a setting it does not have (Zebra's SGD guide).
          const line = /^! U1 getvar "([^"]*)"( |\r\n)/.exec(rest);
          if (!line) {
            if (rest.length > 200) take(q.index + 1);
            break;
          }
          take(q.index + line[0].length);
          if (!cond.silent)
            answer(() => `"${profile.odometer && line[1] === 'odometer.total_label_count' ? odometer : '?'}"`, false);
          continue;
        }
        if (xa < 0) {
          take(Math.max(0, pending.length - 12));
          partial = false;
          break;
        }
        const end = pending.slice(xa).search(/\^XZ/i);
        if (end < 0) {
          take(xa);
          partial = true;
          // A format larger than any label: the printer drops it (and the connection).
          if (pending.length > MAX_FORMAT_BYTES) socket.resetAndDestroy();
          break;
        }
        partial = false;
        receive(Buffer.from(pending.slice(xa, xa + end + 3), 'latin1'));
        take(xa + end + 3);
      }
    };
    socket.on('data', (chunk: Buffer) => {
      if (ending) return;
      let data = chunk;
      if (cond.closeAfterBytes !== null) {
        const room = cond.closeAfterBytes - mine;
        // A connection kept open from before (a streaming driver's) that already carried more:
        // the printer dropped off, so its next byte meets a reset, never a silent, open port.
        if (room <= 0) {
          socket.resetAndDestroy();
          return;
        }
        data = chunk.subarray(0, room);
      }
      mine += data.length;
      if (generation !== clears || !slot) {
        generation = clears;
        slot = { chunks: [] };
        raw.push(slot);
      }
      keepRaw(slot, data);
      pending += data.toString('latin1');
      // A mark found stays first (a match cannot begin earlier and end in the new bytes); "none" may change.
      if (marks.xa === null) marks.xa = undefined;
      if (marks.q === null) marks.q = undefined;
      if (!decided) {
        // A browser's request (any web page can send one to 127.0.0.1) is not a print job.
        if (/^[A-Z]{3,7} \S/.test(pending)) {
          httpDropped++;
          socket.resetAndDestroy();
          return;
        }
        if (pending.length >= 8 || /[^A-Z]/.test(pending)) decided = true;
      }
      if (pending.length > MAX_PENDING_BYTES) {
        socket.resetAndDestroy();
        return;
      }
      parse();
      // A printer dropping off mid-job resets the connection (power cycle, crash, cable pulled).
      if (cond.closeAfterBytes !== null && mine >= cond.closeAfterBytes) socket.resetAndDestroy();
    });
    holds.set(socket, new Set());
    socket.resume();
    bufferRoom();
  }

  const createServer = () => net.createServer({ pauseOnConnect: true, allowHalfOpen: true }, onConnection);
  let server = createServer();
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      afterDrain = [];
      server.close(() => resolve());
    });
  const port = await listen(opts.port ?? 0);
  let listening = true;

  return {
    port,
    host: '127.0.0.1',
    printed: () => [...printed],
    connections: () => raw.map((r) => Buffer.concat(r.chunks)),
    set(c) {
      Object.assign(cond, c);
      flush();
    },
    setProfile(p) {
      Object.assign(profile, p);
    },
    labelCount: () => odometer,
    buffered: () => waiting.length,
    httpDropped: () => httpDropped,
    setSpeed(ips, dpi) {
      speed.ips = ips;
      if (dpi) speed.dpi = dpi;
      flush();
    },
    speed,
    async offline() {
      if (!listening) return;
      listening = false;
      if (printing) clearTimeout(printing.timer);
      printing = null;
      waiting.length = 0;
      bufferedBytes = 0;
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
      printedBytes = 0;
      raw.length = 0;
      rawTotal = 0;
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
