/**
 * Why a label is printed again: every reprint (the already-closed question, the Shipments screen,
 * the print queue, the reprint-last command) carries the worker's reason, one key each at the
 * question (shared/contract/operators.ts `reprintReasons`); `other` carries the worker's own words.
 * The core records it with the operator in desk_actions (`reprint`), where the statistics count it.
 */
import { z } from 'zod';
import { reprintReason } from './operators';

/** The longest text the "other" reason keeps: a short note, not a report. */
export const REPRINT_NOTE_MAX = 200;

export const reprintWhy = z
  .object({
    code: reprintReason,
    /** Only for `other` (required there); ignored for the listed reasons. */
    note: z.string().trim().max(REPRINT_NOTE_MAX, `A reason is at most ${REPRINT_NOTE_MAX} characters.`).optional(),
  })
  .strict()
  .refine((w) => w.code !== 'other' || !!w.note, {
    message: 'Say in a few words why the label is printed again.',
    path: ['note'],
  });
export type ReprintWhy = z.infer<typeof reprintWhy>;

/** The most packages one parcel's label question offers one by one (New shipment allows 30; the service's own may hold more). */
const MAX_PACKAGES_OF_PARCEL = 99;

/**
 * One package of a multi-package parcel, 1-based in the shipment's order: a reprint that names it
 * prints that package's label alone (a lost label of package 2/3), never the others'.
 */
export const packageNumber = z.number().int().min(1).max(MAX_PACKAGES_OF_PARCEL);
