/**
 * A flood to a raw TCP port: `total` bytes of `chunk` on one connection, never reading what comes
 * back. Stops when the port stops taking bytes for 2 s (it stopped reading), closes or resets.
 * Resolves with the bytes handed to the socket.
 */
import net from 'node:net';

export function pourInto(port: number, chunk: Buffer, total: number): Promise<number> {
  return new Promise<number>((resolve) => {
    let sent = 0;
    let stall: NodeJS.Timeout | undefined;
    const socket = net.connect(port, '127.0.0.1');
    const done = () => (clearTimeout(stall), socket.destroy(), resolve(sent));
    socket.on('error', done);
    socket.on('close', done);
    const more = () => {
      clearTimeout(stall);
      while (sent < total) {
        sent += chunk.length;
        if (!socket.write(chunk)) {
          stall = setTimeout(done, 2000);
          socket.once('drain', more);
          return;
        }
      }
      socket.end();
    };
    socket.on('connect', more);
  });
}

export const MB = 1024 * 1024;
/** Junk that is no ZPL (a 'Ž' in UTF-8 is two latin1 bytes), thousands of tiny labels, and status questions. */
export const floods = {
  junk: Buffer.alloc(64 * 1024, 'Ž'),
  tinyLabels: Buffer.from('^XA^FO0,0^FDx^FS^XZ'.repeat(3000), 'latin1'),
  statusQuestions: Buffer.from('~HS'.repeat(20_000), 'latin1'),
};
