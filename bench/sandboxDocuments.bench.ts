/**
 * The cost of the sandbox's label documents for a 100-shipment request, as the
 * tickets and ZPL routes would produce them (generation only; HTTP and base64 are measured by
 * the route benches). Reports mean milliseconds per request and bytes per response document.
 */
import { performance } from 'node:perf_hooks';
import type { LabelData } from '../sandbox/documents/labelData';
import { renderLabelsPdf } from '../sandbox/documents/pdfLabels';
import { renderZplLabel } from '../sandbox/documents/zplLabels';

const SHIPMENTS = 100;
const ROUNDS = 5;

function labels(): LabelData[] {
  return Array.from({ length: SHIPMENTS }, (_, i) => {
    const deliveryNumber = `DR${String(10000000 + i).padStart(10, '0')}M`;
    return {
      deliveryId: 1000 + i,
      agent: { code: 'CP', name: 'Národní pošta' },
      deliveryNumber,
      packageIndex: 1,
      packageCount: 1,
      barcode: deliveryNumber,
      weight: '2.35',
      sender: { name: 'Eshop Kolečko s.r.o.', lines: ['Skladová 12', '602 00 Brno', 'CZ'] },
      recipient: {
        name: `Příjemce č. ${i}`,
        lines: ['Šafaříkova 1273/18', '120 00 Praha 2', 'CZ'],
        phone: '+420 777 123 456',
      },
      ...(i % 4 === 0 ? { cod: { amount: '1234.5', currency: 'CZK' } } : {}),
      ticketNote: i % 3 === 0 ? 'Křehké, nestohovat.' : undefined,
      created: new Date('2025-03-05T13:07:00Z'),
      deliveryTypeName: 'Balík Do ruky',
    };
  });
}

async function time<T>(fn: () => Promise<T> | T): Promise<{ ms: number; last: T }> {
  let last = await fn(); // warm-up: font parsing, bwip-js tables
  const start = performance.now();
  for (let i = 0; i < ROUNDS; i++) last = await fn();
  return { ms: (performance.now() - start) / ROUNDS, last };
}

export async function run(): Promise<Record<string, number>> {
  const data = labels();
  const a4 = await time(() => renderLabelsPdf(data, { printFormat: 'default', position: 1 }));
  const single = await time(() => renderLabelsPdf(data, { printFormat: 'single', position: 1 }));
  const zpl = await time(() => data.map((l) => renderZplLabel(l, '10x15')));
  return {
    'tickets.pdf.a4.100shipments.msPerRequest': round(a4.ms),
    'tickets.pdf.a4.100shipments.bytes': a4.last.length,
    'tickets.pdf.single.100shipments.msPerRequest': round(single.ms),
    'tickets.pdf.single.100shipments.bytes': single.last.length,
    'zpl.10x15.100shipments.msPerRequest': round(zpl.ms),
    'zpl.10x15.100shipments.bytes': zpl.last.reduce((n, s) => n + Buffer.byteLength(s, 'utf8'), 0),
  };
}

const round = (n: number) => Math.round(n * 100) / 100;
