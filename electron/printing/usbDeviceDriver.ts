/**
 * ZPL raw to a USB label printer through the Linux printer class device (/dev/usb/lpN). The kernel
 * driver has no status channel we can rely on, so `sent` is when every byte was written and the
 * device closed without error.
 */
import { constants, existsSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { PrinterSettings } from '../../shared/contract/printing';
import { PRINTED, PrintError, createSerialWriter, type FailureOutcome, type PrinterDriver } from './printerDriver';
import { prepareZplForPrinter } from './zplPrepare';

function usbError(device: string, err: unknown, outcome: FailureOutcome): PrintError {
  const e = err as NodeJS.ErrnoException;
  const hint = e.code === 'EACCES' ? ' Add this user to the "lp" group.' : '';
  return new PrintError('usb_error', `Cannot write to ${device} (${e.code ?? e.message}).${hint}`, outcome);
}

export function createUsbDeviceDriver(opts: { device: string; settings: PrinterSettings }): PrinterDriver {
  const serial = createSerialWriter();
  return {
    formats: ['zpl'],
    print: (job, hooks) =>
      serial(async () => {
        const bytes = await prepareZplForPrinter(job, opts.settings);
        if (!existsSync(opts.device)) {
          throw new PrintError(
            'offline',
            `The USB printer ${opts.device} is not connected. Plug it in and switch it on.`,
            'not_sent',
          );
        }
        let fh: FileHandle;
        try {
          // No O_CREAT: a missing device must not turn into a regular file under /dev.
          fh = await open(opts.device, constants.O_WRONLY | constants.O_APPEND);
        } catch (err) {
          throw usbError(opts.device, err, 'not_sent');
        }
        try {
          await hooks.sending();
        } catch (err) {
          await fh.close().catch(() => undefined);
          throw err;
        }
        try {
          await fh.write(bytes);
          await fh.close();
        } catch (err) {
          await fh.close().catch(() => undefined);
          throw usbError(opts.device, err, 'unknown');
        }
        hooks.accepted();
        return PRINTED;
      }),
    status: async () =>
      existsSync(opts.device)
        ? { state: 'ready', reasonCode: null, reason: null }
        : { state: 'offline', reasonCode: 'offline', reason: `The USB printer ${opts.device} is not connected.` },
  };
}
