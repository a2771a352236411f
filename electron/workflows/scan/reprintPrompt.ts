/**
 * The already-closed prompt: a scan of a parcel closed before asks the worker to reprint its
 * labels (Enter) or skip it (Esc). Its labels are at hand before the worker answers (fetched now
 * when another station closed it), so Enter prints at once; the reprint is a journal entry of its
 * own, refused while a label of the parcel is still in the printer.
 */
import { heldForWorker } from '../../../shared/contract/printing';
import type { ReprintWhy } from '../../../shared/contract/reprint';
import type { Shipment } from '../../../shared/contract/shipments';
import type { CloseAndPrint } from '../closeAndPrint';
import { fetchLabelJobs, storedLabelJobs } from '../labelJobs';
import { createPackageReprint } from '../packageReprint';
import { recordReprint } from '../reprintRecord';
import type { ScanOutcome } from '../schemas';
import { labelsInPrinter, type WorkflowDeps, type WorkflowSession } from '../workflowDeps';
import type { ReportLabels } from './labelOutcome';
import { shipmentInfo, type FinishOutcome } from './outcomes';

export function createReprintPrompt(
  deps: WorkflowDeps,
  o: { engine: CloseAndPrint; report: ReportLabels; finish: FinishOutcome },
) {
  const journal = deps.repos.journal;
  const now = () => deps.clock.now();
  /** already-closed scans waiting for the worker's Enter (reprint) or Esc (skip). */
  const awaiting = new Map<number, { deliveryId: number; code: string }>();
  const reprintPackage = createPackageReprint(deps);

  return {
    /** A scan of a closed shipment: the worker is asked, its labels made ready for Enter. */
    async ask(scanId: number, code: string, session: WorkflowSession, s: Shipment): Promise<ScanOutcome> {
      // A label held for the worker (found closed, maybe another desk's close) is no label of this desk's.
      const closedElsewhere =
        !journal.closedHere(session.accountId, s.deliveryId) &&
        journal.jobIdsOfShipment(session.accountId, s.deliveryId).every((id) => heldForWorker(deps.queue.get(id)));
      let labelsAvailable = storedLabelJobs(deps.repos.labels, deps.routes(), session.accountId, s) !== null;
      if (!labelsAvailable) {
        // Closed by another station: fetch its labels now (stored, not printed) so Enter reprints at once.
        const lj = await fetchLabelJobs({ session, labels: deps.repos.labels, rules: deps.routes(), now }, [s]);
        labelsAvailable = lj.failures.length === 0 && lj.prints.length > 0;
      }
      awaiting.set(scanId, { deliveryId: s.deliveryId, code });
      return { scanId, code, kind: 'already_closed', shipment: shipmentInfo(s), closedElsewhere, labelsAvailable };
    },

    /**
     * The worker confirmed the reprint of an already-closed shipment (Enter) and said why. Prints the
     * stored labels, or fetches them; the reason is recorded once the labels are queued again. With
     * `packageNumber`, that package's label alone (../packageReprint.ts).
     */
    reprint(req: {
      deliveryId: number;
      scanId?: number;
      why: ReprintWhy;
      packageNumber?: number;
    }): Promise<ScanOutcome> {
      const session = deps.session();
      const asked = req.scanId !== undefined ? awaiting.get(req.scanId) : undefined;
      const code = asked?.code ?? String(req.deliveryId);
      const scanId =
        asked && req.scanId !== undefined
          ? req.scanId
          : deps.repos.scanLog.record({
              accountId: session?.accountId ?? '',
              code,
              scannedAt: now(),
              deliveryId: req.deliveryId,
            });
      if (req.scanId !== undefined) awaiting.delete(req.scanId);
      const run = async (): Promise<ScanOutcome> => {
        const s = session ? deps.repos.shipments.get(session.accountId, req.deliveryId) : null;
        if (!session)
          return {
            scanId,
            code,
            kind: 'login_required',
            message: 'The station is not logged in to the service. Log in, then reprint.',
          };
        if (!s)
          return {
            scanId,
            code,
            kind: 'not_found',
            message: `Shipment ${req.deliveryId} is not in this station's cache.`,
            serviceChecked: false,
          };
        if (req.packageNumber !== undefined) {
          const one = await reprintPackage({
            session,
            shipment: s,
            packageNumber: req.packageNumber,
            why: req.why,
            scan: { scanId, code },
          });
          return one.kind === 'queued'
            ? o.report(scanId, code, s, [one.job], true)
            : { scanId, code, kind: 'error', error: one.error };
        }
        const busy = labelsInPrinter(deps, session.accountId, s.deliveryId);
        if (busy) return { scanId, code, kind: 'error', error: busy };
        const [entry] = journal.begin(
          [{ accountId: session.accountId, source: 'reprint', scanId, code, deliveryId: s.deliveryId, want: 'print' }],
          now(),
        );
        const r = (await o.engine.run(session, [entry!])).get(entry!.id)!;
        if (r.kind === 'queued') {
          recordReprint(deps.repos.deskActions, req.why, now(), {
            accountId: session.accountId,
            deliveryId: s.deliveryId,
            entryId: entry!.id,
            jobId: r.jobs[0]?.id ?? null,
          });
          return o.report(scanId, code, r.shipment, r.jobs, true);
        }
        if (r.kind === 'waiting') {
          o.engine.end(entry!, 'error', r.trouble.error); // a reprint is the worker's act of now, not a wait
          return r.trouble.kind === 'login'
            ? { scanId, code, kind: 'login_required', message: r.trouble.error.message }
            : { scanId, code, kind: 'error', error: r.trouble.error };
        }
        if (r.kind === 'not_printed' || r.kind === 'missing') return { scanId, code, kind: 'error', error: r.error };
        return {
          scanId,
          code,
          kind: 'error',
          error: { code: 'reprint_refused', message: `Shipment ${req.deliveryId} could not be reprinted.` },
        };
      };
      return run()
        .catch((err: unknown): ScanOutcome => ({
          scanId,
          code,
          kind: 'error',
          error: { code: 'internal', message: err instanceof Error ? err.message : String(err) },
        }))
        .then(o.finish);
    },

    /** The worker declined the reprint (Esc). */
    skip(scanId: number): ScanOutcome | null {
      const asked = awaiting.get(scanId);
      if (!asked) return null;
      awaiting.delete(scanId);
      // The worker's word on the parcel: a label of it held for that word is not wanted either.
      const session = deps.session();
      if (session)
        for (const id of journal.jobIdsOfShipment(session.accountId, asked.deliveryId))
          if (heldForWorker(deps.queue.get(id))) deps.queue.cancel(id);
      return o.finish({ scanId, code: asked.code, kind: 'skipped', deliveryId: asked.deliveryId });
    },
  };
}
