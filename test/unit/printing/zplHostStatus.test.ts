import { describe, expect, it } from 'vitest';
import { formatHostStatus, hostStatusProblem, parseHostStatus } from '../../../electron/printing/zplHostStatus';

describe('Zebra host status (~HS)', () => {
  it('reads a ready printer from the three STX/ETX lines', () => {
    const raw = Buffer.from('\x02030,0,0,1245,000,0,0,0,000,0,0,0\x03\r\n\x02001,0,0,0,1,2,6,0,00000000,1,000\x03\r\n\x021234,0\x03\r\n', 'latin1');
    const s = parseHostStatus(raw)!;
    expect(s).toMatchObject({ paperOut: false, paused: false, headOpen: false, formatsInBuffer: 0, labelsRemaining: 0 });
    expect(hostStatusProblem(s)).toBeNull();
  });

  it.each([
    [{ paperOut: true }, 'paper_out'],
    [{ headOpen: true }, 'head_open'],
    [{ paused: true }, 'paused'],
    [{ ribbonOut: true }, 'ribbon_out'],
  ] as const)('names what stops the printer: %o -> %s', (flags, code) => {
    expect(hostStatusProblem(parseHostStatus(formatHostStatus(flags))!)?.code).toBe(code);
  });

  it('reads labels still in the buffer', () => {
    expect(parseHostStatus(formatHostStatus({ formatsInBuffer: 2, labelsRemaining: 3 }))).toMatchObject({ formatsInBuffer: 2, labelsRemaining: 3 });
  });

  it('refuses an answer that is not a host status', () => {
    expect(parseHostStatus(Buffer.from('HTTP/1.1 400 Bad Request\r\n'))).toBeNull();
  });
});
