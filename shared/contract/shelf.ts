/**
 * The problem shelf in the RPC contract: a parcel the worker cannot send as it is (an item missing,
 * the parcel damaged, a wrong address, something else in their words) is held instead of closed. A
 * hold sends nothing to the service; it is kept in the station's database with who held it, where
 * and why, until the parcel is scanned again and closed, or a supervisor releases it.
 */
import { z } from 'zod';
import { operatorSummary } from './operators';

/** Why a parcel is held (one key each at the question, a command barcode each): `other` carries the worker's words. */
export const holdReasons = ['missing_item', 'damaged', 'wrong_address', 'other'] as const;
const holdReason = z.enum(holdReasons);
export type HoldReason = z.infer<typeof holdReason>;

/** The longest text the "other" reason keeps: a short note, not a report. */
export const HOLD_NOTE_MAX = 200;

const holdWhy = z
  .object({
    code: holdReason,
    /** Only for `other` (required there); ignored for the listed reasons. */
    note: z.string().trim().max(HOLD_NOTE_MAX, `A reason is at most ${HOLD_NOTE_MAX} characters.`).optional(),
  })
  .strict()
  .refine((w) => w.code !== 'other' || !!w.note, {
    message: 'Say in a few words why the parcel is held.',
    path: ['note'],
  });
export type HoldWhy = z.infer<typeof holdWhy>;

/** A parcel on the shelf, as its screen lists it. */
export const heldParcel = z.object({
  holdId: z.number().int().positive(),
  /** The code it was held by, as the scan read it. */
  code: z.string(),
  /** The cached shipment the code named when it was held; null: not in the cache (scan it again to find it). */
  deliveryId: z.number().int().nullable(),
  recipientName: z.string().nullable(),
  carrier: z.string().nullable(),
  reason: holdReason,
  note: z.string().nullable(),
  heldAt: z.string(),
  desk: z.string(),
  /** Null: nobody was signed in. */
  heldBy: operatorSummary.nullable(),
});
export type HeldParcel = z.infer<typeof heldParcel>;

/** Why a parcel left the shelf: closed (scanned again, or closed elsewhere on this station), or released by a supervisor. */
export type HoldEnd = 'closed' | 'released';

const none = z.object({}).strict();
const holdId = z.number().int().positive();

export const shelfMethods = {
  /** The parcels on the shelf of the active company, oldest first. */
  'shelf.list': { reads: true, params: none, result: z.object({ parcels: z.array(heldParcel) }) },
  /**
   * Holds a scanned parcel instead of closing it: nothing goes to the service. Stored before it is
   * answered. Its scans still waiting in line (for the service, a login) end held with it; refused
   * when its close is already on its way (or done), when it is on the shelf already, or when the code
   * is a desk code.
   */
  'shelf.hold': {
    work: true,
    params: z.object({ code: z.string().min(1).max(400), why: holdWhy }).strict(),
    result: z.object({ parcel: heldParcel }),
  },
  /**
   * A supervisor (an operator marked as one, signed in) takes a parcel off the shelf without closing
   * it; refused for anyone else. The rest of the shelf comes back.
   */
  'shelf.release': {
    work: true,
    params: z.object({ holdId }).strict(),
    result: z.object({ parcels: z.array(heldParcel) }),
  },
  /**
   * Enter on the question a scan of a held parcel asks: its shipment goes through the scan lane as a
   * new scan of it (weighed, closed, printed); once closed it leaves the shelf. Its outcome comes as
   * the `scan.outcome` of the `scanId` answered. Null when the parcel is no longer on the shelf.
   */
  'shelf.close': {
    work: true,
    params: z.object({ holdId }).strict(),
    result: z.object({ scanId: z.number().int() }).nullable(),
  },
};

export const shelfEvents = {
  /** The shelf changed (a hold, a close, a release): pages follow its count and list. */
  'shelf.changed': z.object({ count: z.number().int().nonnegative() }),
};
