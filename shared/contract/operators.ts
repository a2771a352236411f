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
 * reason, a print job cancelled or sent again, the parcel in progress cancelled.
 */
export const deskActions = [
  'sign_in',
  'sign_out',
  'sign_in_refused',
  'reprint',
  'job_cancelled',
  'job_retried',
  'parcel_cancelled',
] as const;
export const deskAction = z.enum(deskActions);
export type DeskAction = z.infer<typeof deskAction>;

/** Why a label is printed again (one key each at the reprint question); `other` carries the worker's text. */
export const reprintReasons = ['damaged', 'lost', 'wrong_printer', 'other'] as const;
export const reprintReason = z.enum(reprintReasons);
export type ReprintReason = z.infer<typeof reprintReason>;

export const operatorMethods = {};
