/**
 * Batch mode (issue 7 item 3): scan many, then close them all. The client sends one close per
 * carrier + collection place (spec "PATCH /api/v3/deliveries", "Limits"), labels are fetched per
 * carrier (one request each) and printed per carrier, and the summary says per shipment what
 * closed, what printed, and what failed and why. Shipments that did not close stay in the batch,
 * so the worker can fix them and close again.
 */
import type { ScanOutcome, Shipment } from '../../shared/contract/shipments';
import { shipmentStates } from '../../shared/contract/shipments';
import { StationError } from '../stationError';
import { toSummary } from '../store/shipmentsRepo';
import { closeShipments, isClosedState, type ShipmentCloseResult } from './closeShipments';
import { fetchLabelJobs } from './labelJobs';
import { createScanLine } from './scanLine';
import type { BatchItem, BatchShipmentResult, BatchSummary, WorkflowError } from './schemas';
import type { WorkflowDeps } from './workflowDeps';

export interface BatchCloseOptions {
  /** How long closeAll waits for the labels to leave the printers before reporting them queued (default 15 s). */
  printWaitMs?: number;
  onItems?(items: BatchItem[]): void;
}

const placeOf = (s: Shipment) => (s.sender.type === 'collectionPlace' ? s.sender.collectionPlace ?? s.collectionPlace : null);

function itemFor(code: string, s: Shipment): BatchItem {
  const status = s.state === shipmentStates.prepared ? 'ready' : s.state === shipmentStates.cancelled ? 'cancelled' : isClosedState(s.state) ? 'closed' : 'invalid';
  const message =
    status === 'cancelled' ? `Shipment ${s.deliveryId} is cancelled.` : status === 'closed' ? `Shipment ${s.deliveryId} is already closed.` : status === 'invalid' ? `Shipment ${s.deliveryId} is in state ${s.state}.` : null;
  return { code, deliveryId: s.deliveryId, carrier: s.agent, collectionPlace: placeOf(s), recipientName: toSummary(s).recipientName, status, message };
}

function errorOf(r: ShipmentCloseResult | undefined): WorkflowError {
  if (!r) return { code: 'close_no_answer', message: 'The close gave no result for this shipment.' };
  switch (r.kind) {
    case 'closed':
      return { code: 'closed', message: '' };
    case 'closed-elsewhere':
      return { code: 'closed_elsewhere', message: `Shipment ${r.shipment.deliveryId} was closed elsewhere meanwhile; reprint its labels from the scan screen if needed.` };
    case 'cancelled':
      return { code: 'cancelled', message: `Shipment ${r.shipment.deliveryId} was cancelled meanwhile.` };
    case 'rejected':
      return { code: 'carrier_rejected', message: [r.message, ...r.messages].join(' | ') };
    case 'unreachable':
    case 'login':
      return r.trouble.error;
  }
}

export function createBatchClose(deps: WorkflowDeps, opts: BatchCloseOptions = {}) {
  const printWaitMs = opts.printWaitMs ?? 15_000;
  let items: BatchItem[] = [];
  /** Each collected code's scan log row, updated with what closing did. */
  const scanIds = new Map<string, number>();
  const line = createScanLine(() => undefined);
  let closing = false;
  const changed = () => opts.onItems?.(items.map((i) => ({ ...i })));

  function session() {
    const s = deps.session();
    if (!s) throw new StationError('login_required', 'The station is not logged in to the service. Log in, then close the batch.');
    return s;
  }

  return {
    /** Adds one scanned code (cache first, then the service). A shipment scanned twice is listed once. */
    collect(raw: string): Promise<BatchItem> {
      const code = raw.trim();
      return line.add({ scanId: 0, code, receivedAt: deps.clock.now().toISOString() }, async () => {
        const found = await deps.lookup(code);
        let item: BatchItem;
        if (found.kind === 'found') {
          const existing = items.find((i) => i.deliveryId === found.shipment.deliveryId);
          if (existing) return existing;
          item = itemFor(found.code, found.shipment);
        } else {
          const message =
            found.kind === 'invalid' ? found.message
            : found.kind === 'ambiguous' ? `The code ${found.code} matches ${found.candidates.length} shipments; scan another code of the parcel.`
            : found.serviceChecked ? `No shipment has the code ${found.code}.`
            : `The service could not be asked (${found.serviceError?.message ?? 'logged out'}); the code may still exist.`;
          item = { code: found.code, deliveryId: null, carrier: null, collectionPlace: null, recipientName: null, status: found.kind === 'not_found' ? 'not-found' : found.kind, message };
        }
        items.push(item);
        const logged: Record<BatchItem['status'], ScanOutcome> = {
          ready: 'pending', closed: 'already_closed', cancelled: 'cancelled', 'not-found': 'not_found', ambiguous: 'ambiguous', invalid: 'error',
        };
        scanIds.set(item.code, deps.repos.scanLog.record({
          accountId: deps.session()?.accountId ?? '', code: item.code, rawCode: item.code === raw ? null : raw, scannedAt: deps.clock.now(),
          outcome: logged[item.status], deliveryId: item.deliveryId, message: item.message,
        }));
        changed();
        return item;
      });
    },
    items: () => items.map((i) => ({ ...i })),
    remove(code: string) {
      items = items.filter((i) => i.code !== code);
      changed();
    },
    clear() {
      items = [];
      changed();
    },

    /** Closes every ready shipment of the batch, fetches and prints labels per carrier; one summary. */
    async closeAll(): Promise<BatchSummary> {
      if (closing) throw new StationError('batch_busy', 'The batch is being closed already.');
      closing = true;
      try {
        const s = session();
        const ready: { item: BatchItem; shipment: Shipment }[] = [];
        for (const item of items) {
          const sh = item.status === 'ready' && item.deliveryId !== null ? deps.repos.shipments.get(s.accountId, item.deliveryId) : null;
          if (sh) ready.push({ item, shipment: sh });
        }
        const results = ready.length ? await closeShipments(deps, s, ready.map((r) => r.shipment)) : new Map<number, ShipmentCloseResult>();
        const closed = ready.flatMap((r) => {
          const res = results.get(r.shipment.deliveryId);
          return res?.kind === 'closed' ? [res.shipment] : [];
        });

        // Labels per carrier, printed per carrier in the batch's order.
        const labels = closed.length ? await fetchLabelJobs({ session: s, labels: deps.repos.labels, rules: deps.routes(), now: () => deps.clock.now() }, closed) : { prints: [], failures: [] };
        const jobs = labels.prints.map((p) => deps.queue.enqueue(p));
        await deps.jobs.wait(jobs.map((j) => j.id), printWaitMs);

        const shipments: BatchShipmentResult[] = ready.map(({ item, shipment }) => {
          const res = results.get(shipment.deliveryId);
          const base = { deliveryId: shipment.deliveryId, code: item.code, carrier: shipment.agent ?? '', collectionPlace: placeOf(shipment) };
          if (res?.kind !== 'closed') return { ...base, closed: false, print: 'not-printed', jobIds: [], error: errorOf(res) };
          const mine = jobs.filter((j) => j.deliveryIds.includes(shipment.deliveryId)).map((j) => deps.queue.get(j.id));
          const failure = labels.failures.find((f) => f.deliveryIds.includes(shipment.deliveryId));
          if (failure || mine.length === 0) {
            return { ...base, closed: true, print: 'not-printed', jobIds: [], error: failure?.trouble.error ?? { code: 'no_labels', message: 'No labels came for this shipment.' } };
          }
          const down = mine.find((j) => j.state === 'failed' || j.state === 'uncertain');
          const print = down ? 'printer-down' : mine.every((j) => j.state === 'done') ? 'printed' : 'queued';
          const error = down ? { code: down.reasonCode ?? 'printer_error', message: down.reason ?? 'The printer did not print the label; it waits in the print queue.' } : null;
          return { ...base, closed: true, print, jobIds: mine.map((j) => j.id), error };
        });

        const groups = new Map<string, BatchSummary['groups'][number]>();
        for (const r of shipments) {
          const key = `${r.carrier}\u0000${r.collectionPlace ?? ''}`;
          const g = groups.get(key) ?? { carrier: r.carrier, collectionPlace: r.collectionPlace, deliveryIds: [], closed: true };
          g.deliveryIds.push(r.deliveryId);
          g.closed &&= r.closed;
          groups.set(key, g);
        }

        for (const r of shipments) {
          const id = scanIds.get(r.code);
          if (id === undefined) continue;
          const outcome: ScanOutcome = !r.closed ? (r.error?.code === 'carrier_rejected' ? 'rejected' : r.error?.code === 'closed_elsewhere' ? 'already_closed' : 'error') : r.print === 'printed' ? 'printed' : r.print === 'not-printed' ? 'closed' : 'queued';
          deps.repos.scanLog.update(id, { outcome, message: r.error?.message ?? null });
        }

        // What closed leaves the batch; the rest stays with its reason, to be fixed and closed again.
        const closedIds = new Set(shipments.filter((r) => r.closed).map((r) => r.deliveryId));
        items = items.filter((i) => i.deliveryId === null || !closedIds.has(i.deliveryId)).map((i) => {
          const r = shipments.find((x) => x.deliveryId === i.deliveryId);
          if (!r?.error) return i;
          const status = r.error.code === 'closed_elsewhere' ? 'closed' : r.error.code === 'cancelled' ? 'cancelled' : i.status;
          return { ...i, status, message: r.error.message };
        });
        changed();
        return {
          closed: closedIds.size,
          printed: shipments.filter((r) => r.print === 'printed').length,
          failed: shipments.filter((r) => !r.closed || r.print === 'not-printed' || r.print === 'printer-down').length,
          groups: [...groups.values()],
          shipments,
          skipped: items.filter((i) => i.status !== 'ready'),
        };
      } finally {
        closing = false;
      }
    },
  };
}

export type BatchClose = ReturnType<typeof createBatchClose>;
