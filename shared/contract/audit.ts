/**
 * The audit trail of a parcel: every step the station took with it, when, at which desk and by whom
 * (journal entries and their steps, weights, print jobs and their outcomes, desk actions), read from
 * the store (electron/store/auditTrailRepo.ts). The Shipments screen's detail shows one parcel's;
 * `shipments.trailCsv` writes the steps of a date range for payroll or a dispute.
 */
import { z } from 'zod';
import { journalOutcomes } from '../errors/codes';
import { operatorSummary } from './operators';
import { jobState } from './printing';

/**
 * A step of the trail. `scanned`: a scan at the desk (with the code as scanned); `print_asked`: a
 * close or print asked from elsewhere (Shipments, batch, New shipment, the queue's reprint: `source`);
 * `weight_taken`: one package's weight; `weight_corrected` / `weight_within_tolerance` /
 * `weight_not_sent`: what the weights did at the service; `label_queued`: the labels, fetched or kept,
 * handed to the print queue (the journal's `queued`); `print`: a print job's outcome at its printer
 * (one row per outcome in its history); `reprint`, `job_cancelled`, `job_retried`, `job_moved`, `job_marked_printed`, `parcel_cancelled`, `shipment_cancelled`:
 * what a person did (desk actions); `parcel_held` (its reason as `reasonCode`, the worker's words as
 * `note`) and `hold_ended` (`closed` or `released`): the problem shelf; `ended`: an entry that ended without its labels (`outcome`); a
 * scan of a parcel closed before ends `already_closed` with what came of it as `reasonCode`
 * (`reprinted`, `skipped`, `unanswered`).
 */
const trailSteps = [
  'scanned',
  'print_asked',
  'weight_taken',
  'weight_asked',
  'weight_accepted',
  'weight_corrected',
  'weight_within_tolerance',
  'weight_not_sent',
  'close_requested',
  'closed',
  'label_queued',
  'print',
  'reprint',
  'label_verified',
  'label_mismatch',
  'job_cancelled',
  'job_retried',
  'job_moved',
  'job_marked_printed',
  'parcel_cancelled',
  'shipment_cancelled',
  'parcel_held',
  'hold_ended',
  'ended',
] as const;
const trailStepKind = z.enum(trailSteps);
export type TrailStepKind = z.infer<typeof trailStepKind>;

const trailSources = ['scan', 'batch', 'shipments', 'new_shipment', 'reprint'] as const;
const weightSources = ['scale', 'skipped', 'timeout'] as const;

const trailStep = z.object({
  /** ISO time of the step. */
  at: z.string(),
  step: trailStepKind,
  /** The desk's name; null: the step was recorded before desks had names. */
  desk: z.string().nullable(),
  /** Who did it (a journal entry's steps are the operator's who began it); null: nobody was signed in. */
  operator: operatorSummary.nullable(),
  deliveryId: z.number().int().nullable(),
  /** The code as scanned (the scanner's own characters when they differ from the normalised code). */
  code: z.string().nullable(),
  source: z.enum(trailSources).nullable(),
  jobId: z.number().int().nullable(),
  printerId: z.string().nullable(),
  /** The printer's name as set up (null: the printer was removed since). */
  printer: z.string().nullable(),
  /** A print's state, an ended entry's outcome, a weight's source. */
  outcome: z.union([jobState, z.enum(journalOutcomes), z.enum(weightSources)]).nullable(),
  /** A reprint's reason (reprintReasons), a job's reason code, `label_of_<deliveryId>` for a mismatch. */
  reasonCode: z.string().nullable(),
  /** The worker's own words (a reprint for "other"), or the station's sentence for a reason. */
  note: z.string().nullable(),
  /** weight_taken: the package (1-based) and its kilograms (exact decimal; null when skipped). */
  packageNumber: z.number().int().nullable(),
  kg: z.string().nullable(),
});
export type TrailStep = z.infer<typeof trailStep>;

/** The longest range one export covers (a month and a day's slack). */
export const TRAIL_CSV_MAX_DAYS = 31;

const isoInstant = z.iso.datetime({ offset: true });

const trailCsvParams = z
  .object({
    /** The first instant (inclusive) and the end (exclusive): the page's local midnights, as ISO. */
    from: isoInstant,
    to: isoInstant,
    /** The page's time zone (IANA), in which the CSV writes dates and times. */
    timeZone: z.string().min(1).max(64),
    /** The page's language: the CSV's separator and decimal mark, as the statistics' CSV (cs: `;` and a decimal comma). */
    language: z.enum(['en', 'cs']),
  })
  .strict()
  .refine((p) => Date.parse(p.to) > Date.parse(p.from), { message: 'the range ends before it begins', path: ['to'] })
  .refine((p) => Date.parse(p.to) - Date.parse(p.from) <= TRAIL_CSV_MAX_DAYS * 86_400_000 + 3_600_000, {
    // An hour's slack: a range of whole local days over a daylight-saving change is 31 days and an hour.
    message: `at most ${TRAIL_CSV_MAX_DAYS} days`,
    path: ['to'],
  })
  .refine((p) => isTimeZone(p.timeZone), { message: 'not a time zone', path: ['timeZone'] });

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const auditMethods = {
  /** One parcel's trail (the active account's), oldest step first. */
  'shipments.trail': {
    reads: true,
    params: z.object({ deliveryId: z.number().int().positive() }).strict(),
    result: z.array(trailStep),
  },
  /** The trail of every parcel of the active account in a range, one CSV row per step (UTF-8 with BOM). */
  'shipments.trailCsv': {
    params: trailCsvParams,
    result: z.object({ csv: z.string(), rows: z.number().int(), fileName: z.string() }),
  },
};
