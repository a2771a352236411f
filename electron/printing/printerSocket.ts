/**
 * A TCP connection to a raw printer port (9100) with connect, write and read timeouts.
 *
 * Plain net.Socket rather than node-thermal-printer's raw path: its network interface resolves
 * on the first `data` chunk (a ~HS answer arrives as three frames, often in several chunks), has
 * one timeout for everything, and destroys the socket right after writing instead of half-closing
 * it, so it cannot tell "the printer read every byte" from "the kernel buffered them".
 */
import net from 'node:net';
import { PrintError } from './printerDriver';
import { countFrames } from './zplHostStatus';

export interface SocketTimeouts {
  connectMs: number;
  writeMs: number;
  readMs: number;
}

export const defaultTimeouts: SocketTimeouts = { connectMs: 3000, writeMs: 10_000, readMs: 3000 };

/**
 * Most bytes kept of what a printer sent and nobody has read yet. A printer's answers are short (a
 * ~HS answer is three frames of some 80 bytes, ~HQES some 200, an SGD value a line: ZPL II guide
 * "~HS Host Status Return", "~HQ Host Query"); a port that streams more is not answering, and
 * keeping it all would let any device on the port grow the station without end.
 */
export const MAX_UNREAD_ANSWER_BYTES = 64 * 1024;

export class PrinterSocket {
  private received = Buffer.alloc(0);
  /** The printer sent more than MAX_UNREAD_ANSWER_BYTES unread: the connection was dropped. */
  private flooded = false;
  private wake: (() => void) | null = null;
  private failure: NodeJS.ErrnoException | null = null;
  private ended = false;
  private weEnded = false;
  /** The printer closed its side before we finished sending: it did not take the whole job. */
  private peerEndedEarly = false;
  /** True once any job byte has been handed to the socket (the printer may have it). */
  wroteJobBytes = false;
  private lastWriteDoneAt = 0;
  private peerEndedAt = 0;

  private constructor(
    private readonly socket: net.Socket,
    readonly label: string,
  ) {
    socket.on('data', (d: Buffer) => {
      if (this.received.length + d.length > MAX_UNREAD_ANSWER_BYTES) {
        this.flooded = true;
        this.received = Buffer.alloc(0);
        socket.destroy();
      } else {
        this.received = Buffer.concat([this.received, d]);
      }
      this.wake?.();
    });
    socket.on('error', (e) => {
      this.failure = e;
      this.wake?.();
    });
    socket.on('end', () => {
      this.peerEndedAt = performance.now();
      if (!this.weEnded) this.peerEndedEarly = true;
      this.wake?.();
    });
    socket.on('close', () => {
      this.ended = true;
      this.wake?.();
    });
  }

  static connect(host: string, port: number, timeoutMs: number): Promise<PrinterSocket> {
    const label = `${host}:${port}`;
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host, port });
      socket.setNoDelay(true);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(
          new PrintError(
            'timeout',
            `The printer at ${label} did not answer within ${timeoutMs} ms. Is it on and on the network?`,
            'not_sent',
          ),
        );
      }, timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new PrinterSocket(socket, label));
      });
      socket.once('error', (e: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        socket.destroy();
        const refused = e.code === 'ECONNREFUSED';
        reject(
          new PrintError(
            'offline',
            refused
              ? `The printer at ${label} refuses connections. Is it switched on, and is the port right?`
              : `Cannot reach the printer at ${label} (${e.code ?? e.message}). Check its cable and network.`,
            'not_sent',
          ),
        );
      });
    });
  }

  /** Writes and waits until the kernel took every byte. */
  write(data: Buffer, timeoutMs: number, isJob: boolean): Promise<void> {
    if (isJob) this.wroteJobBytes = true;
    return new Promise((resolve, reject) => {
      if (this.failure || this.ended) return reject(this.lost());
      const timer = setTimeout(() => {
        this.socket.destroy();
        // Once job bytes are on their way, a stall is not "the printer is off": it accepted the
        // connection and part of the label may be in it (a printer that never reads fills the
        // socket buffers, then the write waits forever). The worker must look before a reprint.
        reject(
          this.wroteJobBytes
            ? new PrintError(
                'stopped_reading',
                `The printer at ${this.label} accepted the connection but stopped reading the label for ${timeoutMs / 1000} s; part of it may have reached the printer. Check whether it printed before printing again.`,
                'unknown',
              )
            : new PrintError(
                'timeout',
                `The printer at ${this.label} stopped taking data for ${timeoutMs} ms.`,
                'not_sent',
              ),
        );
      }, timeoutMs);
      this.socket.write(data, (err) => {
        clearTimeout(timer);
        this.lastWriteDoneAt = performance.now();
        if (err) reject(this.lost(err));
        else resolve();
      });
    });
  }

  /** Waits until `frames` STX..ETX frames arrived; returns and consumes them. */
  readFrames(frames: number, timeoutMs: number): Promise<Buffer> {
    return this.readUntil((b) => countFrames(b) >= frames, timeoutMs);
  }

  /** Waits until what arrived is a whole answer (`whole`); returns and consumes it. */
  async readUntil(whole: (received: Buffer) => boolean, timeoutMs: number): Promise<Buffer> {
    const deadline = Date.now() + timeoutMs;
    while (!whole(this.received)) {
      if (this.flooded || this.failure || this.ended || this.peerEndedEarly) throw this.lost();
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new PrintError(
          'no_answer',
          `The printer at ${this.label} did not answer the status query within ${timeoutMs} ms.`,
          this.outcome(),
        );
      }
      await this.nextEvent(left);
    }
    const out = this.received;
    this.received = Buffer.alloc(0);
    this.answers++;
    return out;
  }

  /**
   * Half-closes and waits for the printer to close its side (it has read everything then: our FIN
   * comes after the last job byte): `closed`. A reset in answer to our FIN is `reset`: some print
   * servers end every connection that way once they have read it, and the caller knows whether it
   * can tell that from a reset in the middle of a label (see createRawDriver).
   */
  async finish(timeoutMs: number): Promise<'closed' | 'reset' | 'timeout'> {
    if (this.failure || this.peerEndedEarly) throw this.lost();
    this.weEnded = true;
    this.socket.end();
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      if (this.failure) return this.resetOnOurClose() ? 'reset' : Promise.reject(this.lost());
      const left = deadline - Date.now();
      if (left <= 0) {
        this.socket.destroy();
        return 'timeout';
      }
      await this.nextEvent(left);
    }
    if (this.failure && !this.resetOnOurClose()) throw this.lost();
    return this.failure ? 'reset' : 'closed';
  }

  private resetOnOurClose(): boolean {
    const code = this.failure?.code;
    return this.weEnded && this.socket.writableFinished && (code === 'ECONNRESET' || code === 'EPIPE');
  }

  /** Answers read on this connection so far. */
  answers = 0;

  /** Waits at most `ms` for the printer to end the connection; true when it did. */
  async endsWithin(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (this.open) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await this.nextEvent(left);
    }
    return true;
  }

  /** How long after our last write the printer's close (FIN) came (negative: before it). */
  get peerEndedMsAfterWrite(): number {
    return this.peerEndedAt - this.lastWriteDoneAt;
  }

  /** The printer ended the connection in order (FIN), without an error: nothing sent before was lost. */
  get closedInOrder(): boolean {
    return this.peerEndedEarly && !this.failure;
  }

  /** False once the connection failed or either side closed it: nothing learned over it still holds. */
  get open(): boolean {
    return !this.failure && !this.ended && !this.peerEndedEarly;
  }

  /** Waits until the socket has news (data, an end, an error, a close) or `ms` passed. */
  private async nextEvent(ms: number): Promise<void> {
    await new Promise<void>((r) => {
      const t = setTimeout(r, ms);
      this.wake = () => {
        clearTimeout(t);
        r();
      };
    });
    this.wake = null;
  }

  destroy(): void {
    this.socket.destroy();
  }

  private outcome() {
    return this.wroteJobBytes ? ('unknown' as const) : ('not_sent' as const);
  }

  private lost(err?: NodeJS.ErrnoException): PrintError {
    if (this.flooded)
      return new PrintError(
        'answer_flood',
        `The printer at ${this.label} sent more than ${MAX_UNREAD_ANSWER_BYTES / 1024} KB nobody asked for, so the station dropped the connection. Is a label printer (ZPL) on this port?`,
        this.outcome(),
      );
    const e = err ?? this.failure ?? null;
    const why = e ? ` (${e.code ?? e.message})` : '';
    return new PrintError(
      'connection_lost',
      this.wroteJobBytes
        ? `The printer at ${this.label} closed the connection while receiving the label${why}. Check whether it printed.`
        : `The printer at ${this.label} closed the connection${why}.`,
      this.outcome(),
    );
  }
}
