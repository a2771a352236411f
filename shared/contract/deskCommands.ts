/**
 * Command barcodes in the RPC contract: the command sheet (shared/scan/deskCodes.ts's codes as a
 * PDF to print beside the desk) and what a command needs from the core that no key did before —
 * cancelling the parcel in progress. The other commands use the methods their keys use.
 */
import { z } from 'zod';
import { previewPage } from './printing';

const sheetParams = z.object({ language: z.enum(['en', 'cs']).optional() }).strict();

/** What `commands.cancelParcel` cancelled: the newest scan's labels that still waited in the queue. */
export const cancelledParcel = z.object({
  scanId: z.number().int(),
  code: z.string(),
  deliveryId: z.number().int().nullable(),
  jobIds: z.array(z.number().int()),
});
export type CancelledParcel = z.infer<typeof cancelledParcel>;

/** A cached shipment one of whose keys a scan reads as the same code as a desk code (command, badge). */
export const deskCodeShipment = z.object({
  deliveryId: z.number().int(),
  /** Which key of the shipment reads so. */
  key: z.enum(['externalId', 'deliveryNumber', 'barcode']),
  recipientName: z.string(),
});
export type DeskCodeShipment = z.infer<typeof deskCodeShipment>;

/** A cached shipment with a key that a scan reads as a desk code, and that key as the service stores it. */
export const deskCodeKeyShipment = deskCodeShipment.extend({ code: z.string() });
export type DeskCodeKeyShipment = z.infer<typeof deskCodeKeyShipment>;

export const deskCommandMethods = {
  /**
   * Before a command barcode is acted on: the cached shipment (of the active company) that the same
   * code, as a scan reads it, also names. A parcel's label must never run a command, so the page
   * names such a shipment to the worker and does nothing; null when the code is only a desk code.
   */
  'commands.shipmentReadAs': {
    reads: true,
    params: z.object({ code: z.string().min(1).max(400) }).strict(),
    result: z.object({ shipment: deskCodeShipment.nullable() }),
  },
  /**
   * The cached shipments of the active company (from the sync, a lookup or a close) with a key that
   * a scan reads as a desk code (shared/scan/deskCodes.ts readsAsDeskCode). A scan of such a label
   * runs no command and closes nothing, so the Shipments screen names them to the worker, who
   * closes and prints them from there. Empty without an active company; at most 100.
   */
  'commands.deskCodeShipments': {
    reads: true,
    params: z.object({}).strict(),
    result: z.object({ shipments: z.array(deskCodeKeyShipment) }),
  },
  /** The command sheet's pages as PNG (96 dpi: modules are whole pixels, scannable from the screen). */
  'commands.sheet': { params: sheetParams, result: z.object({ pages: z.array(previewPage) }) },
  /** The command sheet on the office printer route (the protocol printer; the virtual PDF printer by default). */
  'commands.printSheet': { params: sheetParams, result: z.object({ jobId: z.number().int() }) },
  /**
   * The cancel command (Ctrl+Delete): the newest scan of this desk whose labels still wait in the
   * print queue (not yet at the printer) has them cancelled, recorded as `parcel_cancelled`; null
   * when there is nothing to cancel (no scan, or its labels already reached the printer).
   */
  'commands.cancelParcel': {
    work: true,
    params: z.object({}).strict(),
    result: z.object({ cancelled: cancelledParcel.nullable() }),
  },
};
