/**
 * Zebra host status (~HS). The printer answers three lines, each framed as
 * <STX>fields<ETX><CR><LF> (ZPL II Programming Guide, "~HS Host Status Return"):
 *   line 1: aaa,b,c,dddd,eee,f,g,h,iii,j,k,l  b paper out, c paused, eee formats in receive buffer,
 *           f buffer full, h partial format in progress
 *   line 2: mmm,n,o,p,q,r,s,t,uuuuuuuu,v,www  o head up (open), p ribbon out,
 *           uuuuuuuu labels remaining in batch
 *   line 3: xxxx,y  password, static RAM installed
 * ~ commands are handled as soon as they arrive, also while the printer is paused, and the
 * answer comes after every byte sent before it was read: it proves the job arrived.
 */

export const HOST_STATUS_QUERY = Buffer.from('~HS\r\n', 'latin1');
const STX = 0x02;
const ETX = 0x03;

export interface HostStatus {
  paperOut: boolean;
  paused: boolean;
  headOpen: boolean;
  ribbonOut: boolean;
  bufferFull: boolean;
  formatsInBuffer: number;
  labelsRemaining: number;
  partialFormat: boolean;
}

/** The number of complete STX..ETX frames in `buf`. */
export function countFrames(buf: Buffer): number {
  let n = 0;
  let open = false;
  for (const b of buf) {
    if (b === STX) open = true;
    else if (b === ETX && open) {
      n++;
      open = false;
    }
  }
  return n;
}

/** Parses the first three frames; null when the answer is not a ~HS answer. */
export function parseHostStatus(buf: Buffer): HostStatus | null {
  const frames: string[] = [];
  const text = buf.toString('latin1');
  const re = /\x02([^\x02\x03]*)\x03/g;
  for (let m = re.exec(text); m && frames.length < 3; m = re.exec(text)) frames.push(m[1]!.trim());
  if (frames.length < 2) return null;
  const a = frames[0]!.split(',');
  const b = frames[1]!.split(',');
  if (a.length < 8 || b.length < 9) return null;
  const flag = (s: string | undefined) => s?.trim() === '1';
  const num = (s: string | undefined) => {
    const n = Number.parseInt(s?.trim() ?? '', 10);
    return Number.isFinite(n) ? n : 0;
  };
  return {
    paperOut: flag(a[1]),
    paused: flag(a[2]),
    formatsInBuffer: num(a[4]),
    bufferFull: flag(a[5]),
    partialFormat: flag(a[7]),
    headOpen: flag(b[2]),
    ribbonOut: flag(b[3]),
    labelsRemaining: num(b[8]),
  };
}

/** Formats a ~HS answer (used by the virtual printer and the test listener). */
export function formatHostStatus(s: Partial<HostStatus>): Buffer {
  const f = (v: boolean | undefined) => (v ? '1' : '0');
  const line1 = `030,${f(s.paperOut)},${f(s.paused)},1800,${String(s.formatsInBuffer ?? 0).padStart(3, '0')},${f(s.bufferFull)},0,${f(s.partialFormat)},000,0,0,0`;
  const line2 = `001,0,${f(s.headOpen)},${f(s.ribbonOut)},0,2,6,0,${String(s.labelsRemaining ?? 0).padStart(8, '0')},1,000`;
  const line3 = '1234,0';
  return Buffer.from([line1, line2, line3].map((l) => `\x02${l}\x03\r\n`).join(''), 'latin1');
}

export interface StatusProblem {
  code: 'paper_out' | 'head_open' | 'paused' | 'ribbon_out' | 'buffer_full';
  message: string;
}

/** What stops the printer from printing now, worst first; null when it can print. */
export function hostStatusProblem(s: HostStatus): StatusProblem | null {
  if (s.headOpen) return { code: 'head_open', message: 'The print head is open. Close it and try again.' };
  if (s.paperOut) return { code: 'paper_out', message: 'The printer is out of labels. Load a new roll.' };
  if (s.ribbonOut) return { code: 'ribbon_out', message: 'The printer is out of ribbon. Load a new ribbon.' };
  if (s.paused) return { code: 'paused', message: 'The printer is paused. Press its pause button to resume.' };
  if (s.bufferFull) return { code: 'buffer_full', message: 'The printer\'s receive buffer is full. Wait for it to print.' };
  return null;
}

/** ~HI, host identification: "<STX>model,firmware,dots per mm,memory<ETX>". */
export const HOST_IDENTIFICATION_QUERY = Buffer.from('~HI\r\n', 'latin1');

/** The model and resolution a ~HI answer names; null when it is not one. */
export function parseHostIdentification(buf: Buffer): { model: string; dpi: 203 | 300 | 600 | null } | null {
  const m = /\x02([^\x02\x03]*)\x03/.exec(buf.toString('latin1'));
  if (!m) return null;
  const f = m[1]!.split(',').map((x) => x.trim());
  if (f.length < 3 || !f[0]) return null;
  const dpmm = Number.parseInt(f[2]!, 10);
  const dpi = dpmm === 8 ? 203 : dpmm === 12 ? 300 : dpmm === 24 ? 600 : null;
  return { model: f[0], dpi };
}
