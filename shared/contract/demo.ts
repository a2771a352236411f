/**
 * First run: the demo pick list, a PDF of Code 128 barcodes of the built-in
 * sandbox's prepared demo shipments, to print on the office printer or to scan from the screen.
 * Only for an account on the built-in sandbox; otherwise the core answers `not_demo`.
 */
import { z } from 'zod';
import { previewPage } from './printing';

export const demoPickItem = z.object({
  /** What the barcode holds: the shipment's externalId (its deliveryId when it has none). */
  code: z.string(),
  carrier: z.string(),
  recipientName: z.string(),
  deliveryId: z.number().int(),
});
export type DemoPickItem = z.infer<typeof demoPickItem>;

/** The language of the PDF's texts (the UI's); the barcodes are the same in both. */
const pickListParams = z.object({ language: z.enum(['en', 'cs']).optional() }).strict();

export const demoMethods = {
  /** The prepared demo shipments and the pick list's pages as PNG (96 dpi: modules are whole pixels). */
  'demo.pickList': {
    params: pickListParams,
    result: z.object({ items: z.array(demoPickItem), pages: z.array(previewPage) }),
  },
  /** Prints the pick list on the office printer route (the protocol printer; the virtual PDF printer by default). */
  'demo.printPickList': { params: pickListParams, result: z.object({ jobId: z.number().int() }) },
  /**
   * Seeds the built-in sandbox's demo shipments again and forgets the station's cache of the demo
   * company (electron/auth/demoReset.ts). Only while the demo company is active; else `not_demo_account`.
   */
  'demo.reset': { params: z.object({}).strict(), result: z.object({ reset: z.literal(true) }) },
};
