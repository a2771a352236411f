/**
 * ZPL raw to a USB label printer through the Linux printer class device (/dev/usb/lpN). The kernel
 * driver has no status channel we can rely on, so `sent` is when every byte was written and the
 * device closed without error.
 */
import { constants, existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { PrinterSettings } from '../../shared/contract/printing';
import { PrintError, createSerialWriter, type PrinterDriver } from './printerDriver';
import { prepareZplForPrinter } from './zplPrepare';

export function createUsbDeviceDriver(opts: { device: string; settings: PrinterSettings }): PrinterDriver {
  const serial = createSerialWriter();
  return {
    formats: ['zpl'],
    print: (job, onAccepted) =>
      serial(async () => {
        const bytes = await prepareZplForPrinter(job, opts.settings);
        if (!existsSync(opts.device)) {
          throw new PrintError('offline', `The USB printer ${opts.device} is not connected. Plug it in and switch it on.`, 'not_sent');
        }
        let wrote = false;
        try {
          // No O_CREAT: a missing device must not turn into a regular file under /dev.
          const fh = await open(opts.device, constants.O_WRONLY | constants.O_APPEND);
          try {
            wrote = true;
            await fh.write(bytes);
          } finally {
            await fh.close();
          }
        } catch (err) {
          const e = err as NodeJS.ErrnoException;
          const hint = e.code === 'EACCES' ? ' Add this user to the "lp" group.' : '';
          throw new PrintError('usb_error', `Cannot write to ${opts.device} (${e.code ?? e.message}).${hint}`, wrote ? 'unknown' : 'not_sent');
        }
        onAccepted();
      }),
    status: async () =>
      existsSync(opts.device)
        ? { state: 'ready', reasonCode: null, reason: null }
        : { state: 'offline', reasonCode: 'offline', reason: `The USB printer ${opts.device} is not connected.` },
  };
}
