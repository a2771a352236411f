/**
 * The station's serial scale driver against a virtual MT-SICS scale on a pseudo-terminal pair
 * (socat): stable and moving readings, overload, underload, busy, a silent scale and a pulled
 * cable. Real serialport, real ptys; only the scale itself is simulated (no scale is attached here).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openSerialScale } from '../../../electron/scale/serialScale';
import type { ScaleReading } from '../../../electron/scale/reading';
import type { ScaleDriver } from '../../../electron/scale/scaleDriver';
import { needs } from '../../support/services';
import { startVirtualScale, type VirtualScale } from './virtualScale';

let vs: VirtualScale | null = null;
let driver: ScaleDriver | null = null;

afterEach(async () => {
  await driver?.close();
  await vs?.close();
  driver = null;
  vs = null;
});

async function open(): Promise<{
  last: () => ScaleReading | null;
  until: (ok: (r: ScaleReading) => boolean) => Promise<ScaleReading>;
}> {
  vs = await startVirtualScale();
  driver = await openSerialScale({
    path: vs.stationPath,
    baudRate: 9600,
    protocol: 'mt-sics',
    pollMs: 50,
    silenceMs: 600,
  });
  let last: ScaleReading | null = null;
  const waiting: { ok: (r: ScaleReading) => boolean; resolve: (r: ScaleReading) => void }[] = [];
  driver.onReading((r) => {
    last = r;
    for (const w of [...waiting])
      if (w.ok(r)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(r);
      }
  });
  const until = (ok: (r: ScaleReading) => boolean) =>
    new Promise<ScaleReading>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no such reading; last: ${JSON.stringify(last)}`)), 5000);
      waiting.push({ ok, resolve: (r) => (clearTimeout(t), resolve(r)) });
    });
  return { last: () => last, until };
}

describe.skipIf(!needs('socat'))('a serial MT-SICS scale on a pseudo-terminal', () => {
  it('a settled parcel is a stable weight in exact kilograms; a moving one is no weight', async () => {
    const s = await open();
    vs!.show({ state: 'moving', text: '1.180 kg' });
    expect(await s.until((r) => r.state === 'motion')).toEqual({ state: 'motion', value: '1.180', unit: 'kg' });
    vs!.show({ state: 'stable', text: '1.234 kg' });
    expect(await s.until((r) => r.state === 'stable')).toEqual({
      state: 'stable',
      value: '1.234',
      unit: 'kg',
      kg: '1.234',
    });
    vs!.show({ state: 'stable', text: '2.5 lb' });
    // 2.5 lb × 0.45359237 kg/lb, exactly.
    expect(await s.until((r) => r.state === 'stable' && r.unit === 'lb')).toMatchObject({ kg: '1.133980925' });
    expect(vs!.commands.filter((c) => c === 'SI').length).toBeGreaterThan(0);
  });

  it('overload, underload and busy are states, never a weight', async () => {
    const s = await open();
    vs!.show({ state: 'overload' });
    expect(await s.until((r) => r.state !== 'stable')).toEqual({ state: 'overload' });
    vs!.show({ state: 'underload' });
    expect(await s.until((r) => r.state === 'underload')).toEqual({ state: 'underload' });
    vs!.show({ state: 'busy' });
    expect(await s.until((r) => r.state === 'fault')).toMatchObject({ state: 'fault', code: 'mt_sics_busy' });
  });

  it('a scale that stops answering, and a pulled cable, read as disconnected', async () => {
    const s = await open();
    vs!.show({ state: 'stable', text: '0.750 kg' });
    await s.until((r) => r.state === 'stable');
    const silent = s.until((r) => r.state === 'disconnected');
    vs!.show({ state: 'silent' });
    expect(await silent).toMatchObject({ state: 'disconnected', message: expect.stringContaining('does not answer') });
    vs!.show({ state: 'stable', text: '0.750 kg' });
    await s.until((r) => r.state === 'stable');
    const gone = s.until((r) => r.state === 'disconnected');
    await vs!.unplug();
    expect(await gone).toMatchObject({ state: 'disconnected' });
    // Nothing after the cable: the last word stays "disconnected", not the weight before it.
    await new Promise((r) => setTimeout(r, 300));
    expect(s.last()?.state).toBe('disconnected');
  });
});
