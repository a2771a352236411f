/**
 * Raw bytes to a local listener over a real socket, for the hostile-request suites: request targets
 * no URL parser takes, absolute forms, huge headers, HTTP garbage and
 * slow headers (slowloris). Nothing here knows the station; each listener's suite says what it
 * must survive.
 */
import net from 'node:net';

/** What came back: the status line, or how the socket ended without one. */
export type RawAnswer = string;

/**
 * Sends `bytes` on a fresh connection to 127.0.0.1:`port` and resolves with the first line of the
 * answer, `(closed)` when the server closed without a word, `(reset)` on a reset, or `(no answer)`
 * after `waitMs`. `reset: true` resets the connection right after sending (a client that vanishes).
 */
export function rawExchange(
  port: number,
  bytes: string | Buffer,
  o: { waitMs?: number; reset?: boolean } = {},
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let got = '';
    let done = false;
    const finish = (why: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(got ? got.split('\r\n')[0]! : why);
    };
    const timer = setTimeout(() => finish('(no answer)'), o.waitMs ?? 5_000);
    socket.on('connect', () => {
      socket.write(bytes);
      if (o.reset) {
        socket.resetAndDestroy();
        finish('(reset by us)');
      }
    });
    socket.on('data', (d: Buffer) => {
      got += d.toString('latin1');
      if (got.includes('\r\n')) finish('(answered)');
    });
    socket.on('error', () => finish('(reset)'));
    socket.on('close', () => finish('(closed)'));
  });
}

const WS_HEADERS =
  'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';

export interface HostileRequest {
  name: string;
  bytes: string | Buffer;
  /** Reset the connection right after sending. */
  reset?: boolean;
  /** Not a whole request: a listener may wait for the rest (within its header time limit). */
  incomplete?: boolean;
}

/**
 * The hostile requests, named, for a listener at `host` (its Host header value) whose one real
 * path is `realPath`. Each must be answered with a 4xx or a closed socket, and leave the process alive.
 */
export function hostileRequests(host: string, realPath: string): HostileRequest[] {
  const req = (target: string, extra = '', method = 'GET') =>
    `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\n${extra}\r\n`;
  const targets = [
    '//[',
    '//%',
    '//[::1',
    'http://[',
    'http://[/x',
    `http://${host}${realPath}`,
    'http://evil.example/',
    '//evil.example' + realPath,
    `${realPath}%`,
    '/%E0%A4%A',
    `${realPath}?state=%ZZ&code=%`,
  ];
  const out: HostileRequest[] = [];
  for (const t of targets) {
    out.push({ name: `GET ${t}`, bytes: req(t) });
    out.push({ name: `GET ${t} with Upgrade: websocket`, bytes: req(t, WS_HEADERS) });
  }
  out.push(
    { name: 'GET //[ with Upgrade, then a reset', bytes: req('//[', WS_HEADERS), reset: true },
    { name: `GET ${realPath} with Upgrade, then a reset`, bytes: req(realPath, WS_HEADERS), reset: true },
    { name: 'GET //[ without a Host header', bytes: 'GET //[ HTTP/1.1\r\n' + WS_HEADERS + '\r\n' },
    { name: 'OPTIONS *', bytes: req('*', '', 'OPTIONS') },
    { name: 'CONNECT 127.0.0.1:22', bytes: 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n' },
    { name: 'a 100 KB header', bytes: req(realPath, `X-Big: ${'a'.repeat(100_000)}\r\n`) },
    { name: '2,000 headers', bytes: req(realPath, Array.from({ length: 2000 }, (_, i) => `X-${i}: v\r\n`).join('')) },
    { name: 'a 100 KB request target', bytes: req('/' + 'a'.repeat(100_000)) },
    { name: 'HTTP/9.9', bytes: `GET ${realPath} HTTP/9.9\r\nHost: ${host}\r\n\r\n` },
    { name: 'a negative Content-Length', bytes: req(realPath, 'Content-Length: -1\r\n', 'POST') },
    { name: 'a broken chunked body', bytes: req(realPath, 'Transfer-Encoding: chunked\r\n', 'POST') + 'zz\r\nxx\r\n' },
    { name: 'NUL in the target', bytes: `GET /\0 HTTP/1.1\r\nHost: ${host}\r\n\r\n` },
    { name: 'plain garbage', bytes: 'GARBAGE\r\n\r\n' },
    // No request yet: HTTP/1.1 servers skip empty lines before a request line (RFC 9112 2.2) and wait for it.
    { name: 'empty lines only', bytes: '\r\n\r\n\r\n\r\n', incomplete: true },
    { name: 'a TLS ClientHello', bytes: Buffer.from('160301020001000200fc0303' + '00'.repeat(64), 'hex') },
    { name: 'random bytes', bytes: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256)) },
  );
  return out;
}

/**
 * A slowloris client: sends a request line and then one header line every `everyMs`, never the
 * blank line that ends the headers. `closed` resolves when the server closes the connection.
 */
export function slowHeaders(port: number, host: string, everyMs = 300): { closed: Promise<string>; stop(): void } {
  const socket = net.connect(port, '127.0.0.1');
  let got = '';
  socket.on('connect', () => socket.write(`GET / HTTP/1.1\r\nHost: ${host}\r\n`));
  const timer = setInterval(() => {
    if (!socket.destroyed) socket.write(`X-Slow-${Date.now()}: a\r\n`);
  }, everyMs);
  socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
  const closed = new Promise<string>((resolve) => {
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve(got.split('\r\n')[0] || '(closed)');
    });
  });
  return {
    closed,
    stop: () => {
      clearInterval(timer);
      socket.destroy();
    },
  };
}
