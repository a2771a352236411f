/** USB HID POS scales through `node-hid`: input reports are parsed as they come (hidPos.ts). */
import HID from 'node-hid';
import { parseHidScaleReport } from './hidPos';
import type { ScaleReading } from './reading';
import type { ScaleDriver } from './scaleDriver';

export async function openHidScale(path: string): Promise<ScaleDriver> {
  const listeners: ((r: ScaleReading) => void)[] = [];
  const push = (r: ScaleReading) => listeners.forEach((fn) => fn(r));
  const dev = await HID.HIDAsync.open(path);
  let closed = false;
  dev.on('data', (data: Buffer) => {
    const r = parseHidScaleReport(data);
    if (r) push(r);
  });
  dev.on('error', (err: Error) => {
    if (closed) return;
    closed = true;
    push({ state: 'disconnected', code: 'device_gone', message: `The USB scale went away: ${err.message}` });
  });
  return {
    onReading: (fn) => void listeners.push(fn),
    async close() {
      closed = true;
      await dev.close().catch(() => undefined);
    },
  };
}
