/**
 * Operators in the RPC contract: who is signed in at the desk, the desk's name, and what a person
 * did to something that already existed (desk actions) — the vocabulary the journal, the audit
 * trail and the statistics share. Methods are added by the operators' part of the core.
 */
import { z } from 'zod';

/** A worker as the screen sees them: never a PIN or its hash. */
export const operatorSummary = z.object({ id: z.number().int().positive(), name: z.string() });
export type OperatorSummary = z.infer<typeof operatorSummary>;

/** Who works at this desk now. */
export const deskWho = z.object({ desk: z.string(), operator: operatorSummary.nullable() });
export type DeskWho = z.infer<typeof deskWho>;

/**
 * What a person did, recorded with the operator and the desk (store/deskActionsRepo.ts): sign-in and
 * sign-out (by badge, PIN, command barcode, idle time), a refused badge or PIN, a reprint with its
 * reason, a print job cancelled, sent again, moved to another printer or confirmed as printed ("it
 * printed"), the parcel in progress cancelled (its waiting labels), a shipment cancelled at the service,
 * a parcel put on the problem shelf (its reason and words) and its leaving it (`closed` or `released`).
 */
export const deskActions = [
  'sign_in',
  'sign_out',
  'sign_in_refused',
  'reprint',
  'job_cancelled',
  'job_retried',
  'job_moved',
  'job_marked_printed',
  'parcel_cancelled',
  'shipment_cancelled',
  'parcel_held',
  'hold_ended',
] as const;
export const deskAction = z.enum(deskActions);
export type DeskAction = z.infer<typeof deskAction>;
/** The print queue's buttons a person presses on a job (recorded by electron/audit/jobActions.ts). */
export type JobAction = Extract<DeskAction, 'job_cancelled' | 'job_retried' | 'job_moved' | 'job_marked_printed'>;

/** Why a label is printed again (one key each at the reprint question); `other` carries the worker's text. */
export const reprintReasons = ['damaged', 'lost', 'wrong_printer', 'other'] as const;
export const reprintReason = z.enum(reprintReasons);
export type ReprintReason = z.infer<typeof reprintReason>;

/**
 * A PIN: 4 to 8 digits. Checked here, in the core's validation of every call; the core keeps only
 * its salted hash (electron/operators/pinHash.ts) and never sends the PIN or the hash anywhere.
 */
export const operatorPin = z.string().regex(/^\d{4,8}$/, 'A PIN is 4 to 8 digits.');

/** A badge: the code its barcode holds, as the desk's scanner reads it (its prefix and suffix removed in the core). */
const badgeCode = z.string().trim().min(1).max(200);

/** A registered worker as Settings lists them: the badge is an identifier, not a secret; of the PIN only whether there is one. */
export const operatorView = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  badge: z.string().nullable(),
  hasPin: z.boolean(),
  /** May release parcels from the problem shelf. */
  supervisor: z.boolean(),
});
export type OperatorView = z.infer<typeof operatorView>;

/**
 * Adds a worker (no id) or changes one. `pin`: a new PIN; null removes it; absent keeps it.
 * A worker needs a badge or a PIN (or both) to be able to sign in.
 */
export const operatorSave = z
  .object({
    id: z.number().int().positive().optional(),
    name: z.string().trim().min(1).max(80),
    badge: badgeCode.nullable(),
    pin: operatorPin.nullable().optional(),
    /** Absent: unchanged (a new worker: not a supervisor). */
    supervisor: z.boolean().optional(),
  })
  .strict();
export type OperatorSave = z.infer<typeof operatorSave>;

/** How a sign-in or sign-out happened: the `reason_code` of its desk action. */
export const signWays = ['badge', 'pin', 'command', 'idle', 'manual', 'removed'] as const;
export type SignWay = (typeof signWays)[number];

const none = z.object({}).strict();

export const operatorMethods = {
  /** Who is signed in at this desk, and the desk's name. */
  'operators.who': { reads: true, params: none, result: deskWho },
  /** The registered workers (removed ones are kept for the history, not listed). */
  'operators.list': { reads: true, params: none, result: z.array(operatorView) },
  'operators.save': { params: operatorSave, result: operatorView },
  /** Removes a worker: they can no longer sign in; their name stays on what they did. */
  'operators.remove': { params: z.object({ id: z.number().int().positive() }).strict(), result: z.array(operatorView) },
  /**
   * A badge scanned at the desk (as the scanner typed it): signs its worker in, switching from
   * whoever was signed in; the signed-in worker's own badge signs them out. An unknown badge is
   * refused and signs nobody out.
   */
  'operators.signInBadge': { params: z.object({ code: z.string().min(1).max(400) }).strict(), result: deskWho },
  /** A worker chosen by name with their PIN. Repeated wrong PINs make that worker wait. */
  'operators.signInPin': {
    params: z.object({ operatorId: z.number().int().positive(), pin: operatorPin }).strict(),
    result: deskWho,
  },
  /**
   * Signs out whoever is signed in: the top bar's button (`{}`, recorded as `manual`), the sign-out
   * command barcode (`{ way: 'command' }`).
   */
  'operators.signOut': {
    params: z.object({ way: z.enum(['manual', 'command']).optional() }).strict(),
    result: deskWho,
  },
};

export const operatorEvents = {
  /** Someone signed in or out, or the desk's name changed: every open page's top bar follows. */
  'operators.changed': deskWho,
  /** The registered workers changed (Settings on another page, the badges the pages recognise). */
  'operators.listChanged': z.array(operatorView),
};
