/**
 * What the virtual printer answers to ~HS and ~HQES (./virtualZplPrinter.ts), written from the
 * manual, not with the station's parser's idea of them.
 */
import { bufferCounts, type PrinterState } from './virtualZplHead';
import { MAX_BUFFERED_BYTES } from './virtualZplLimits';

/**
 * ~HS as the ZPL II guide lays it out ("~HS Host Status Return"): three strings, each
 * <STX>…<ETX> and a line end. String 1 aaa,b,c,dddd,eee,f,g,h,iii,j,k,l (b paper out, c paused,
 * eee formats in the receive buffer, h partial format); string 2 mmm,n,o,p,q,r,s,t,uuuuuuuu,v,www
 * (o head up, p ribbon out, uuuuuuuu labels remaining); string 3 xxxx,y.
 */
export function hostStatus(st: PrinterState, partial: boolean): string {
  const { cond, profile } = st;
  const b = (v: boolean) => (v ? '1' : '0');
  const c = bufferCounts(st);
  if (profile.layout === 'wide') {
    // Not a Zebra: 32 fields on its first line, none of them where the manual puts Zebra's.
    const wide = Array.from({ length: 32 }, (_, i) => (i === 1 ? b(cond.paperOut) : '0'));
    return [wide.join(','), '0,0,0', '0'].map((l) => `\x02${l}\x03${profile.lineEnd}`).join('');
  }
  const full = b(st.bufferedBytes >= MAX_BUFFERED_BYTES);
  const l1 = `030,${b(cond.paperOut)},${b(cond.paused)},1800,${String(c.formatsInBuffer).padStart(3, '0')},${full},0,${b(partial)},000,0,0,0`;
  const l2 = `001,0,${b(cond.headOpen)},${b(cond.ribbonOut)},0,2,6,0,${String(c.labelsRemaining).padStart(8, '0')},1,000`;
  return [l1, l2, '1234,0'].map((l) => `\x02${l}\x03${profile.lineEnd}`).join('');
}

/**
 * ~HQES as the ZPL II guide lays it out ("~HQ Host Query", ES: error status): a frame holding
 * "PRINTER STATUS", then ERRORS and WARNINGS, each a flag and two groups of eight hex digits;
 * the second group's bits: 1 media out, 2 ribbon out, 4 head open.
 */
export function errorStatus(st: PrinterState): string {
  const { cond } = st;
  const bits = (cond.paperOut ? 0x1 : 0) | (cond.ribbonOut ? 0x2 : 0) | (cond.headOpen ? 0x4 : 0);
  const e = st.profile.lineEnd;
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(8, '0');
  return `\x02${e}  PRINTER STATUS${e}   ERRORS:         ${bits ? 1 : 0} 00000000 ${hex(bits)}${e}   WARNINGS:       0 00000000 00000000${e}\x03${e}`;
}
