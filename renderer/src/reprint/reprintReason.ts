/**
 * The reprint question: every reprint (the already-closed question, the Shipments screen, the print
 * queue, the reprint-last command) asks why before anything prints. One question at a time, shown by
 * <ReprintReasonDialog/> (mounted once in App); the answer is the `why` the core records with the
 * operator. Null: the worker pressed Esc, and nothing is printed.
 */
import { create } from 'zustand';
import type { ReprintWhy } from '../../../shared/contract/reprint';

interface Asking {
  /** A new question each time (the dialog is a new one, its keys fresh). */
  id: number;
  /** What is printed again, as the question names it (a shipment's code, a job). */
  subject: string;
  answer(why: ReprintWhy | null): void;
}

let asked = 0;
export const useReprintQuestion = create<{ asking: Asking | null }>(() => ({ asking: null }));

/** Asks the worker why (the dialog); resolves with the reason, or null when they cancelled. */
export function askReprintReason(subject: string): Promise<ReprintWhy | null> {
  // A question already open is cancelled: the newer reprint is the one the worker is looking at.
  useReprintQuestion.getState().asking?.answer(null);
  return new Promise((resolve) => {
    const asking: Asking = {
      id: ++asked,
      subject,
      answer(why) {
        if (useReprintQuestion.getState().asking === asking) useReprintQuestion.setState({ asking: null });
        resolve(why);
      },
    };
    useReprintQuestion.setState({ asking });
  });
}
