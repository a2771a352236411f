/**
 * The embedded default label printer: a real TCP listener on 127.0.0.1 that speaks raw ZPL like
 * a Zebra printer on port 9100. It answers ~HS, keeps every byte it received and the labels it
 * "printed", so the app can show them and tests can count them. Conditions (paper out, head open,
 * paused, refusing connections, closing mid-job, silent, never reading) let the demo and the tests make it fail
 * like a real one: a paused printer keeps labels in its buffer and prints them when resumed.
 */
import net from 'node:net';
import { formatHostStatus } from './zplHostStatus';

export interface VirtualPrinterConditions {
  paperOut: boolean;
  headOpen: boolean;
  paused: boolean;
  /** Close each connection after this many bytes (a printer dropping off mid-job). */
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
  zpl: string;
}

export interface VirtualZplPrinter {
  readonly port: number;
  readonly host: string;
  /** Labels that came out, in order. */
  printed(): PrintedLabel[];
  /** Every connection's raw bytes, in order (queries included). */
  connections(): Buffer[];
  set(conditions: Partial<VirtualPrinterConditions>): void;
  /** Stops listening (connections are refused) until online() is called. */
  offline(): Promise<void>;
  online(): Promise<void>;
  clear(): void;
  close(): Promise<void>;
}

export async function startVirtualZplPrinter(opts: { port?: number; now?: () => Date } = {}): Promise<VirtualZplPrinter> {
  const now = opts.now ?? (() => new Date());
  const cond: VirtualPrinterConditions = { paperOut: false, headOpen: false, paused: false, closeAfterBytes: null, silent: false, jammed: false, neverRead: false };
  const printed: PrintedLabel[] = [];
  const waiting: string[] = [];
  const raw: Buffer[] = [];
  const sockets = new Set<net.Socket>();
  const canPrint = () => !cond.paperOut && !cond.headOpen && !cond.paused && !cond.jammed;
  const flush = () => {
    while (canPrint() && waiting.length) printed.push({ at: now().toISOString(), zpl: waiting.shift()! });
  };

  function onConnection(socket: net.Socket) {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    // Sockets start paused (pauseOnConnect): a never-reading port must not even read ahead.
    if (cond.neverRead) return;
    const index = raw.push(Buffer.alloc(0)) - 1;
    let pending = '';
    socket.on('data', (chunk: Buffer) => {
      let data = chunk;
      if (cond.closeAfterBytes !== null) {
        const room = cond.closeAfterBytes - raw[index]!.length;
        if (room <= 0) return;
        data = chunk.subarray(0, room);
      }
      raw[index] = Buffer.concat([raw[index]!, data]);
      pending += data.toString('latin1');
      for (;;) {
        const hs = pending.indexOf('~HS');
        const xa = pending.search(/\^XA/i);
        if (hs >= 0 && (xa < 0 || hs < xa)) {
          pending = pending.slice(hs + 3);
          if (!cond.silent) {
            socket.write(formatHostStatus({ ...cond, formatsInBuffer: waiting.length, labelsRemaining: waiting.length }));
          }
          continue;
        }
        if (xa < 0) {
          pending = pending.slice(Math.max(0, pending.length - 2));
          break;
        }
        const end = pending.slice(xa).search(/\^XZ/i);
        if (end < 0) {
          pending = pending.slice(xa);
          break;
        }
        waiting.push(pending.slice(xa, xa + end + 3));
        pending = pending.slice(xa + end + 3);
        flush();
      }
      // A printer dropping off mid-job resets the connection (power cycle, crash, cable pulled).
      if (cond.closeAfterBytes !== null && raw[index]!.length >= cond.closeAfterBytes) socket.resetAndDestroy();
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
    },
    async close() {
      if (listening) await stop();
      listening = false;
    },
  };
}
