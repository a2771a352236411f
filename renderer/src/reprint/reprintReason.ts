/**
 * The reprint question: every reprint (the already-closed question, the Shipments screen, the print
 * queue, the reprint-last command) asks why before anything prints. One question at a time, shown by
 * <ReprintReasonDialog/> (mounted once in App); the answer is the `why` the core records with the
 * operator. Null: the worker pressed Esc, and nothing is printed.
 *
 * Asked about a parcel of several packages, the question also offers its labels one by one (a lost
 * label of package 2/3): the answer then names the package, or none for every label.
 */
import { create } from 'zustand';
import type { ReprintWhy } from '../../../shared/contract/reprint';

export interface ReprintAnswer {
  why: ReprintWhy;
  /** One package's label alone (1-based); absent, every label. */
  packageNumber?: number;
}

interface Asking {
  /** A new question each time (the dialog is a new one, its keys fresh). */
  id: number;
  /** What is printed again, as the question names it (a shipment's code, a job). */
  subject: string;
  /** The parcel's packages when it has several (the question offers each label); 1 otherwise. */
  packages: number;
  answer(a: ReprintAnswer | null): void;
}

let asked = 0;
export const useReprintQuestion = create<{ asking: Asking | null }>(() => ({ asking: null }));

/** Asks why (and, for a parcel of several packages, which labels); resolves with the answer, or null when cancelled. */
export function askReprint(subject: string, packages = 1): Promise<ReprintAnswer | null> {
  // A question already open is cancelled: the newer reprint is the one the worker is looking at.
  useReprintQuestion.getState().asking?.answer(null);
  return new Promise((resolve) => {
    const asking: Asking = {
      id: ++asked,
      subject,
      packages,
      answer(a) {
        if (useReprintQuestion.getState().asking === asking) useReprintQuestion.setState({ asking: null });
        resolve(a);
      },
    };
    useReprintQuestion.setState({ asking });
  });
}

/** Asks the worker why (the dialog); resolves with the reason, or null when they cancelled. */
export function askReprintReason(subject: string): Promise<ReprintWhy | null> {
  return askReprint(subject).then((a) => a?.why ?? null);
}
