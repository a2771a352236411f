/**
 * Codes come from one registry (shared/errors/codes.ts) and the catalogue is keyed by it: what a
 * test at run time cannot see is checked by the compiler. Each `@ts-expect-error` below is a line
 * that must not compile; `npm run typecheck` (tsc over test/) fails when one of them does compile
 * (an unused `@ts-expect-error` is an error), so these are tests of the types.
 */
import { describe, expect, it } from 'vitest';
import { PrintError } from '../../../electron/printing/printerDriver';
import type { JournalEntry, JournalRepo } from '../../../electron/store/journalRepo';
import { errors, type ErrorSentences } from '../../../renderer/src/i18n/messages/errors';
import { reasons, type ReasonSentences } from '../../../renderer/src/i18n/messages/reasons';
import { workflowError, type WorkflowError } from '../../../shared/contract/workflows';
import type { NotSnakeCase } from '../../../shared/errors/codes';

describe('the code registry, checked at compile time', () => {
  it('refuses a catalogue without the English or Czech sentence of a translated code', () => {
    const { 'reason.paper_out': _paperOut, ...reasonsWithoutPaperOut } = reasons.cs;
    // @ts-expect-error: the Czech reasons lack `reason.paper_out`, a translated code of the registry.
    const incompleteReasons: ReasonSentences = reasonsWithoutPaperOut;
    const { 'error.account_invalid': _accountInvalid, ...errorsWithoutAccountInvalid } = errors.en;
    // @ts-expect-error: the English errors lack `error.account_invalid`.
    const incompleteErrors: ErrorSentences = errorsWithoutAccountInvalid;
    // The whole catalogues compile, in both languages.
    const complete: ReasonSentences[] = [reasons.en, reasons.cs];
    const completeErrors: ErrorSentences[] = [errors.en, errors.cs];
    expect(
      [incompleteReasons, incompleteErrors, ...complete, ...completeErrors].every((c) => typeof c === 'object'),
    ).toBe(true);
  });

  it('takes only registry codes where a code crosses the contract or lands in the journal', () => {
    // @ts-expect-error: the old spelling of `not_found` is no code.
    const dashed: WorkflowError = { code: 'not-found', message: 'x' };
    // @ts-expect-error: a printer reason must be one of the registry (`paper_out`).
    const printError = new PrintError('paper-out', 'x', 'not_sent');
    // @ts-expect-error: a journal entry ends with a registry outcome (`closed_elsewhere`).
    const ended: Pick<JournalEntry, 'outcome'> = { outcome: 'closed-elsewhere' };
    type NoteCode = Parameters<JournalRepo['note']>[3];
    // @ts-expect-error: a desk step's note is a registry code (`within_tolerance`).
    const note: NoteCode = 'within-tolerance';
    const whoseLabel: NoteCode = 'label_of_42';
    type WaitReason = Parameters<JournalRepo['wait']>[2]['reasonCode'];
    // @ts-expect-error: a waiting entry's reason is a registry code (`service_unreachable`).
    const waits: WaitReason = 'service-down';
    expect([dashed, printError, ended, note, whoseLabel, waits]).toHaveLength(6);
    // At run time too: the contract's schema refuses a code outside the registry.
    expect(workflowError.safeParse({ code: 'not-found', message: 'x' }).success).toBe(false);
    expect(workflowError.safeParse({ code: 'not_found', message: 'x' }).success).toBe(true);
    expect(workflowError.safeParse({ code: 'paper_out', message: 'x' }).success).toBe(true);
  });

  it('names every code in snake_case', () => {
    // The check behind the registry's `everyCodeSnakeCase`: these would be named as the offenders.
    const dotted: NotSnakeCase<'account.invalid'> = 'account.invalid';
    const dashed: NotSnakeCase<'login-required'> = 'login-required';
    // @ts-expect-error: a snake_case code is no offender.
    const fine: NotSnakeCase<'account_invalid'> = 'account_invalid';
    expect([dotted, dashed, fine]).toHaveLength(3);
  });
});
