/** The bytes a ZPL printer gets for a job: resolution conversion, then the printer's settings. */
import type { PrinterSettings } from '../../shared/contract/printing';
import type { DriverJob } from './printerDriver';
import { PrintError } from './printerDriver';
import { convertZplForDpi } from './zplResolution';
import { applyZplSettings } from './zplSettings';

export async function prepareZplForPrinter(job: DriverJob, settings: PrinterSettings): Promise<Buffer> {
  if (job.format !== 'zpl') {
    throw new PrintError('wrong_format', 'This printer takes ZPL labels only. Route PDF labels to a system printer.', 'not_sent');
  }
  const zpl = job.bytes.toString('latin1');
  let converted: string;
  try {
    converted = await convertZplForDpi(zpl, settings.dpi, job.labelSize);
  } catch (err) {
    throw new PrintError('convert_failed', `The label could not be converted for a ${settings.dpi}-dpi printer: ${err instanceof Error ? err.message : String(err)}`, 'not_sent');
  }
  const out = applyZplSettings(converted, settings, job.copies);
  return out === zpl ? job.bytes : Buffer.from(out, 'latin1');
}
