/**
 * A printer's name as the worker reads it: the built-in virtual printers in the UI language (the
 * core names them in English, electron/printing/printingService.ts); a name the worker gave, as given.
 */
import type { T } from './index';

const builtIn: Record<string, { key: 'printers.name.virtual-zpl' | 'printers.name.virtual-pdf'; coreName: string }> = {
  'virtual-zpl': { key: 'printers.name.virtual-zpl', coreName: 'Virtual label printer (ZPL)' },
  'virtual-pdf': { key: 'printers.name.virtual-pdf', coreName: 'Virtual office printer (PDF folder)' },
};

export function printerName(t: T, p: { id: string; name: string }): string {
  const b = builtIn[p.id];
  return b && p.name === b.coreName ? t(b.key) : p.name;
}
