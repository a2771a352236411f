/**
 * USB-serial and RS-232 scales through the `serialport` package: MT-SICS (asked with `SI` several
 * times a second, so the live display moves and a settled `S S` answer counts) or continuous
 * output (read as it streams). Lines end with CR LF in both.
 *
 * Silence for `SILENCE_MS` or a closed port is `disconnected` — never the last weight.
 */
import { ReadlineParser, SerialPort } from 'serialport';
import { parseContinuous } from './continuousOutput';
import { MT_SICS_IMMEDIATE, parseMtSics } from './mtSics';
import type { ScaleReading } from './reading';
import type { ScaleDriver } from './scaleDriver';

type SerialProtocol = 'mt-sics' | 'continuous';

export interface SerialScaleOptions {
  path: string;
  baudRate: number;
  protocol: SerialProtocol;
  /** How often MT-SICS is asked (ms). */
  pollMs?: number;
  /** No answer this long: disconnected. */
  silenceMs?: number;
}

export async function openSerialScale(o: SerialScaleOptions): Promise<ScaleDriver> {
  const pollMs = o.pollMs ?? 200;
  const silenceMs = o.silenceMs ?? 2000;
  const listeners: ((r: ScaleReading) => void)[] = [];
  const push = (r: ScaleReading) => listeners.forEach((fn) => fn(r));
  const port = new SerialPort({ path: o.path, baudRate: o.baudRate, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(err) : resolve())));
  const parser = port.pipe(new ReadlineParser({ delimiter: '\n' }));
  let lastHeard = Date.now();
  let silent = false;
  let closed = false;
  const parse = o.protocol === 'mt-sics' ? parseMtSics : parseContinuous;
  parser.on('data', (line: string) => {
    lastHeard = Date.now();
    silent = false;
    const r = parse(line);
    if (r) push(r);
  });
  const gone = (code: 'port_closed' | 'port_failed', message: string) => {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    push({ state: 'disconnected', code, message });
  };
  port.on('close', () => gone('port_closed', `The scale's port ${o.path} closed (unplugged?).`));
  port.on('error', (err: Error) => gone('port_failed', `The scale's port ${o.path} failed: ${err.message}`));
  const timer = setInterval(() => {
    if (closed) return;
    if (o.protocol === 'mt-sics')
      port.write(MT_SICS_IMMEDIATE, (err) => err && gone('port_failed', `Writing to ${o.path} failed: ${err.message}`));
    if (!silent && Date.now() - lastHeard > silenceMs) {
      silent = true;
      push({ state: 'disconnected', code: 'silent', message: `The scale on ${o.path} does not answer.` });
    }
  }, pollMs);
  timer.unref?.();
  return {
    onReading: (fn) => void listeners.push(fn),
    async close() {
      closed = true;
      clearInterval(timer);
      if (port.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
    },
  };
}
