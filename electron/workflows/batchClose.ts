/**
 * Batch mode: scan many, then close them all. The client sends one close per
 * carrier + collection place (spec "PATCH /api/v3/deliveries", "Limits"), labels are fetched per
 * carrier (one request each) and printed per carrier, and the summary says per shipment what
 * closed, what printed, and what failed and why. Shipments that did not close stay in the batch,
 * so the worker can fix them and close again.
 *
 * With a scale set up ("Batch mode too"), each parcel is weighed as its code is
 * collected — the worker scans it with the parcel on the scale, one settled weight per package —
 * and the weights stay with the batch item. At the close, a shipment whose weight is off by more
 * than the tolerance is updated at the service first (the single scan's own path: GET, PUT with
 * If-Match), and the weights are recorded on its journal entry in the commit that creates it.
 */
import type { ScanOutcome, Shipment } from '../../shared/contract/shipments';
import { isClosedState, shipmentStates } from '../../shared/contract/shipments';
import { StationError } from '../base/stationError';
import { toSummary } from '../store/shipmentsRepo';
import { createSerialWriter } from '../printing/printerDriver';
import { createCloseAndPrint, type EntryResult } from './closeAndPrint';
import { nextTurn, READS_PER_TURN } from '../base/slices';
import type { JournalEntry } from '../store/journalRepo';
import type { ShipmentCloseResult } from './closeShipments';
import type {
  BatchCollected,
  BatchItem,
  BatchItems,
  BatchItemsChange,
  BatchShipmentResult,
  BatchSummary,
  WorkflowError,
} from './schemas';
import type { WorkflowDeps, WorkflowSession } from './workflowDeps';
import type { LookupResult } from '../../shared/contract/shipments';
import type { PackageWeight } from '../store/weighRepo';
import type { OffPackage, Sent, SentOutcome, WeighedInfo } from '../scale/weighBeforeClose';
import { shipmentInfo } from './scanToClose';

/** The desk's weighing, as batch mode uses it (electron/scale/desk.ts). */
export interface BatchDesk {
  /** A scale is set up: collected parcels are weighed. */
  enabled(): boolean;
  /**
   * One settled weight per package of a prepared shipment, in turn. Null: the station is closing.
   * `again`: after the worker accepted the weight check, the parcel still on the scale is taken again.
   */
  weigh(s: Shipment, again?: boolean): Promise<PackageWeight[] | null>;
  /** The packages off the shipment's weight by more than the desk's share (Settings → Scale). */
  offByShare(s: Shipment, weights: PackageWeight[]): OffPackage[];
  /** The weights onto the service when off by more than the tolerance (the single scan's path). */
  send(session: WorkflowSession, s: Shipment, weights: PackageWeight[]): Promise<Sent>;
  /** The weights and what they did, on the shipment's journal entry. */
  record(entryId: number, weights: PackageWeight[], outcome: SentOutcome): void;
  weighedOf(entryId: number, s: Shipment): WeighedInfo | null;
  /** Runs `fn` in one commit (the journal entries and their weights). */
  atomically<T>(fn: () => T): T;
}

export interface BatchCloseOptions {
  /** How long closeAll waits for the labels to leave the printers before reporting them queued (default 15 s). */
  printWaitMs?: number;
  /** What changed in the batch (`batch.items`). */
  onItems?(change: BatchItemsChange): void;
  /** Weighing at collect time, when the station has a scale (electron/scale). */
  desk?: BatchDesk;
  /** The language the service answers in (accept-language, electron/status/stationLanguage.ts): a refusal's words are kept with it. */
  language?: () => 'en' | 'cs';
}

/**
 * Journal entries begun per commit (with their codes' removal from the batch list): a commit of 50
 * stays within a slice's budget; 500 in one blocked the event loop well past it.
 */
const BEGIN_SLICE = 50;

const placeOf = (s: Shipment) =>
  s.sender.type === 'collectionPlace' ? (s.sender.collectionPlace ?? s.collectionPlace) : null;

function itemFor(code: string, s: Shipment): BatchItem {
  const status =
    s.state === shipmentStates.prepared
      ? 'ready'
      : s.state === shipmentStates.cancelled
        ? 'cancelled'
        : isClosedState(s.state)
          ? 'closed'
          : 'invalid';
  const message =
    status === 'cancelled'
      ? `Shipment ${s.deliveryId} is cancelled.`
      : status === 'closed'
        ? `Shipment ${s.deliveryId} is already closed.`
        : status === 'invalid'
          ? `Shipment ${s.deliveryId} is in state ${s.state}.`
          : null;
  return {
    code,
    deliveryId: s.deliveryId,
    carrier: s.agent,
    collectionPlace: placeOf(s),
    recipientName: toSummary(s).recipientName,
    status,
    message,
    reason:
      status === 'ready'
        ? null
        : {
            code: status === 'cancelled' ? 'cancelled' : status === 'closed' ? 'already_closed' : 'unknown_state',
            values: { deliveryId: s.deliveryId, state: s.state },
          },
  };
}

/** A collected code that names no one shipment, with why. */
function unfoundItem(found: Exclude<LookupResult, { kind: 'found' }>): BatchItem {
  const message =
    found.kind === 'invalid'
      ? found.message
      : found.kind === 'ambiguous'
        ? `The code ${found.code} matches ${found.candidates.length} shipments; scan another code of the parcel.`
        : found.serviceChecked
          ? `No shipment has the code ${found.code}.`
          : `The service could not be asked (${found.serviceError?.message ?? 'logged out'}); the code may still exist.`;
  return {
    code: found.code,
    deliveryId: null,
    carrier: null,
    collectionPlace: null,
    recipientName: null,
    status: found.kind === 'not_found' ? 'not_found' : found.kind,
    message,
    reason:
      found.kind === 'invalid'
        ? { code: 'not_a_code' }
        : found.kind === 'ambiguous'
          ? { code: 'ambiguous', values: { code: found.code, n: found.candidates.length } }
          : { code: found.serviceChecked ? 'not_found' : 'not_asked', values: { code: found.code } },
  };
}

function errorOf(
  r: Extract<ShipmentCloseResult, { kind: 'closed_elsewhere' | 'cancelled' | 'rejected' }>,
): WorkflowError {
  switch (r.kind) {
    case 'closed_elsewhere':
      return {
        code: 'closed_elsewhere',
        message: `Shipment ${r.shipment.deliveryId} was closed elsewhere meanwhile; reprint its labels from the scan screen if needed.`,
      };
    case 'cancelled':
      return { code: 'cancelled', message: `Shipment ${r.shipment.deliveryId} was cancelled meanwhile.` };
    case 'rejected':
      // The shipment's own reasons, each a line of the summary; the service's headline (said of the
      // whole close: "the shipments") only when it gave none. The log's message keeps both.
      return {
        code: 'carrier_rejected',
        message: [r.message, ...r.messages].join(' | '),
        messages: r.messages.length ? r.messages : [r.message],
      };
  }
}

/** One shipment's line of the summary, from its journal entry's result and its print jobs as they are now. */
function resultOfWith(deps: WorkflowDeps) {
  return (item: BatchItem, shipment: Shipment, r: EntryResult | undefined): BatchShipmentResult => {
    const base = {
      deliveryId: shipment.deliveryId,
      code: item.code,
      carrier: shipment.agent ?? '',
      collectionPlace: placeOf(shipment),
    };
    const none = { jobIds: [] as number[], print: 'not_printed' as const };
    if (!r)
      return {
        ...base,
        ...none,
        closed: false,
        outcome: 'not_closed',
        error: { code: 'close_no_answer', message: 'The close gave no result for this shipment.' },
      };
    switch (r.kind) {
      case 'queued': {
        const jobs = r.jobs.map((j) => deps.queue.get(j.id));
        // A label waiting for its printer (offline, out of labels), also one queued behind such a
        // label, is said with the printer's reason, not as on its way.
        const waits = jobs.map((j) => ({ j, reason: deps.jobs.waitReason(j) })).find((w) => w.reason);
        const down =
          waits?.j ??
          jobs.find(
            (j) =>
              j.state !== 'done' &&
              j.state !== 'spooled' &&
              j.state !== 'queued' &&
              j.state !== 'sending' &&
              j.state !== 'sent',
          );
        const finished = jobs.every((j) => j.state === 'done' || j.state === 'spooled');
        // Handed to the print system (CUPS, Windows), which does not say it printed: its own outcome.
        const error =
          waits?.reason ??
          (down
            ? {
                code: down.reasonCode ?? 'printer_error',
                message: down.reason ?? 'The printer did not print the label; it waits in the print queue.',
              }
            : null);
        const jobIds = jobs.map((j) => j.id);
        if (down) return { ...base, closed: true, print: 'printer_down', outcome: 'closed_not_printed', jobIds, error };
        const print = finished ? (jobs.some((j) => j.state === 'spooled') ? 'spooled' : 'printed') : 'queued';
        return { ...base, closed: true, print, outcome: print, jobIds, error };
      }
      case 'not_printed':
        return { ...base, ...none, closed: true, outcome: 'closed_not_printed', error: r.error };
      case 'waiting':
        return {
          ...base,
          ...none,
          print: r.closed ? 'queued' : 'not_printed',
          closed: r.closed,
          outcome: r.closed ? 'queued' : 'waiting',
          error: r.trouble.error,
        };
      case 'missing':
        return { ...base, ...none, closed: false, outcome: 'not_closed', error: r.error };
      case 'refused':
        return {
          ...base,
          ...none,
          closed: false,
          outcome: r.close.kind === 'rejected' ? 'refused' : 'not_closed',
          error: errorOf(r.close),
        };
    }
  };
}

export function createBatchClose(deps: WorkflowDeps, opts: BatchCloseOptions = {}) {
  const printWaitMs = opts.printWaitMs ?? 15_000;
  const engine = createCloseAndPrint(deps);
  const resultOf = resultOfWith(deps);
  // The list survives a restart: a collected code is acknowledged by being in it.
  const stored = deps.repos.batchItems.list();
  let items: BatchItem[] = stored.map((x) => x.item);
  /** Each collected code's scan log row, updated with what closing did. */
  const scanIds = new Map<string, number>(
    stored.flatMap((x) => (x.scanId !== null ? [[x.item.code, x.scanId] as const] : [])),
  );
  const keep = () =>
    deps.repos.batchItems.replace(items.map((item) => ({ item, scanId: scanIds.get(item.code) ?? null })));
  /** Collected codes are looked up one at a time, in scan order (a fast scanner never overtakes itself). */
  const inOrder = createSerialWriter();
  let closing = false;
  /** Changes counted, so a page that missed one (a reconnect) loads the whole batch again. */
  let version = 0;
  /** What changed, not the whole batch: the page applies it to the list it has. */
  const changed = (put: BatchItem[], remove: string[]) => {
    if (!put.length && !remove.length) return;
    version++;
    opts.onItems?.({ version, put: put.map((i) => ({ ...i })), remove });
  };

  function session() {
    const s = deps.session();
    if (!s)
      throw new StationError(
        'login_required',
        'The station is not logged in to the service. Log in, then close the batch.',
      );
    return s;
  }

  return {
    /**
     * Adds one scanned code (cache first, then the service). A shipment scanned twice is listed once.
     * Weighed off the shipment's weight by more than the desk's share, it is not added: the answer is
     * the weight check, and the worker's Enter collects it again with `acceptWeight`.
     */
    collect(raw: string, answer: { acceptWeight?: boolean } = {}): Promise<BatchCollected> {
      const code = raw.trim();
      return inOrder(async () => {
        const found = await deps.lookup(code);
        let item: BatchItem;
        if (found.kind === 'found') {
          const existing = items.find((i) => i.deliveryId === found.shipment.deliveryId);
          if (existing) return existing;
          item = itemFor(found.code, found.shipment);
          const desk = opts.desk;
          if (item.status === 'ready' && desk?.enabled() && found.shipment.packages.length > 0) {
            // The parcel lies on the scale as its code is scanned: it is collected once weighed.
            const accepted = answer.acceptWeight === true;
            const weights = await desk.weigh(found.shipment, accepted);
            if (!weights)
              throw new StationError(
                'unavailable',
                'The station closed while the parcel waited for the scale; scan it again.',
              );
            // Asked before it is collected, so nothing is kept of an open question: a stop or a kill
            // leaves the parcel out of the batch, never in it with a weight nobody accepted.
            const off = accepted ? [] : desk.offByShare(found.shipment, weights);
            if (off.length)
              return { kind: 'weight_check', code: found.code, shipment: shipmentInfo(found.shipment), packages: off };
            item = { ...item, weights };
          }
        } else {
          item = unfoundItem(found);
        }
        const logged: Record<BatchItem['status'], ScanOutcome> = {
          ready: 'pending',
          closed: 'already_closed',
          cancelled: 'cancelled',
          not_found: 'not_found',
          ambiguous: 'ambiguous',
          invalid: 'error',
          refused: 'rejected',
        };
        const scanId = deps.repos.batchItems.collect(item, () =>
          deps.repos.scanLog.record({
            accountId: deps.session()?.accountId ?? '',
            code: item.code,
            rawCode: item.code === raw ? null : raw,
            scannedAt: deps.clock.now(),
            outcome: logged[item.status],
            deliveryId: item.deliveryId,
            message: item.message,
          }),
        );
        const again = items.some((i) => i.code === item.code);
        items = [...items.filter((i) => i.code !== item.code), item];
        scanIds.set(item.code, scanId);
        // Collected again: it moves to the end (removed, then appended).
        changed([item], again ? [item.code] : []);
        // Acknowledged (being in the list) once on the disk (store/walSync.ts).
        await deps.durable?.();
        return item;
      });
    },
    items: () => items.map((i) => ({ ...i })),
    /** The whole batch with the version of the last change sent: what a page loads on (re)connect. */
    itemsList: (): BatchItems => ({ version, items: items.map((i) => ({ ...i })) }),
    remove(code: string) {
      deps.repos.batchItems.remove([code]);
      const had = items.some((i) => i.code === code);
      items = items.filter((i) => i.code !== code);
      changed([], had ? [code] : []);
    },
    /**
     * Each collected code looked up again and its mark set anew (the service's data changed under
     * it: "Reset demo data" made closed shipments prepared again). Kept in order,
     * after the collects already in line; a code that cannot be looked up now keeps its mark.
     */
    recheck(): Promise<void> {
      return inOrder(async () => {
        const put: BatchItem[] = [];
        for (const [n, item] of items.entries()) {
          const found = await deps.lookup(item.code);
          if (found.kind !== 'found') continue;
          const fresh: BatchItem = {
            ...itemFor(found.code, found.shipment),
            ...(item.weights && found.shipment.deliveryId === item.deliveryId ? { weights: item.weights } : {}),
          };
          if (JSON.stringify(fresh) === JSON.stringify(item)) continue;
          items[n] = fresh;
          put.push(fresh);
        }
        keep();
        changed(put, []);
      });
    },
    clear() {
      deps.repos.batchItems.replace([]);
      const gone = items.map((i) => i.code);
      items = [];
      changed([], gone);
    },

    /**
     * Closes every ready (or refused, to try again) shipment of the batch through the journal:
     * one entry per shipment, one close request per carrier + collection place, labels per
     * carrier; one summary that says per shipment what happened.
     */
    async closeAll(): Promise<BatchSummary> {
      if (closing) throw new StationError('batch_busy', 'The batch is being closed already.');
      closing = true;
      try {
        const s = session();
        const ready: { item: BatchItem; shipment: Shipment }[] = [];
        /** Codes to close that name no shipment any more: skipped, with why. */
        const lost = new Map<string, BatchItem>();
        for (const [n, item] of items.entries()) {
          // The event loop runs between slices of cache reads (a batch of 500 is no one long block).
          if (n > 0 && n % READS_PER_TURN === 0) await nextTurn();
          if ((item.status !== 'ready' && item.status !== 'refused') || item.deliveryId === null) continue;
          let sh = deps.repos.shipments.get(s.accountId, item.deliveryId);
          if (!sh) {
            // Not in the cache any more (Reset demo data forgets it): looked up again as when it was
            // collected, so it is closed, or named in the summary, never silently left out of it.
            const found = await deps.lookup(item.code);
            if (found.kind === 'found') sh = found.shipment;
            else lost.set(item.code, { ...unfoundItem(found), weights: item.weights });
          }
          if (sh) ready.push({ item, shipment: sh });
        }
        // Weighed parcels first: a weight off by more than the tolerance goes to the service before
        // the close, as for a single scan. One the service did not take stays in the batch.
        const toClose: { item: BatchItem; shipment: Shipment; sent: SentOutcome | null }[] = [];
        const held = new Map<number, BatchShipmentResult>();
        for (const r of ready) {
          const weights = r.item.weights;
          if (!opts.desk || !weights?.length) {
            toClose.push({ ...r, sent: null });
            continue;
          }
          const sent = await opts.desk.send(s, r.shipment, weights);
          if (sent.kind === 'go') {
            toClose.push({ ...r, sent: sent.outcome });
            continue;
          }
          const base = {
            deliveryId: r.shipment.deliveryId,
            code: r.item.code,
            carrier: r.shipment.agent ?? '',
            collectionPlace: placeOf(r.shipment),
            closed: false,
            print: 'not_printed' as const,
            jobIds: [],
          };
          held.set(
            r.shipment.deliveryId,
            sent.kind === 'end'
              ? { ...base, outcome: 'refused', error: sent.error }
              : {
                  ...base,
                  outcome: 'not_closed',
                  error: {
                    code: sent.trouble.error.code,
                    message: `The service did not take the weighed weight (${sent.trouble.error.message}); the shipment stays in the batch, close it again.`,
                  },
                },
          );
        }
        const desk = opts.desk;
        const journal = deps.repos.journal;
        /**
         * One slice's journal entries, in one commit with the removal of exactly its codes from the
         * batch list (after a crash they are closed and printed by the journal, not offered again as
         * ready; the codes of later slices are still in the list) and the weights used on each entry
         * (the outcome and a restart read them there).
         */
        const beginSlice = (slice: typeof toClose) => {
          const begin = () =>
            journal.begin(
              slice.map(({ item, shipment }) => ({
                accountId: s.accountId,
                source: 'batch',
                scanId: scanIds.get(item.code) ?? null,
                code: item.code,
                deliveryId: shipment.deliveryId,
                want: 'close_and_print',
              })),
              deps.clock.now(),
              () => deps.repos.batchItems.remove(slice.map((r) => r.item.code)),
            );
          if (!desk) return begin();
          return desk.atomically(() => {
            const list = begin();
            list.forEach((e, i) => {
              const t = slice[i]!;
              if (t.sent !== null && t.item.weights) desk.record(e.id, t.item.weights, t.sent);
            });
            return list;
          });
        };
        // In slices, the event loop running between them (500 entries in one commit blocked it
        // for tens of ms). What a slice began is claimed at once, so the background resume does not take
        // it while later slices are begun; the claim passes to the engine below.
        const entries: JournalEntry[] = [];
        try {
          for (let i = 0; i < toClose.length; i += BEGIN_SLICE) {
            await nextTurn();
            const list = beginSlice(toClose.slice(i, i + BEGIN_SLICE));
            journal.claim(list.map((e) => e.id));
            entries.push(...list);
          }
        } catch (err) {
          // A slice's commit failed: what earlier slices began is in the journal (the background resume
          // closes it), so it leaves the list shown as it left the stored one; the rest stays listed.
          journal.release(entries.map((e) => e.id));
          const begun = new Set(toClose.slice(0, entries.length).map((t) => t.item.code));
          const gone = items.filter((i) => begun.has(i.code)).map((i) => i.code);
          items = items.filter((i) => !begun.has(i.code));
          changed([], gone);
          throw err;
        }
        // Released and claimed again by the engine in the same turn (run claims before its first await).
        journal.release(entries.map((e) => e.id));
        const results = entries.length ? await engine.run(s, entries) : new Map<number, EntryResult>();
        const jobIds = [...results.values()].flatMap((r) => (r.kind === 'queued' ? r.jobs.map((j) => j.id) : []));
        await deps.jobs.wait(jobIds, printWaitMs);

        // Each line reads its print jobs (and a weighed one its shipment) from the database: in slices.
        const closedLine = new Map<number, BatchShipmentResult>();
        for (const [i, { item, shipment, sent }] of toClose.entries()) {
          if (i > 0 && i % READS_PER_TURN === 0) await nextTurn();
          const entry = entries[i]!;
          const line = resultOf(item, shipment, results.get(entry.id));
          const now = sent !== null ? deps.repos.shipments.get(s.accountId, shipment.deliveryId) : null;
          const weighed = now && desk ? desk.weighedOf(entry.id, now) : null;
          closedLine.set(shipment.deliveryId, weighed ? { ...line, weighed } : line);
        }
        const shipments: BatchShipmentResult[] = ready.map(
          ({ shipment }) => held.get(shipment.deliveryId) ?? closedLine.get(shipment.deliveryId)!,
        );

        const groups = new Map<string, BatchSummary['groups'][number]>();
        for (const r of shipments) {
          const key = `${r.carrier}\u0000${r.collectionPlace ?? ''}`;
          const g = groups.get(key) ?? {
            carrier: r.carrier,
            collectionPlace: r.collectionPlace,
            deliveryIds: [],
            closedCount: 0,
          };
          g.deliveryIds.push(r.deliveryId);
          if (r.closed) g.closedCount++;
          groups.set(key, g);
        }

        const logged: Record<BatchShipmentResult['outcome'], ScanOutcome> = {
          printed: 'printed',
          spooled: 'spooled',
          queued: 'queued',
          closed_not_printed: 'closed',
          refused: 'rejected',
          not_closed: 'error',
          waiting: 'queued',
        };
        // The scan log's outcomes guard no side effect: a lazy commit per slice, not one per scan, and
        // not 500 updates in one block of the loop.
        const updates = shipments.flatMap((r) => {
          const id = scanIds.get(r.code);
          if (id === undefined) return [];
          const outcome =
            r.outcome === 'not_closed' && r.error?.code === 'closed_elsewhere' ? 'already_closed' : logged[r.outcome];
          return [{ id, update: { outcome, message: r.error?.message ?? null } }];
        });
        for (let i = 0; i < updates.length; i += BEGIN_SLICE) {
          await nextTurn();
          deps.repos.scanLog.updateAll(updates.slice(i, i + BEGIN_SLICE));
        }
        await nextTurn();

        // What closed, or waits in the journal to close by itself, leaves the batch; the rest stays with its reason.
        const gone = new Set(shipments.filter((r) => r.closed || r.outcome === 'waiting').map((r) => r.deliveryId));
        const lineOf = new Map(shipments.map((x) => [x.deliveryId, x]));
        const before = items;
        items = items
          .filter((i) => i.deliveryId === null || !gone.has(i.deliveryId))
          .map((i) => {
            const unfound = lost.get(i.code);
            if (unfound) return unfound;
            const r = i.deliveryId === null ? undefined : lineOf.get(i.deliveryId);
            if (!r?.error) return i;
            const status: BatchItem['status'] =
              r.outcome === 'refused'
                ? 'refused'
                : r.error.code === 'closed_elsewhere'
                  ? 'closed'
                  : r.error.code === 'cancelled'
                    ? 'cancelled'
                    : i.status;
            const reason: BatchItem['reason'] =
              status === 'refused'
                ? { code: 'rejected', words: r.error.messages ?? [], wordsLanguage: opts.language?.() }
                : status === 'closed'
                  ? { code: 'closed_elsewhere', values: { deliveryId: r.deliveryId } }
                  : status === 'cancelled'
                    ? { code: 'cancelled', values: { deliveryId: r.deliveryId } }
                    : { code: 'not_closed', values: { deliveryId: r.deliveryId } };
            return { ...i, status, message: r.error.message, reason };
          });
        keep();
        const left = new Set(items.map((i) => i.code));
        const was = new Map(before.map((i) => [i.code, i]));
        changed(
          items.filter((i) => was.get(i.code) !== i),
          before.filter((i) => !left.has(i.code)).map((i) => i.code),
        );
        return {
          closed: shipments.filter((r) => r.closed).length,
          printed: shipments.filter((r) => r.print === 'printed').length,
          failed: shipments.filter((r) => r.outcome !== 'printed' && r.outcome !== 'spooled' && r.outcome !== 'queued')
            .length,
          groups: [...groups.values()],
          shipments,
          skipped: items.filter((i) => i.status !== 'ready' && i.status !== 'refused'),
        };
      } finally {
        closing = false;
      }
    },
  };
}

export type BatchClose = ReturnType<typeof createBatchClose>;
