import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError, type Delivery } from '../../../electron/api/index';
import { openSession, shipment, type Session } from './support';

let s: Session;
let np: Delivery[];
let ppr: Delivery[];
let open: Delivery;

beforeAll(async () => {
  s = await openSession({ seed: 'none' });
  const inserted = await s.client.insertDeliveries([
    shipment({ packages: [{ weight: '1.2' }, { weight: '3,4' as string }] }),
    shipment(),
    shipment({ agent: 'PPR', deliveryType: 'PPR-BUSINESS', sender: { type: 'collectionPlace', collectionPlace: 'WH-BRNO' } }),
    shipment(),
  ]);
  open = inserted[3]!;
  const groups = await s.client.closeDeliveries(
    inserted.slice(0, 3).map((d) => ({ deliveryId: d.deliveryId, agent: d.agent, sender: { type: 'collectionPlace' as const, collectionPlace: d.agent === 'NP' ? 'WH-PRAHA' : 'WH-BRNO' } })),
  );
  const closed = groups.flatMap((g) => (g.outcome.status === 'closed' ? g.outcome.deliveries : []));
  np = closed.filter((d) => d.agent === 'NP');
  ppr = closed.filter((d) => d.agent === 'PPR');
  expect(np).toHaveLength(2);
  expect(ppr).toHaveLength(1);
});
afterAll(async () => s?.sb.close());

describe('PDF labels (spec "GET /api/v3/deliveries/tickets")', () => {
  it('asks once per carrier and decodes each PDF', async () => {
    const before = s.log.lines.filter((l) => l.includes('/tickets') && l.includes('"status"')).length;
    const batches = await s.client.getTickets([...np, ...ppr], { printFormat: 'default', position: 2 });
    expect(batches.map((b) => [b.agent, b.deliveryIds.length]).sort()).toEqual([['NP', 2], ['PPR', 1]]);
    for (const b of batches) expect(b.pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(s.log.lines.filter((l) => l.includes('/tickets') && l.includes('"status"')).length - before).toBe(2);
  });

  it('gives roll labels with printFormat single', async () => {
    const [b] = await s.client.getTickets(np, { printFormat: 'single' });
    expect(b!.pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('refuses an unclosed shipment with 422', async () => {
    const err = await s.client.getTickets([{ deliveryId: open.deliveryId, agent: 'NP' }]).catch((e) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.status).toBe(422);
  });
});
