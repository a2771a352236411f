import { describe, expect, it } from 'vitest';
import { defaultRoutingRules, labelRequestFor, parseRoutingRules, routeFor } from '../../../electron/printing/routing';
import { pdfPrintJob, zplPrintJobs } from '../../../electron/workflows/labelJobs';
import { routingRules } from '../../../shared/contract/printing';

const rules = routingRules.parse({
  carriers: {
    POST: { format: 'zpl', printerId: 'zebra', size: '10x17' },
    COURIER: { format: 'pdf-single', printerId: 'cups-zebra' },
    REGIONAL: { format: 'pdf-a4', printerId: 'office', position: 3 },
  },
  defaultRoute: { format: 'zpl', printerId: 'zebra' },
  protocolPrinterId: 'office',
});

describe('label routing per carrier', () => {
  it('picks the carrier route, else the default', () => {
    expect(routeFor(rules, 'POST')).toMatchObject({ format: 'zpl', size: '10x17' });
    expect(routeFor(rules, 'OTHER')).toEqual({ format: 'zpl', printerId: 'zebra' });
  });

  it('asks the service for ZPL with its size, PDF single, or A4 from a start position (spec: GET tickets position 1-4)', () => {
    expect(labelRequestFor(routeFor(rules, 'POST')!)).toEqual({ kind: 'zpl', size: '10x17' });
    expect(labelRequestFor(routeFor(rules, 'COURIER')!)).toEqual({ kind: 'pdf', printFormat: 'single', position: 1 });
    expect(labelRequestFor(routeFor(rules, 'REGIONAL')!)).toEqual({ kind: 'pdf', printFormat: 'default', position: 3 });
  });

  it('rejects an A4 start position outside 1-4 and a ZPL size the service does not offer', () => {
    expect(
      routingRules.safeParse({ ...rules, defaultRoute: { format: 'pdf-a4', printerId: 'office', position: 5 } })
        .success,
    ).toBe(false);
    expect(
      routingRules.safeParse({ ...rules, defaultRoute: { format: 'zpl', printerId: 'z', size: '10x10' } }).success,
    ).toBe(false);
  });

  it('prints every package label of a multi-package shipment in one job per shipment', () => {
    const jobs = zplPrintJobs(
      { format: 'zpl', printerId: 'zebra' },
      [{ deliveryId: 7, zplCodes: ['^XA1^XZ', '^XA2^XZ', '^XA3^XZ'], barcodes: ['A', 'B', 'C'] }],
      '10x15',
    );
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.payload.toString()).toBe('^XA1^XZ\n^XA2^XZ\n^XA3^XZ');
    expect(jobs[0]).toMatchObject({
      printerId: 'zebra',
      format: 'zpl',
      labelSize: '10x15',
      deliveryIds: [7],
      barcodes: ['A', 'B', 'C'],
    });
    expect(
      pdfPrintJob({ format: 'pdf-a4', printerId: 'office', position: 2 }, Buffer.from('%PDF'), [1, 2]),
    ).toMatchObject({ format: 'pdf', deliveryIds: [1, 2] });
  });

  it('falls back to the embedded default when the stored rules are unreadable', () => {
    expect(parseRoutingRules({ carriers: 'nope' })).toEqual(defaultRoutingRules);
  });
});
