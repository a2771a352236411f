/**
 * A virtual serial scale: socat joins two pseudo-terminals (`pty,raw,echo=0,link=…`), this module
 * opens one end with serialport and answers MT-SICS there as a Mettler Toledo PS60 would; the
 * station opens the other end as it opens a USB-serial scale. Nothing here is a mock of the
 * station's side: its driver, the serialport package and the kernel's ptys are the real ones.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ReadlineParser, SerialPort } from 'serialport';

type ScaleShows =
  | { state: 'stable'; text: string } // e.g. '1.234 kg'
  | { state: 'moving'; text: string }
  | { state: 'overload' }
  | { state: 'underload' }
  | { state: 'busy' }
  | { state: 'silent' }
  /** Answers every `S`/`SI` with exactly these characters (then CR LF): line noise, a misconfigured terminal. */
  | { state: 'raw'; line: string };

export interface VirtualScale {
  /** The path the station opens. */
  stationPath: string;
  show(s: ScaleShows): void;
  /**
   * Shows `s` and resolves once a weight command was answered with it: the station has read what the
   * scale shows (a worker lifting a parcel off sees the display go to zero before scanning the next).
   */
  shown(s: ScaleShows): Promise<void>;
  /**
   * The next `S`/`SI` is answered with `line` (e.g. `ET`, the MT-SICS general error "transmission
   * error"), then the scale answers as it shows again. Resolves once that answer was written.
   */
  answerOnce(line: string): Promise<void>;
  /** Commands the scale received, in order. */
  commands: string[];
  /** Pulls the cable: socat ends, both ptys close. */
  unplug(): Promise<void>;
  close(): Promise<void>;
}

const waitFor = async (ok: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('virtual scale: timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** The MT-SICS answer to `S`/`SI` for what the scale shows (fixed-width weight field, as MT-SICS pads it). */
function answer(cmd: string, shows: ScaleShows): string | null {
  if (cmd !== 'S' && cmd !== 'SI') return cmd === '' ? null : 'ES';
  switch (shows.state) {
    case 'stable':
    case 'moving': {
      const [value, unit] = shows.text.split(' ');
      const flag = shows.state === 'stable' ? 'S' : 'D';
      // `S` answers only once stable; a moving scale makes `S` wait — `SI` answers at once.
      if (cmd === 'S' && flag === 'D') return null;
      return `S ${flag} ${value!.padStart(10)} ${unit}`;
    }
    case 'overload':
      return 'S +';
    case 'underload':
      return 'S -';
    case 'busy':
      return 'S I';
    case 'silent':
      return null;
    case 'raw':
      return shows.line;
  }
}

export async function startVirtualScale(): Promise<VirtualScale> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vscale-'));
  const scaleEnd = path.join(dir, 'scale');
  const stationPath = path.join(dir, 'station');
  const socat: ChildProcess = spawn(
    'socat',
    [`pty,raw,echo=0,link=${scaleEnd}`, `pty,raw,echo=0,link=${stationPath}`],
    { stdio: 'ignore' },
  );
  let exited = false;
  socat.on('exit', () => (exited = true));
  await waitFor(() => existsSync(scaleEnd) && existsSync(stationPath));
  const port = new SerialPort({ path: scaleEnd, baudRate: 9600, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((e) => (e ? reject(e) : resolve())));
  port.on('error', () => undefined);
  let shows: ScaleShows = { state: 'stable', text: '0.000 kg' };
  const commands: string[] = [];
  let once: { line: string; written(): void } | null = null;
  let readers: (() => void)[] = [];
  port.pipe(new ReadlineParser({ delimiter: '\r\n' })).on('data', (line: string) => {
    const cmd = line.trim();
    commands.push(cmd);
    if (once && (cmd === 'S' || cmd === 'SI')) {
      const o = once;
      once = null;
      if (port.isOpen) port.write(`${o.line}\r\n`, () => o.written());
      return;
    }
    const a = answer(cmd, shows);
    if (a === null || !port.isOpen) return;
    const read = readers;
    readers = [];
    port.write(`${a}\r\n`, () => read.forEach((r) => r()));
  });
  const closePort = () => new Promise<void>((r) => (port.isOpen ? port.close(() => r()) : r()));
  return {
    stationPath,
    commands,
    show: (s) => void (shows = s),
    shown: (s) =>
      new Promise<void>((read) => {
        shows = s;
        readers.push(read);
      }),
    answerOnce: (line) => new Promise<void>((written) => void (once = { line, written })),
    async unplug() {
      await closePort();
      socat.kill('SIGTERM');
      await waitFor(() => exited);
    },
    async close() {
      await closePort();
      if (!exited) socat.kill('SIGTERM');
    },
  };
}
