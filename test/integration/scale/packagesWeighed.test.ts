/**
 * Packages at the desk with a scale (a virtual MT-SICS scale on a pseudo-terminal: scaleDesk.ts):
 * each new box is weighed as it lies on the scale (`packages.weigh` takes the settled weight), the
 * boxes are sent, and the parcel closes and prints without the scan lane asking the scale again
 * for its packages; the service holds the weighed weights. A moving scale gives no weight.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanOutcome } from '../../../shared/contract/workflows';
import { needs } from '../../support/services';
import { waitFor } from '../printing/printingTestKit';
import { startScaleDesk, type ScaleDesk } from './scaleDesk';

const run = needs('socat');
let desk: ScaleDesk;

/** Until the station's reading of the scale (it reads the scale by itself) is what `ok` wants. */
async function readingIs(ok: (r: { state: string; kg?: string }) => boolean): Promise<void> {
  const end = Date.now() + 10_000;
  while (!ok(await desk.call('scale.reading', {}))) {
    if (Date.now() > end) throw new Error('the scale reading did not come');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The box on the scale settles at `text`. */
async function settle(text: string, kg: number): Promise<void> {
  await desk.vs.shown({ state: 'stable', text });
  await readingIs((r) => r.state === 'stable' && Number(r.kg) === kg);
}

beforeAll(async () => {
  if (!run) return;
  desk = await startScaleDesk({ verifyLabels: false });
}, 60_000);
afterAll(async () => {
  await desk?.close();
});

describe.skipIf(!run)('packages at the desk with a scale', () => {
  it('weighs each new box on the scale in turn; the parcel closes without being weighed again', async () => {
    const parcel = (await desk.call('packages.open', { code: 'ORD-1001' })) as { deliveryId: number };
    desk.vs.show({ state: 'moving', text: '0.700 kg' });
    await readingIs((r) => r.state === 'motion');
    const moving = await desk.hs.station.rpc.dispatch('packages.weigh', {});
    expect(moving).toMatchObject({ ok: false, error: { code: 'scale_no_weight' } });

    await settle('1.250 kg', 1.25);
    const first = (await desk.call('packages.weigh', {})) as { kg: string };
    await settle('0.800 kg', 0.8);
    const second = (await desk.call('packages.weigh', {})) as { kg: string };
    expect([first.kg, second.kg].map(Number)).toEqual([1.25, 0.8]);

    const from = desk.events.length;
    const { scanId } = (await desk.call('packages.close', {
      deliveryId: parcel.deliveryId,
      packages: [
        { weight: first.kg, length: null, width: null, height: null },
        { weight: second.kg, length: null, width: null, height: null },
      ],
    })) as { scanId: number };
    await waitFor(
      () =>
        desk.events
          .slice(from)
          .some(
            (e) =>
              e.name === 'scan.outcome' &&
              (e.payload as ScanOutcome).scanId === scanId &&
              (e.payload as ScanOutcome).kind === 'printed',
          ),
      20_000,
    );
    // The lane asked the scale for nothing: the boxes were weighed at the desk.
    expect(desk.events.slice(from).filter((e) => e.name === 'scale.weighing' && e.payload !== null)).toEqual([]);
    const d = await desk.atService('ORD-1001');
    expect(d.packages.map((p) => Number(p.weight))).toEqual([1.25, 0.8]);
    expect(d.deliveryState).not.toBe(0);
  }, 60_000);
});
