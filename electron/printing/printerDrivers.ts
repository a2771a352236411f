/** Picks the driver variant for a printer's connection (the seam's one switch). */
import type { PrinterConfig } from '../../shared/contract/printing';
import { createCupsDriver } from './cupsDriver';
import type { PrinterDriver } from './printerDriver';
import { createUsbDeviceDriver } from './usbDeviceDriver';
import { createPdfFolderPrinter, type PdfFolderPrinter } from './virtualPdfPrinter';
import type { VirtualZplPrinter } from './virtualZplPrinter';
import { createWindowsPdfDriver } from './windowsPdfDriver';
import { createWindowsRawDriver } from './windowsSpooler';
import { createZplTcpDriver } from './zplTcpDriver';

export interface VirtualPrinters {
  zpl: VirtualZplPrinter;
  pdf: PdfFolderPrinter;
}

export function createDriver(p: PrinterConfig, virtual: VirtualPrinters, platform = process.platform): PrinterDriver {
  const c = p.connection;
  switch (c.kind) {
    case 'zpl-tcp':
      return createZplTcpDriver({ host: c.host, port: c.port, settings: p.settings });
    case 'virtual-zpl':
      return createZplTcpDriver({
        host: virtual.zpl.host,
        port: virtual.zpl.port,
        settings: { ...p.settings, hostStatus: true },
      });
    case 'zpl-usb':
      return createUsbDeviceDriver({ device: c.device, settings: p.settings });
    case 'zpl-spooler':
      return platform === 'win32'
        ? createWindowsRawDriver({ printer: c.queue, settings: p.settings })
        : createCupsDriver({ queue: c.queue, mode: 'zpl', settings: p.settings });
    case 'pdf-system':
      return platform === 'win32'
        ? createWindowsPdfDriver({ printer: c.queue, settings: p.settings })
        : createCupsDriver({ queue: c.queue, mode: 'pdf', settings: p.settings });
    case 'virtual-pdf':
      return virtual.pdf;
  }
}

export { createPdfFolderPrinter };
