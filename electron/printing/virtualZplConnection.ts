/**
 * One host's connection to the virtual printer (./virtualZplPrinter.ts): reads its bytes as ZPL
 * formats and questions in order, answers the questions, and stops reading while the buffer is
 * full or its answers are not read. Bounds and the reasons for them: the header of ./virtualZplPrinter.ts.
 */
import type net from 'node:net';
import { errorStatus, hostStatus } from './virtualZplAnswers';
import { bufferRoom, drained, fault, hold, keepRaw, receive, type PrinterState } from './virtualZplHead';
import { MAX_CONNECTIONS, MAX_FORMAT_BYTES, MAX_PENDING_BYTES, MAX_UNSENT_ANSWER_BYTES } from './virtualZplLimits';

/** The start of a format, and the questions the printer answers (~HS, ~HI, ~HQ…, an SGD getvar). */
const FORMAT_START = /\^XA/i;
const QUESTION = /~H[SIQ]|! U1 getvar/;
/** Where a marker begins in a connection's unread text, and what it is. */
interface Mark {
  index: number;
  text: string;
}

interface Connection {
  st: PrinterState;
  socket: net.Socket;
  /** This connection's bytes; its slot in `raw` is taken anew after clear() (a connection kept open outlives a clear). */
  mine: number;
  generation: number;
  slot: { chunks: Buffer[] } | null;
  pending: string;
  partial: boolean;
  decided: boolean;
  ending: boolean;
  /** Answers of this connection wait behind one held until the buffer drains (they keep their order). */
  held: number;
  /**
   * Where the next format (^XA) and the next question begin in `pending`, kept while the front
   * is consumed (null: none there; undefined: search again). A chunk of thousands of tiny formats
   * or questions is then read in one sweep: searching all of `pending` again for each one held
   * the event loop for minutes under a flood (in the demo the printer lives in the station's core).
   */
  marks: { xa?: Mark | null; q?: Mark | null };
}

export function onConnection(st: PrinterState, socket: net.Socket): void {
  if (st.sockets.size >= MAX_CONNECTIONS) {
    socket.destroy();
    return;
  }
  st.sockets.add(socket);
  socket.on('close', () => {
    st.sockets.delete(socket);
    st.holds.delete(socket);
  });
  socket.on('error', () => socket.destroy());
  // Sockets start paused (pauseOnConnect): a never-reading port must not even read ahead.
  if (st.cond.neverRead) return;
  const c: Connection = {
    st,
    socket,
    mine: 0,
    generation: -1,
    slot: null,
    pending: '',
    partial: false,
    decided: false,
    ending: false,
    held: 0,
    marks: {},
  };
  socket.on('end', () => {
    // The station closed its side: every byte it sent has been read (they come before the FIN).
    if (st.profile.resetOnClose) socket.resetAndDestroy();
    else if (st.profile.closeDelayMs > 0) setTimeout(() => socket.end(), st.profile.closeDelayMs);
    else socket.end();
  });
  socket.on('data', (chunk: Buffer) => onData(c, chunk));
  st.holds.set(socket, new Set());
  socket.resume();
  bufferRoom(st);
}

function onData(c: Connection, chunk: Buffer): void {
  if (c.ending) return;
  const { cond } = c.st;
  const data = admitted(c, chunk);
  if (!data) return;
  c.mine += data.length;
  if (c.generation !== c.st.clears || !c.slot) {
    c.generation = c.st.clears;
    c.slot = { chunks: [] };
    c.st.raw.push(c.slot);
  }
  keepRaw(c.st, c.slot, data);
  c.pending += data.toString('latin1');
  // A mark found stays first (a match cannot begin earlier and end in the new bytes); "none" may change.
  if (c.marks.xa === null) c.marks.xa = undefined;
  if (c.marks.q === null) c.marks.q = undefined;
  if (!c.decided && droppedAsHttp(c)) return;
  if (c.pending.length > MAX_PENDING_BYTES) {
    c.socket.resetAndDestroy();
    return;
  }
  parse(c);
  // A printer dropping off mid-job resets the connection (power cycle, crash, cable pulled).
  if (cond.closeAfterBytes !== null && c.mine >= cond.closeAfterBytes) c.socket.resetAndDestroy();
}

/** The bytes of a chunk the printer takes before it drops off (closeAfterBytes); null: it reset the connection. */
function admitted(c: Connection, chunk: Buffer): Buffer | null {
  const { closeAfterBytes } = c.st.cond;
  if (closeAfterBytes === null) return chunk;
  const room = closeAfterBytes - c.mine;
  // A connection kept open from before (a streaming driver's) that already carried more:
  // the printer dropped off, so its next byte meets a reset, never a silent, open port.
  if (room <= 0) {
    c.socket.resetAndDestroy();
    return null;
  }
  return chunk.subarray(0, room);
}

/** True when the connection opened with an HTTP request line and was dropped. */
function droppedAsHttp(c: Connection): boolean {
  // A browser's request (any web page can send one to 127.0.0.1) is not a print job.
  if (/^[A-Z]{3,7} \S/.test(c.pending)) {
    c.st.httpDropped++;
    c.socket.resetAndDestroy();
    return true;
  }
  if (c.pending.length >= 8 || /[^A-Z]/.test(c.pending)) c.decided = true;
  return false;
}

function send(c: Connection, text: string): void {
  const { socket } = c;
  const { profile } = c.st;
  if (socket.destroyed || c.ending) return;
  const bytes = Buffer.from(text, 'latin1');
  if (profile.closeAfterAnswer) c.ending = true;
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
    hold(c.st, socket, 'answers', true);
    socket.once('drain', () => {
      hold(c.st, socket, 'answers', false);
      parse(c);
    });
  }
}

function answer(c: Connection, make: () => string | null, waitsForDrain: boolean): void {
  if (c.held > 0 || (waitsForDrain && c.st.profile.answerAfterDrain && !drained(c.st))) {
    c.held++;
    c.st.afterDrain.push(() => {
      c.held--;
      const text = make();
      if (text !== null) send(c, text);
    });
    return;
  }
  const text = make();
  if (text !== null) send(c, text);
}

function mark(c: Connection, k: 'xa' | 'q'): Mark | null {
  let m = c.marks[k];
  if (m === undefined) {
    const r = (k === 'xa' ? FORMAT_START : QUESTION).exec(c.pending);
    m = r ? { index: r.index, text: r[0] } : null;
    c.marks[k] = m;
  }
  return m;
}

/** Drops the first `n` characters of `pending`; a mark behind them is searched again. */
function take(c: Connection, n: number): void {
  c.pending = c.pending.slice(n);
  for (const k of ['xa', 'q'] as const) {
    const m = c.marks[k];
    if (m) c.marks[k] = m.index >= n ? { index: m.index - n, text: m.text } : undefined;
  }
}

/** Reads the formats and questions in `pending`, in order. */
function parse(c: Connection): void {
  for (;;) {
    // Questions wait while the answers already written are not read (the host stops reading).
    if (c.st.holds.get(c.socket)?.has('answers')) return;
    const xa = mark(c, 'xa')?.index ?? -1;
    const q = mark(c, 'q');
    if (q && (xa < 0 || q.index < xa)) {
      if (readQuestion(c, q)) continue;
      break;
    }
    if (!readFormat(c, xa)) break;
  }
}

/** Answers the question at `q`; false when the rest of it has not arrived yet. */
function readQuestion(c: Connection, q: Mark): boolean {
  const { cond, profile, speed } = c.st;
  const rest = c.pending.slice(q.index);
  if (q.text === '~HS') {
    take(c, q.index + 3);
    const isPartial = c.partial;
    if (!cond.silent)
      answer(c, () => (profile.silentOnFault && fault(c.st) ? null : hostStatus(c.st, isPartial)), true);
    return true;
  }
  if (q.text === '~HI') {
    // ~HI: model, firmware, dots per millimetre, memory (ZPL II guide, "~HI Host Identification").
    take(c, q.index + 3);
    const dpmm = speed.dpi === 203 ? 8 : speed.dpi === 600 ? 24 : 12;
    if (!cond.silent)
      answer(c, () => `\x02ZD421-${speed.dpi}dpi,V84.20.21Z,${dpmm},8192KB\x03${profile.lineEnd}`, false);
    return true;
  }
  if (q.text === '~HQ') {
    if (rest.length < 5) return false;
    take(c, q.index + 5);
    if (rest.slice(3, 5).toUpperCase() === 'ES' && profile.hostQuery && !cond.silent)
      answer(c, () => errorStatus(c.st), false);
    return true;
  }
  // SGD: ! U1 getvar "name", "terminated by a space character or a CR/LF"; the answer is
  // the value in double quotes, "?" for a setting it does not have (Zebra's SGD guide).
  const line = /^! U1 getvar "([^"]*)"( |\r\n)/.exec(rest);
  if (!line) {
    if (rest.length > 200) take(c, q.index + 1);
    return false;
  }
  take(c, q.index + line[0].length);
  if (!cond.silent)
    answer(c, () => `"${profile.odometer && line[1] === 'odometer.total_label_count' ? c.st.odometer : '?'}"`, false);
  return true;
}

/** Takes the format at `xa` into the buffer; false when there is none or it is not complete yet. */
function readFormat(c: Connection, xa: number): boolean {
  if (xa < 0) {
    take(c, Math.max(0, c.pending.length - 12));
    c.partial = false;
    return false;
  }
  const end = c.pending.slice(xa).search(/\^XZ/i);
  if (end < 0) {
    take(c, xa);
    c.partial = true;
    // A format larger than any label: the printer drops it (and the connection).
    if (c.pending.length > MAX_FORMAT_BYTES) c.socket.resetAndDestroy();
    return false;
  }
  c.partial = false;
  receive(c.st, Buffer.from(c.pending.slice(xa, xa + end + 3), 'latin1'));
  take(c, xa + end + 3);
  return true;
}
