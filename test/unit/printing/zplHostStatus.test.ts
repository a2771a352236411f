import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostStatusProblem, parseHostStatus } from '../../../electron/printing/zplHostStatus';
import { startVirtualZplPrinter, type VirtualZplPrinter } from '../../../electron/printing/virtualZplPrinter';

/*
 * Answers written by hand from the ZPL II Programming Guide, "~HS Host Status Return" — not made
 * by the project's own formatter, so a field read from the wrong place fails here:
 *   string 1  <STX>aaa,b,c,dddd,eee,f,g,h,iii,j,k,l<ETX><CR><LF>
 *     aaa communication settings, b paper out, c pause, dddd label length (dots),
 *     eee formats in receive buffer, f receive buffer full, g communications diagnostic mode,
 *     h partial format in progress, iii unused (000), j corrupt RAM, k under temperature,
 *     l over temperature
 *   string 2  <STX>mmm,n,o,p,q,r,s,t,uuuuuuuu,v,www<ETX><CR><LF>
 *     mmm function settings, n unused, o head up, p ribbon out, q thermal transfer mode,
 *     r print mode, s print width mode, t label waiting (peel-off), uuuuuuuu labels remaining
 *     in batch, v format while printing (always 1), www graphic images stored
 *   string 3  <STX>xxxx,y<ETX><CR><LF>   xxxx password, y static RAM installed
 */
const answer = (s1: string, s2: string, s3 = '1234,0') =>
  Buffer.from(`\x02${s1}\x03\r\n\x02${s2}\x03\r\n\x02${s3}\x03\r\n`, 'latin1');
const READY_1 = '030,0,0,0812,000,0,0,0,000,0,0,0';
const READY_2 = '001,0,0,0,1,2,4,0,00000000,1,000';

describe('Zebra host status (~HS) read as the ZPL manual documents it', () => {
  it('a ready printer: nothing stops it, nothing waiting', () => {
    const s = parseHostStatus(answer(READY_1, READY_2))!;
    expect(s).toEqual({
      paperOut: false,
      paused: false,
      headOpen: false,
      ribbonOut: false,
      bufferFull: false,
      formatsInBuffer: 0,
      labelsRemaining: 0,
      partialFormat: false,
    });
    expect(hostStatusProblem(s)).toBeNull();
  });

  it('paper out (b) — a Zebra also pauses when it runs out (c)', () => {
    const s = parseHostStatus(answer('030,1,1,0812,000,0,0,0,000,0,0,0', READY_2))!;
    expect(s).toMatchObject({ paperOut: true, paused: true, headOpen: false, ribbonOut: false });
    expect(hostStatusProblem(s)?.code).toBe('paper_out');
  });

  it('paused by its button (c) with two formats waiting (eee)', () => {
    const s = parseHostStatus(answer('030,0,1,0812,002,0,0,0,000,0,0,0', READY_2))!;
    expect(s).toMatchObject({ paperOut: false, paused: true, formatsInBuffer: 2 });
    expect(hostStatusProblem(s)?.code).toBe('paused');
  });

  it('head open (o, string 2) — not the unused field before it', () => {
    const s = parseHostStatus(answer(READY_1, '001,0,1,0,1,2,4,0,00000000,1,000'))!;
    expect(s).toMatchObject({ headOpen: true, ribbonOut: false, paperOut: false });
    expect(hostStatusProblem(s)?.code).toBe('head_open');
  });

  it('ribbon out (p, string 2) on a thermal-transfer printer (q)', () => {
    const s = parseHostStatus(answer(READY_1, '001,0,0,1,1,2,4,0,00000000,1,000'))!;
    expect(s).toMatchObject({ ribbonOut: true, headOpen: false });
    expect(hostStatusProblem(s)?.code).toBe('ribbon_out');
  });

  it('receive buffer full (f), with a partly received format (h)', () => {
    const s = parseHostStatus(answer('030,0,0,0812,012,1,0,1,000,0,0,0', READY_2))!;
    expect(s).toMatchObject({ bufferFull: true, partialFormat: true, formatsInBuffer: 12 });
    expect(hostStatusProblem(s)?.code).toBe('buffer_full');
  });

  it('labels remaining in the batch (uuuuuuuu, eight digits) and formats in the buffer (eee)', () => {
    const s = parseHostStatus(answer('030,0,0,1218,003,0,0,0,000,0,0,0', '001,0,0,0,1,2,4,0,00000017,1,000'))!;
    expect(s).toMatchObject({ formatsInBuffer: 3, labelsRemaining: 17 });
    expect(hostStatusProblem(s)).toBeNull();
  });

  it('flags the station does not act on are not mistaken for a problem (diagnostic mode, temperatures, peel-off label waiting)', () => {
    // g=1, j=0, k=1, l=1 in string 1; r=1 peel-off, t=1 label waiting, www=005 images in string 2.
    const s = parseHostStatus(answer('030,0,0,0812,000,0,1,0,000,0,1,1', '001,0,0,0,0,1,4,1,00000000,1,005'))!;
    expect(hostStatusProblem(s)).toBeNull();
  });

  it('an answer missing its second string is not a host status', () => {
    expect(parseHostStatus(Buffer.from(`\x02${READY_1}\x03\r\n`, 'latin1'))).toBeNull();
    expect(parseHostStatus(Buffer.from('HTTP/1.1 400 Bad Request\r\n'))).toBeNull();
  });
});

/** Sends `bytes` to the printer and collects its answer until three ETX frames arrived. */
function ask(printer: VirtualZplPrinter, bytes: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(printer.port, printer.host);
    const chunks: Buffer[] = [];
    socket.on('data', (d) => {
      chunks.push(d);
      const all = Buffer.concat(chunks);
      if (all.filter((b) => b === 0x03).length >= 3) {
        socket.end();
        resolve(all);
      }
    });
    socket.on('error', reject);
    socket.write(Buffer.from(bytes, 'utf8'));
  });
}

describe('the virtual printer answers ~HS as the manual documents it', () => {
  let printer: VirtualZplPrinter;
  beforeAll(async () => {
    printer = await startVirtualZplPrinter();
  });
  afterAll(() => printer.close());

  it("three STX…ETX CR LF strings with the manual's field count and widths", async () => {
    printer.set({ paperOut: false, headOpen: false, paused: false });
    const raw = (await ask(printer, '~HS')).toString('latin1');
    // eslint-disable-next-line no-control-regex -- a ~HS answer is three STX … ETX frames
    const strings = [...raw.matchAll(/\x02([^\x02\x03]*)\x03\r\n/g)].map((m) => m[1]!.split(','));
    expect(strings.map((f) => f.map((x) => x.length))).toEqual([
      [3, 1, 1, 4, 3, 1, 1, 1, 3, 1, 1, 1],
      [3, 1, 1, 1, 1, 1, 1, 1, 8, 1, 3],
      [4, 1],
    ]);
  });

  it.each([
    [{ paperOut: true }, { paperOut: true }],
    [{ headOpen: true }, { headOpen: true }],
    [{ paused: true }, { paused: true }],
  ])('its condition %o reads back as %o', async (condition, expected) => {
    printer.set({ paperOut: false, headOpen: false, paused: false, ...condition });
    expect(parseHostStatus(await ask(printer, '~HS'))).toMatchObject(expected);
  });

  it('a paused printer keeps a Czech label in its buffer and says so', async () => {
    printer.clear();
    printer.set({ paperOut: false, headOpen: false, paused: true });
    const s = parseHostStatus(await ask(printer, '^XA^CI28^FO20,20^A0N,30,30^FDPříliš žluťoučký kůň^FS^PQ2^XZ~HS'))!;
    expect(s).toMatchObject({ paused: true, formatsInBuffer: 1, labelsRemaining: 0 });
    expect(printer.printed()).toHaveLength(0);
    printer.set({ paused: false });
  });
});
