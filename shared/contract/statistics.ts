/**
 * Desk statistics in the RPC contract (the Statistics screen and its CSV): per day range and per
 * operator, what was closed, printed, reprinted (and why), refused and failed; parcels per hour;
 * and where the time went between the journal's steps, per carrier (electron/statistics/).
 */
import { z } from 'zod';
import { reprintReasons } from './operators';

/** Days longer than this are refused: the figures of a month are read in one go, a year is not. */
export const STATISTICS_MAX_DAYS = 31;

/** The shortest time from the first scan to the last close a rate (parcels an hour) is given for. */
export const STATISTICS_MIN_RATE_MINUTES = 15;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'A day is YYYY-MM-DD.');

/** Whole days since 1970 of a YYYY-MM-DD day (calendar arithmetic only, no time zone). */
function dayNumber(d: string): number {
  const [y, m, dd] = d.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, dd) / 86_400_000;
}

function realDay(d: string): boolean {
  const [y, m, dd] = d.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, dd));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === dd;
}

/** The station's local days `from` to `to`, both included, at most STATISTICS_MAX_DAYS of them. */
export const statisticsRange = z
  .object({ from: day, to: day })
  .strict()
  .superRefine((r, ctx) => {
    if (!realDay(r.from) || !realDay(r.to)) ctx.addIssue({ code: 'custom', message: 'No such day.' });
    else if (dayNumber(r.to) < dayNumber(r.from))
      ctx.addIssue({ code: 'custom', message: 'The range ends before it begins.' });
    else if (dayNumber(r.to) - dayNumber(r.from) + 1 > STATISTICS_MAX_DAYS)
      ctx.addIssue({ code: 'custom', message: `At most ${STATISTICS_MAX_DAYS} days at once.` });
  });
export type StatisticsRange = z.infer<typeof statisticsRange>;

/** Whose figures: one operator, nobody signed in, or everyone together. */
const statisticsScope = z.union([z.number().int().positive(), z.literal('nobody'), z.literal('everyone')]);
export type StatisticsScope = z.infer<typeof statisticsScope>;

const count = z.number().int().nonnegative();

const reprintCounts = z.object(
  Object.fromEntries(reprintReasons.map((r) => [r, count])) as Record<(typeof reprintReasons)[number], typeof count>,
);

/** The counts of one operator (or of nobody signed in, or of everyone). */
const operatorFigures = z.object({
  scope: statisticsScope,
  /** The operator's name (a removed operator's too); null for nobody and everyone. */
  name: z.string().nullable(),
  /** Parcels (shipments) the desk was asked to close (scans, batch and screen closes), each once a day. */
  parcels: count,
  /** Scans of a parcel closed before (for a reprint, or a double scan): not parcels of their own. */
  rescans: count,
  /** Parcels the service closed. */
  closed: count,
  /** Closed parcels whose every label job the printer confirmed (done). */
  printed: count,
  /** Package labels on the jobs the printer confirmed, times their copies (reprints' too). */
  labels: count,
  reprints: reprintCounts,
  /** Parcels put on the problem shelf (held instead of closed: nothing sent). */
  held: count,
  /** Closes the service or the carrier refused (rejected, closed elsewhere, cancelled). */
  refusals: count,
  /** Entries that ended in an error (no labels, a failure of the station). */
  errors: count,
  /**
   * Closed parcels per hour between the first scan and the last close; null when that is shorter
   * than STATISTICS_MIN_RATE_MINUTES (too little work to give a pace).
   */
  perHour: z.number().nonnegative().nullable(),
});
export type OperatorFigures = z.infer<typeof operatorFigures>;

/** The journal's steps a parcel's time is split into. */
export const statisticsSteps = ['scan_to_closed', 'closed_to_queued', 'queued_to_printed'] as const;
export type StatisticsStep = (typeof statisticsSteps)[number];

/** One step's times for a scope and carrier (null: every carrier), p50 and p95 by nearest rank, in ms. */
const stepFigures = z.object({
  scope: statisticsScope,
  carrier: z.string().nullable(),
  step: z.enum(statisticsSteps),
  count,
  p50Ms: z.number().nonnegative(),
  p95Ms: z.number().nonnegative(),
});
export type StepFigures = z.infer<typeof stepFigures>;

/** Parcels closed in one local hour of the day (0–23, summed over the range's days), per scope. */
const hourFigures = z.object({
  hour: z.number().int().min(0).max(23),
  closed: z.array(z.object({ scope: statisticsScope, closed: count })),
});
export type HourFigures = z.infer<typeof hourFigures>;

const statistics = z.object({
  from: day,
  to: day,
  operators: z.array(operatorFigures),
  total: operatorFigures,
  hours: z.array(hourFigures),
  steps: z.array(stepFigures),
});
export type Statistics = z.infer<typeof statistics>;

/** The CSV's columns: stable English keys (its first row); the page gives their names in its language (the second row). */
export const statisticsCsvColumns = [
  'section',
  'operator_id',
  'operator',
  'carrier',
  'hour',
  'step',
  'parcels',
  'rescans',
  'closed',
  'printed',
  'labels',
  'reprints_damaged',
  'reprints_lost',
  'reprints_wrong_printer',
  'reprints_other',
  'held',
  'refusals',
  'errors',
  'parcels_per_hour',
  'count',
  'p50_s',
  'p95_s',
] as const;
export type StatisticsCsvColumn = (typeof statisticsCsvColumns)[number];

const label = z.string().min(1).max(80);

export const statisticsMethods = {
  /** The figures of the range (local days of the station). */
  'statistics.get': { reads: true, params: statisticsRange, result: statistics },
  /**
   * The same figures as CSV text (UTF-8 with a BOM). `language` picks the number form (cs: decimal
   * comma and `;` between fields, as Czech Excel opens them); `labels` are the page's words for
   * the header row and for nobody / everyone / every carrier.
   */
  'statistics.csv': {
    params: z
      .object({
        range: statisticsRange,
        language: z.enum(['en', 'cs']),
        labels: z
          .object({
            columns: z
              .object(
                Object.fromEntries(statisticsCsvColumns.map((c) => [c, label])) as Record<
                  StatisticsCsvColumn,
                  typeof label
                >,
              )
              .strict(),
            nobody: label,
            everyone: label,
            everyCarrier: label,
          })
          .strict(),
      })
      .strict(),
    result: z.object({ csv: z.string(), fileName: z.string() }),
  },
};
