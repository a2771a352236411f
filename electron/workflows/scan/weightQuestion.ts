/**
 * The weight check the scan lane waits on: at most one, as the lane runs one scan at a time; like
 * the weighing before it, later scans wait in line meanwhile. Only the answer is in memory: the
 * entry stays `resolved` with its weights in the journal until it is answered.
 */
import type { AskWeight, WeightAnswer } from '../../scale/weighBeforeClose';
import type { JournalEntry } from '../../store/journalRepo';
import type { ScanOutcome } from '../schemas';
import { shipmentInfo } from './outcomes';

type Question = { outcome: Extract<ScanOutcome, { kind: 'weight_check' }>; answer(a: WeightAnswer): void };

/** `show`: the question as the scan's outcome (the first one answers its submit); `stopped`: the lane is stopping, so it is not asked. */
export function createWeightQuestion(show: (entryId: number, o: ScanOutcome) => void, stopped: () => boolean) {
  let question: Question | null = null;
  return {
    /** The weight check of a scan, answered by `answer`. */
    ask(e: JournalEntry): AskWeight {
      return (s, off) =>
        new Promise<WeightAnswer>((resolve) => {
          const outcome = {
            scanId: e.scanId ?? 0,
            code: e.code ?? '',
            kind: 'weight_check' as const,
            shipment: shipmentInfo(s),
            packages: off,
          };
          question = {
            outcome,
            answer: (a) => {
              question = null;
              resolve(a);
            },
          };
          if (stopped()) return question.answer('closing');
          show(e.id, outcome);
        });
    },

    /** The worker's answer: accept (Enter) or hold (Esc). Null when no such question is open. */
    answer(scanId: number, accept: boolean): ScanOutcome | null {
      if (!question || question.outcome.scanId !== scanId) return null;
      const asked = question.outcome;
      question.answer(accept ? 'accept' : 'hold');
      return asked;
    },

    /** The weight check open now, for a page that (re)loads while it is asked. */
    current: (): ScanOutcome | null => question?.outcome ?? null,

    /** The lane stops: an open question lets it go; the entry stays `resolved`, asked again at the next start. */
    release(): void {
      question?.answer('closing');
    },
  };
}
