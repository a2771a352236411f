/**
 * A printer's test print as it really goes: the job is followed by the `printing.jobs` changes
 * (as the Print queue screen follows them, state/followJobs.ts), and each change naming it reads
 * the whole job again, because "failed, tried again by itself when the printer is back"
 * (waitsForPrinter) and "failed for good" are one state in a change and two things to the worker.
 *
 * A test label that still waits is the one a press would add to: a second press while it waits
 * says so and queues nothing, or the worker who retries gets a pile of test labels when the
 * printer returns.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { waitsForPrinter, type JobView } from '../../../../shared/contract/printing';
import type { MainError } from '../../i18n/errors';
import { rpc } from '../../rpc/transport';

/** What the screen says of the test label. */
export type TestPrintShown = 'waiting' | 'working' | 'out' | 'failed';

export function shownOf(j: JobView): TestPrintShown {
  // Spooled: the print system has it and says no more (a PDF printer's last word).
  if (j.state === 'done' || j.state === 'spooled') return 'out';
  if (stillWaits(j)) return waitsForPrinter(j) ? 'waiting' : 'working';
  return 'failed';
}

/** Not out yet and not given up: queued, on its way, or failed with a try of its own to come. */
function stillWaits(j: JobView): boolean {
  return j.state === 'queued' || j.state === 'sending' || j.state === 'sent' || waitsForPrinter(j);
}

const isTestOf = (printerId: string) => (j: JobView) =>
  j.document.kind === 'testPrint' && j.document.printerId === printerId;

export function useTestPrint(printerId: string, language: () => 'en' | 'cs') {
  const [job, setJob] = useState<JobView | null>(null);
  /** A press that found a test label already waiting (its id), until the next press. */
  const [already, setAlready] = useState<number | null>(null);
  const [error, setError] = useState<MainError | null>(null);
  const mine = useRef<number | null>(null);

  const read = useCallback(async (id: number) => {
    const r = await rpc.request('printing.queue.follow', { ids: [id], limit: 1 });
    const j = r.ok ? r.value.jobs[0] : undefined;
    if (j && mine.current === j.id) setJob(j);
  }, []);

  const show = useCallback((j: JobView) => {
    mine.current = j.id;
    setJob(j);
  }, []);

  // A test label still waiting from before (this page reloaded, another visit) is shown, not forgotten.
  useEffect(() => {
    let live = true;
    void rpc
      .request('printing.queue.list', { states: ['queued', 'sending', 'sent', 'failed'], limit: 500 })
      .then((r) => {
        const waiting = r.ok ? r.value.filter((j) => isTestOf(printerId)(j) && stillWaits(j)) : [];
        if (live && waiting.length && mine.current === null) show(waiting.sort((a, b) => b.id - a.id)[0]!);
      });
    return () => {
      live = false;
    };
  }, [printerId, show]);

  useEffect(
    () =>
      rpc.on('printing.jobs', (c) => {
        const j = c.jobs.find((x) => x.id === mine.current);
        if (j) void read(j.id);
      }),
    [read],
  );

  const press = useCallback(async () => {
    setError(null);
    setAlready(null);
    if (job && stillWaits(job)) return setAlready(job.id);
    // The label in the language the worker reads here.
    const r = await rpc.request('printing.printers.testPrint', { printerId, language: language() });
    if (!r.ok) return setError(r.error);
    show(r.value);
    void read(r.value.id);
  }, [job, printerId, language, read, show]);

  // Said only while that label still waits: once it is out, "already waiting" is no longer true.
  const stillAlready = already !== null && job?.id === already && stillWaits(job) ? already : null;
  return { job, shown: job ? shownOf(job) : null, already: stillAlready, error, press };
}
