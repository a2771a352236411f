/**
 * Retention in the RPC contract: how long the desk keeps label bytes and its history
 * (Settings → Data kept), and what the Status screen says about the data folder.
 */
import { z } from 'zod';

/** 0 keeps forever; otherwise whole days, from a week (a reprint of last week's labels works offline) to ten years. */
const days = (min: number) =>
  z
    .number()
    .int()
    .min(0)
    .max(3650)
    .refine((d) => d === 0 || d >= min, { message: `0 (keep forever) or at least ${min} days` });

export const retentionSettings = z
  .object({
    /** Label bytes of printed jobs, kept labels, the camera's photos and finished shipments in the cache. */
    labelsDays: days(7),
    /** The journal, the scan log, finished print jobs and desk actions. */
    historyDays: days(30),
  })
  .strict();
export type RetentionSettings = z.infer<typeof retentionSettings>;

export const defaultRetentionSettings: RetentionSettings = { labelsDays: 90, historyDays: 400 };

const retentionStatus = z.object({
  settings: retentionSettings,
  /** Bytes of every file under the data folder (the database, its WAL, logs, the sandbox's data). */
  dataFolderBytes: z.number().int().nonnegative(),
  /** The camera's photos among them (proof of packing). */
  photos: z.object({ count: z.number().int().nonnegative(), bytes: z.number().int().nonnegative() }),
  /** The last finished run: when, and how many rows it removed or emptied. */
  lastRun: z.object({ finishedAt: z.string(), removed: z.number().int().nonnegative() }).nullable(),
});
export type RetentionStatus = z.infer<typeof retentionStatus>;

export const retentionMethods = {
  'retention.get': { reads: true, params: z.object({}).strict(), result: retentionStatus },
  'retention.set': { params: retentionSettings, result: retentionSettings },
};
