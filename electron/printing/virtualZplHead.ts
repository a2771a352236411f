/**
 * The virtual printer's receive buffer and print head (./virtualZplPrinter.ts): formats wait in
 * the buffer and come out one label after another at the print speed, or at once without one.
 * What it keeps for showing (printed labels, raw bytes) is bounded here too.
 */
import type net from 'node:net';
import { zplTextOf } from './zplBytes';
import { MAX_BUFFERED_BYTES } from './virtualZplLimits';
import type {
  PrintedLabel,
  VirtualPrinterConditions,
  VirtualPrinterOptions,
  VirtualPrinterProfile,
} from './virtualZplPrinter';

interface BufferedFormat {
  bytes: Buffer;
  /** When its first label began printing. */
  startedMs?: number;
  /** Labels of this format (^PQ) still to come out. */
  labelsLeft: number;
  lengthDots: number;
}

/** Everything one virtual printer knows; its connections and its controls share it. */
export interface PrinterState {
  now: () => Date;
  keep: VirtualPrinterOptions['keep'];
  cond: VirtualPrinterConditions;
  profile: VirtualPrinterProfile;
  speed: { ips: number | null; dpi: number };
  printed: PrintedLabel[];
  printedBytes: number;
  odometer: number;
  httpDropped: number;
  /** Formats received, in order; the first one is printing when `printing` is set. */
  waiting: BufferedFormat[];
  printing: { timer: NodeJS.Timeout } | null;
  /** Answers held until the buffer drains (answerAfterDrain), in the order asked. */
  afterDrain: (() => void)[];
  /**
   * Raw bytes by connection, oldest first; a connection appends its chunks to its own slot. Kept as
   * the chunks received (joined only when asked), so a bound drops whole old chunks instead of
   * copying what is kept again at every chunk.
   */
  raw: { chunks: Buffer[] }[];
  rawTotal: number;
  /** Bytes of the formats in the buffer (not yet printed). */
  bufferedBytes: number;
  /** Why each connection does not read now: the buffer is full, its answers are not read. */
  holds: Map<net.Socket, Set<'buffer' | 'answers'>>;
  clears: number;
  sockets: Set<net.Socket>;
}

export const fault = (st: PrinterState) => st.cond.paperOut || st.cond.headOpen || st.cond.ribbonOut;
const canPrint = (st: PrinterState) => !fault(st) && !st.cond.paused && !st.cond.jammed;
export const drained = (st: PrinterState) => !st.waiting.length && !st.printing;

export function keepRaw(st: PrinterState, slot: { chunks: Buffer[] }, data: Buffer): void {
  slot.chunks.push(data);
  st.rawTotal += data.length;
  const cap = st.keep?.rawBytes ?? Infinity;
  while (st.rawTotal > cap) {
    const oldest = st.raw[0]!;
    if (oldest.chunks.length <= 1 && st.raw.length > 1) {
      st.rawTotal -= oldest.chunks[0]?.length ?? 0;
      st.raw.shift();
    } else if (oldest.chunks.length > 1) {
      st.rawTotal -= oldest.chunks.shift()!.length;
    } else break;
  }
}

export function hold(st: PrinterState, socket: net.Socket, why: 'buffer' | 'answers', on: boolean): void {
  const set = st.holds.get(socket);
  if (!set || socket.destroyed) return;
  if (on) set.add(why);
  else set.delete(why);
  if (set.size) socket.pause();
  else socket.resume();
}

export function bufferRoom(st: PrinterState): void {
  const full = st.bufferedBytes >= MAX_BUFFERED_BYTES;
  // Reading again once half of it printed, not at the first label out: no read, pause, read.
  if (full || st.bufferedBytes < MAX_BUFFERED_BYTES / 2) for (const sk of st.holds.keys()) hold(st, sk, 'buffer', full);
}

function releaseAnswers(st: PrinterState): void {
  if (!drained(st)) return;
  const held = st.afterDrain;
  st.afterDrain = [];
  for (const f of held) f();
}

function labelDone(st: PrinterState): void {
  const head = st.waiting[0];
  if (!head) return;
  head.labelsLeft--;
  st.odometer++;
  if (head.labelsLeft <= 0) {
    st.waiting.shift();
    st.bufferedBytes -= head.bytes.length;
    bufferRoom(st);
    keepPrinted(st, head);
  }
}

/** The format that came out, kept for showing within `keep`'s bounds. */
function keepPrinted(st: PrinterState, head: BufferedFormat): void {
  const endedMs = performance.now();
  st.printed.push({
    at: st.now().toISOString(),
    zpl: zplTextOf(head.bytes),
    bytes: head.bytes,
    startedMs: head.startedMs ?? endedMs,
    endedMs,
  });
  st.printedBytes += head.bytes.length;
  while (
    st.printed.length > 1 &&
    (st.printed.length > (st.keep?.labels ?? Infinity) || st.printedBytes > (st.keep?.labelBytes ?? Infinity))
  )
    st.printedBytes -= st.printed.shift()!.bytes.length;
}

export function flush(st: PrinterState): void {
  if (st.speed.ips === null) {
    // Switched to instant printing mid-label: the label under way comes out with the rest now,
    // and its timer must not count it a second time (or count a label the buffer no longer holds).
    if (st.printing && canPrint(st)) {
      clearTimeout(st.printing.timer);
      st.printing = null;
    }
    while (canPrint(st) && st.waiting.length) labelDone(st);
    releaseAnswers(st);
    return;
  }
  if (st.printing || !canPrint(st) || !st.waiting.length) {
    releaseAnswers(st);
    return;
  }
  const ms = (st.waiting[0]!.lengthDots / st.speed.dpi / st.speed.ips) * 1000;
  st.waiting[0]!.startedMs ??= performance.now();
  st.printing = {
    timer: setTimeout(() => {
      st.printing = null;
      // The label came out unless the printer stopped meanwhile (paper out mid-label: it stays).
      if (canPrint(st)) labelDone(st);
      flush(st);
    }, ms),
  };
}

/** Stops the label under way (switched off or closed): its timer must not print into a cleared buffer. */
export function stopPrinting(st: PrinterState): void {
  if (st.printing) clearTimeout(st.printing.timer);
  st.printing = null;
}

/** Line 1's eee and line 2's uuuuuuuu as a Zebra reports them. */
export function bufferCounts(st: PrinterState) {
  const first = st.waiting[0];
  const started = st.printing !== null || (first !== undefined && first.labelsLeft < labelsOf(first.bytes));
  return started
    ? { formatsInBuffer: st.waiting.length - 1, labelsRemaining: first!.labelsLeft }
    : { formatsInBuffer: st.waiting.length, labelsRemaining: 0 };
}

export function receive(st: PrinterState, bytes: Buffer): void {
  const text = bytes.toString('latin1');
  const ll = /\^LL\s*(\d+)/i.exec(text);
  st.waiting.push({
    bytes,
    labelsLeft: labelsOf(bytes),
    lengthDots: ll ? Number(ll[1]) : Math.round(st.speed.dpi * 6),
  });
  st.bufferedBytes += bytes.length;
  bufferRoom(st);
  flush(st);
}

/** Labels a format prints: its ^PQ count, 1 without one. */
function labelsOf(bytes: Buffer): number {
  const pq = /\^PQ\s*(\d+)/i.exec(bytes.toString('latin1'));
  return pq ? Math.max(1, Number(pq[1])) : 1;
}
