/**
 * Scales the station can see: serial ports (`SerialPort.list()`, which on Linux runs `udevadm`;
 * where that is missing the list fails and the worker types the port's path) and HID devices on
 * the scale usage page (0x8D).
 */
import { SerialPort } from 'serialport';
import HID from 'node-hid';
import type { ScaleDiscovery } from '../../shared/contract/scale';
import { HID_SCALE_USAGE_PAGE } from './hidPos';

/** "spawn udevadm ENOENT" (Node's error when a program is not installed) -> the program, for a sentence the screen translates. */
function missingTool(err: unknown): { missingTool?: string } {
  const e = err as { code?: unknown; path?: unknown; syscall?: unknown } | null;
  if (e?.code !== 'ENOENT') return {};
  if (typeof e.path === 'string' && typeof e.syscall === 'string' && e.syscall.startsWith('spawn'))
    return { missingTool: e.path };
  const m = /spawn (\S+) ENOENT/.exec(err instanceof Error ? err.message : '');
  return m ? { missingTool: m[1]! } : {};
}

export async function discoverScales(): Promise<ScaleDiscovery> {
  const out: ScaleDiscovery = { serial: [], hid: [], problems: [] };
  try {
    // The port type's package (@serialport/bindings-interface) exports no types to our module resolution: the fields we read.
    const ports = (await SerialPort.list()) as { path: string; manufacturer?: string; serialNumber?: string }[];
    for (const p of ports) {
      out.serial.push({ path: p.path, label: [p.manufacturer, p.serialNumber].filter(Boolean).join(' ') || p.path });
    }
  } catch (err) {
    out.problems.push({
      kind: 'serial',
      detail: err instanceof Error ? err.message : String(err),
      ...missingTool(err),
    });
  }
  try {
    for (const d of await HID.devicesAsync()) {
      if (d.usagePage !== HID_SCALE_USAGE_PAGE || !d.path) continue;
      out.hid.push({
        path: d.path,
        label:
          [d.manufacturer, d.product].filter(Boolean).join(' ') ||
          `${d.vendorId.toString(16)}:${d.productId.toString(16)}`,
      });
    }
  } catch (err) {
    out.problems.push({ kind: 'hid', detail: err instanceof Error ? err.message : String(err) });
  }
  return out;
}
