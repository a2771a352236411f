/**
 * The two ways a ZPL printer is set up at a desk, both measured in one run: with host status
 * (`hs`: the station asks ~HS after each label and streams while the printer prints) and without
 * (`raw`: a new printer's default and every print server; labels stream in bursts, each burst
 * proved by the printer's close). BENCH_PRINTER_MODES (`hs,raw`) runs fewer.
 */
import type { Core } from './core';

export type PrinterMode = 'hs' | 'raw';

export const printerModes: PrinterMode[] = (process.env.BENCH_PRINTER_MODES ?? 'hs,raw')
  .split(',')
  .map((m) => m.trim())
  .filter((m): m is PrinterMode => m === 'hs' || m === 'raw');

/** Sets the core's benchmark printer to `mode`, as Settings > Printing would (its driver is made anew). */
export async function usePrinterMode(core: Core, mode: PrinterMode): Promise<void> {
  const printers = await core.call('printing.printers.list', {});
  const p = printers.find((x) => x.id === 'bench-zpl');
  if (!p) throw new Error('the core has no bench-zpl printer');
  if (p.settings.hostStatus === (mode === 'hs')) return;
  await core.call('printing.printers.save', {
    id: p.id,
    name: p.name,
    connection: p.connection,
    settings: { ...p.settings, hostStatus: mode === 'hs' },
  });
}
