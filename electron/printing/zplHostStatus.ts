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

/**
 * The queries the station sends, bare: a ~ command runs as soon as its letters arrive (ZPL II
 * guide, "Control commands"), so nothing follows them. No CR LF either: a raw port or an emulator
 * that prints whatever is not a command turns a stray line end into a blank label.
 */
export const HOST_STATUS_QUERY = Buffer.from('~HS', 'latin1');
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

/** The STX..ETX frames of an answer, in order (line ends between them, CR LF or LF alone, are not part of them). */
export function framesOf(buf: Buffer): string[] {
  const frames: string[] = [];
  // eslint-disable-next-line no-control-regex -- a ZPL status answer is framed by STX (\x02) and ETX (\x03)
  const re = /\x02([^\x02\x03]*)\x03/g;
  const text = buf.toString('latin1');
  for (let m = re.exec(text); m; m = re.exec(text)) frames.push(m[1]!);
  return frames;
}

/**
 * Field counts of the manual's three strings: 12, 11 and 2. An answer of any other layout (a
 * printer or emulator that frames something else in STX..ETX) is not read as a Zebra host status:
 * a field read from the wrong place would say "ready" whatever the printer reports.
 */
const HS_FIELDS = [12, 11, 2] as const;
const NUMERIC = /^\d+$/;

/** Parses a ~HS answer (its first three frames); null when it is not one in the manual's layout. */
export function parseHostStatus(buf: Buffer): HostStatus | null {
  const frames = framesOf(buf).slice(0, 3);
  if (frames.length < 3) return null;
  const fields = frames.map((f) =>
    f
      .trim()
      .split(',')
      .map((x) => x.trim()),
  );
  if (fields.some((f, i) => f.length !== HS_FIELDS[i])) return null;
  const [a, b] = fields as [string[], string[]];
  // The fields the station reads are digits; flags are one digit 0 or 1.
  const flagAt = (f: string[], i: number) => (f[i] === '0' || f[i] === '1' ? f[i] === '1' : null);
  const numAt = (f: string[], i: number) => (NUMERIC.test(f[i]!) ? Number.parseInt(f[i]!, 10) : null);
  const s = {
    paperOut: flagAt(a, 1),
    paused: flagAt(a, 2),
    formatsInBuffer: numAt(a, 4),
    bufferFull: flagAt(a, 5),
    partialFormat: flagAt(a, 7),
    headOpen: flagAt(b, 2),
    ribbonOut: flagAt(b, 3),
    labelsRemaining: numAt(b, 8),
  };
  if (Object.values(s).some((v) => v === null)) return null;
  return s as HostStatus;
}

export interface StatusProblem {
  code:
    | 'paper_out'
    | 'head_open'
    | 'paused'
    | 'ribbon_out'
    | 'buffer_full'
    | 'cutter_fault'
    | 'head_too_hot'
    | 'motor_too_hot'
    | 'printer_error';
  message: string;
}

/** What stops the printer from printing now, worst first; null when it can print. */
export function hostStatusProblem(s: HostStatus): StatusProblem | null {
  if (s.headOpen) return { code: 'head_open', message: 'The print head is open. Close it and try again.' };
  if (s.paperOut) return { code: 'paper_out', message: 'The printer is out of labels. Load a new roll.' };
  if (s.ribbonOut) return { code: 'ribbon_out', message: 'The printer is out of ribbon. Load a new ribbon.' };
  if (s.paused) return { code: 'paused', message: 'The printer is paused. Press its pause button to resume.' };
  if (s.bufferFull)
    return { code: 'buffer_full', message: "The printer's receive buffer is full. Wait for it to print." };
  return null;
}

/** ~HI, host identification: "<STX>model,firmware,dots per mm,memory<ETX>". */
export const HOST_IDENTIFICATION_QUERY = Buffer.from('~HI', 'latin1');

/** The model and resolution a ~HI answer names; null when it is not one. */
export function parseHostIdentification(buf: Buffer): { model: string; dpi: 203 | 300 | 600 | null } | null {
  // eslint-disable-next-line no-control-regex -- a ZPL status answer is framed by STX (\x02) and ETX (\x03)
  const m = /\x02([^\x02\x03]*)\x03/.exec(buf.toString('latin1'));
  if (!m) return null;
  const f = m[1]!.split(',').map((x) => x.trim());
  if (f.length < 3 || !f[0]) return null;
  const dpmm = Number.parseInt(f[2]!, 10);
  const dpi = dpmm === 8 ? 203 : dpmm === 12 ? 300 : dpmm === 24 ? 600 : null;
  return { model: f[0], dpi };
}

/**
 * ~HQES, the error status (ZPL II guide, "~HQ Host Query"): asked when ~HS stays silent, since a
 * printer sends no ~HS answer while media out, ribbon out, head open, rewinder full or head
 * over-temperature (the guide's note under ~HS), while the guide's own ~HQES examples answer in
 * exactly those states. The answer is one STX..ETX frame holding "PRINTER STATUS", then
 * "ERRORS: f hhhhhhhh hhhhhhhh" and "WARNINGS: …"; the last group's bits name the errors.
 */
export const ERROR_STATUS_QUERY = Buffer.from('~HQES', 'latin1');

const ERROR_BITS: [number, StatusProblem][] = [
  [0x4, { code: 'head_open', message: 'The print head is open. Close it and try again.' }],
  [0x1, { code: 'paper_out', message: 'The printer is out of labels. Load a new roll.' }],
  [0x2, { code: 'ribbon_out', message: 'The printer is out of ribbon. Load a new ribbon.' }],
  [0x8, { code: 'cutter_fault', message: "The printer's cutter has a fault. Clear it and try again." }],
  [0x10, { code: 'head_too_hot', message: 'The print head is too hot. The printer resumes when it has cooled down.' }],
  [
    0x20,
    { code: 'motor_too_hot', message: "The printer's motor is too hot. The printer resumes when it has cooled down." },
  ],
  [0x10000, { code: 'paused', message: 'The printer is paused. Press its pause button to resume.' }],
];

/** What a ~HQES answer says: the worst error (null: none), or undefined when it is not a ~HQES answer. */
export function parseErrorStatus(buf: Buffer): StatusProblem | null | undefined {
  const frame = framesOf(buf).find((f) => /PRINTER STATUS/i.test(f));
  const m = frame && /ERRORS:\s*([01])\s+([0-9A-F]{8})\s+([0-9A-F]{8})/i.exec(frame);
  if (!m) return undefined;
  if (m[1] === '0') return null;
  const bits = Number.parseInt(m[3]!, 16);
  for (const [bit, problem] of ERROR_BITS) if (bits & bit) return problem;
  return { code: 'printer_error', message: `The printer reports an error (code ${m[2]} ${m[3]}). Check its display.` };
}

/**
 * The label counter over SGD (Zebra's "odometer.total_label_count": labels printed over the
 * printer's life, form feeds and calibration not counted; Link-OS printers). The command "must be
 * terminated by a space character or a CR/LF" (Zebra's SGD guide): a space, so no line end reaches
 * a port that would print it; the answer is the value in double quotes, "?" where the printer has
 * no such setting.
 */
export const LABEL_COUNTER_QUERY = Buffer.from('! U1 getvar "odometer.total_label_count" ', 'latin1');

/** The count a label-counter answer holds; null when the printer has none (or answered something else). */
export function parseLabelCounter(buf: Buffer): number | null {
  const m = /"(\d+)"/.exec(buf.toString('latin1'));
  return m ? Number.parseInt(m[1]!, 10) : null;
}

/** Whether `buf` holds a whole quoted SGD answer. */
export const hasQuotedAnswer = (buf: Buffer): boolean => /"[^"]*"/.test(buf.toString('latin1'));
